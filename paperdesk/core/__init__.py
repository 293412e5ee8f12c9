"""Pure domain: dataclasses, change records, errors and text rules. Standard library only."""

"""formats layer (see DESIGN.md §2)."""

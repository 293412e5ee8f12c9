"""The whoosh full-text index: schema, index, query parsing, and which words a hit marks."""

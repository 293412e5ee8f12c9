"""search layer (see DESIGN.md §2)."""

"""store layer (see DESIGN.md §2)."""

"""services layer (see DESIGN.md §2)."""

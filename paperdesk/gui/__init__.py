"""gui layer (see DESIGN.md §2)."""

"""File formats, one module per format and direction, no database; registry.py names them."""

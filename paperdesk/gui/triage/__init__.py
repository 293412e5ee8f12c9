"""Triage: the keyboard-only view that decides paper by paper, as a mode of the window."""

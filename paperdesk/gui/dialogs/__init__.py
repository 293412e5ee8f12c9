"""Dialogs: questions and reports, export, duplicates, preferences, statistics."""

"""The main window: its panes, the paper table, menus and commands, and what it says
about the open library.
"""

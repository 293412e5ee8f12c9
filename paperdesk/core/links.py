"""Which links may be opened with a click.

A paper's URL comes from whatever file it was imported from: `file:///bin/sh`,
`javascript:...` or `smb://host/share` are data, never something to hand to a browser
or the desktop. Everything that makes a link clickable (the detail pane, the Markdown
and BibTeX exports) asks `safe_url` first.
"""

from __future__ import annotations

from urllib.parse import urlsplit

_SCHEMES = frozenset({"http", "https"})


def safe_url(url: str | None) -> str | None:
    """The URL without outer blanks if it is http(s) with a host and no blanks or control
    characters inside; None for anything else."""
    if not url:
        return None
    text = url.strip()
    if any(char.isspace() or ord(char) < 32 or ord(char) == 127 for char in text):
        return None
    try:
        parts = urlsplit(text)
    except ValueError:  # `http://[::1` and other malformed hosts
        return None
    if parts.scheme.lower() not in _SCHEMES or not parts.hostname or "\\" in text:
        return None
    return text

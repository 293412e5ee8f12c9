"""A menu entry for the desktop app: the `.desktop` file and the icon the package ships,
installed for this user where freedesktop.org desktops (GNOME, KDE, Xfce...) look."""

from __future__ import annotations

import os
import re
from pathlib import Path

from paperdesk.config import bundled_dir

DESKTOP_FILE = "paperdesk.desktop"
ICON_FILE = "paperdesk.svg"
_NEEDS_QUOTES = re.compile(r'[\s"\'\\$`]')


def data_home() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")


def entry_paths() -> tuple[Path, Path]:
    home = data_home()
    return home / "applications" / DESKTOP_FILE, home / "icons/hicolor/scalable/apps" / ICON_FILE


def install_menu_entry(command: list[str]) -> list[Path]:
    """Write the menu entry and the icon; the entry starts `command` (this very program:
    a virtual environment's or pipx's `paperdesk` is rarely on the desktop's PATH)."""
    resources = bundled_dir("resources")
    exec_line = " ".join(_desktop_quoted(part) for part in command)
    text = (resources / DESKTOP_FILE).read_text(encoding="utf-8")
    # The program only: its arguments (`--import %F`, the files a file manager hands over)
    # stay.
    text = re.sub(r"(?m)^Exec=\S+", lambda _m: f"Exec={exec_line}", text)
    text = re.sub(r"(?m)^TryExec=.*$", lambda _m: f"TryExec={command[0]}", text)
    desktop, icon = entry_paths()
    for path in (desktop, icon):
        path.parent.mkdir(parents=True, exist_ok=True)
    desktop.write_text(text, encoding="utf-8")
    icon.write_bytes((resources / ICON_FILE).read_bytes())
    return [desktop, icon]


def remove_menu_entry() -> list[Path]:
    """Remove what install_menu_entry wrote; returns what was there."""
    removed = [path for path in entry_paths() if path.exists()]
    for path in removed:
        path.unlink()
    return removed


def _desktop_quoted(argument: str) -> str:
    # The Desktop Entry Specification's quoting: double quotes, with ", `, $ and \ escaped.
    if not _NEEDS_QUOTES.search(argument):
        return argument
    escaped = re.sub(r'(["`$\\])', r"\\\1", argument)
    return f'"{escaped}"'

"""Where the library lives: --library DIR, else $PAPERDESK_LIBRARY, else the folder chosen
in the desktop app's Preferences, else the user data folder."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_path, user_data_path

from paperdesk import APP_NAME
from paperdesk.core.errors import LibraryError
from paperdesk.core.team_url import TeamAddress, is_team_url

LIBRARY_ENV = "PAPERDESK_LIBRARY"
DB_FILE = "library.sqlite3"
INDEX_DIR = "index"
BACKUP_DIR = "backups"
# Notes of the temporary files exports are writing, so a killed export's are removed.
UNFINISHED_DIR = "unfinished"


def bundled_dir(name: str) -> Path:
    """A folder the app ships (`resources`, `seeds`).

    A wheel installs the project's top-level `resources/` and `seeds/` inside the package
    (pyproject maps them to `paperdesk.resources` and `paperdesk.seeds`); a source
    checkout or an editable install keeps them beside the package.
    """
    package = Path(__file__).resolve().parent
    installed = package / name
    return installed if installed.is_dir() else package.parent / name


# One line: the library folder chosen in Preferences. A plain file, not the GUI's QSettings,
# so that the command line opens the same library as the window.
DEFAULT_LIBRARY_FILE = "default-library"


def _choice_file() -> Path:
    return user_config_path(APP_NAME, appauthor=False) / DEFAULT_LIBRARY_FILE


def chosen_default_library_dir() -> Path | None:
    """The folder chosen in Preferences, if one was."""
    try:
        text = _choice_file().read_text(encoding="utf-8").strip()
    except OSError:
        return None
    return Path(text).expanduser() if text else None


def choose_default_library_dir(folder: Path | None) -> None:
    """Remember `folder` as the default library (None: back to the user data folder)."""
    path = _choice_file()
    if folder is None:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{Path(folder).expanduser()}\n", encoding="utf-8")


def default_library_dir(chosen: bool = True) -> Path:
    """The folder chosen in Preferences (unless `chosen` is False), else the user data one."""
    if chosen and (folder := chosen_default_library_dir()) is not None:
        return folder
    return user_data_path(APP_NAME, appauthor=False) / "library"


def resolve_library_dir(explicit: str | os.PathLike[str] | None) -> Path:
    location = resolve_library(explicit)
    if isinstance(location, TeamAddress):
        raise LibraryError(f"{location.masked} is a team library, not a folder")
    return location


def resolve_library(explicit: str | os.PathLike[str] | None) -> Path | TeamAddress:
    """The library to open: a folder, or a team library's `postgresql://` address
    (never a folder named `postgresql:`)."""
    chosen = os.fspath(explicit) if explicit else os.environ.get(LIBRARY_ENV)
    if chosen and is_team_url(chosen):
        return TeamAddress.parse(chosen)
    if chosen:
        return Path(chosen).expanduser()
    return default_library_dir()


#: Beside the user's libraries: one folder per team library (its local search index).
TEAMS_DIR = "teams"


def team_state_dir(address: TeamAddress) -> Path:
    """This machine's state for a team library, keyed by server, database and user."""
    return user_data_path(APP_NAME, appauthor=False) / TEAMS_DIR / address.key

"""Where the library lives: --library DIR, else $PAPERDESK_LIBRARY, else the user data folder."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_data_path

from paperdesk import APP_NAME

LIBRARY_ENV = "PAPERDESK_LIBRARY"
DB_FILE = "library.sqlite3"
INDEX_DIR = "index"
BACKUP_DIR = "backups"


def bundled_dir(name: str) -> Path:
    """A folder the app ships (`resources`, `seeds`).

    A wheel installs the project's top-level `resources/` and `seeds/` inside the package
    (pyproject maps them to `paperdesk.resources` and `paperdesk.seeds`); a source
    checkout or an editable install keeps them beside the package.
    """
    package = Path(__file__).resolve().parent
    installed = package / name
    return installed if installed.is_dir() else package.parent / name


def default_library_dir() -> Path:
    return user_data_path(APP_NAME, appauthor=False) / "library"


def resolve_library_dir(explicit: str | os.PathLike[str] | None) -> Path:
    if explicit:
        return Path(explicit).expanduser()
    from_env = os.environ.get(LIBRARY_ENV)
    if from_env:
        return Path(from_env).expanduser()
    return default_library_dir()

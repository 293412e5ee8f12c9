"""Opening the library a verb works on, and offering a damaged one's latest backup.

Imported by `main` only once a verb needs a library: this is where the store, the
index and SQLAlchemy are loaded.
"""

from __future__ import annotations

import getpass
import sys
from collections.abc import Callable
from pathlib import Path

from paperdesk.cli.output import EXIT_ERROR, tell
from paperdesk.core.errors import DamagedLibraryError, PasswordNeeded
from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import database_backups


def offer_restore(library_dir: Path, error: DamagedLibraryError) -> int:
    """At a terminal, offer to restore the latest backup of a damaged library."""
    backup = error.latest_backup
    if backup is None or not (sys.stdin.isatty() and sys.stderr.isatty()):
        return EXIT_ERROR
    print(f"Restore {backup.name} now? [y/N] ", end="", file=sys.stderr, flush=True)
    if sys.stdin.readline().strip().lower() not in {"y", "yes"}:
        return EXIT_ERROR
    restored = database_backups.restore_database(library_dir, backup, on_wait=tell)
    print(describe_restore(backup, restored))
    return 0


def open_desk(location: Path | TeamAddress, progress: Callable[[int, int], None]) -> Desk:
    """Open the library folder, or the team library at an address (asking for its
    password at a terminal when the server wants one and none was given)."""
    if not isinstance(location, TeamAddress):
        return Desk.open(location, progress=progress, on_wait=tell)
    try:
        desk = Desk.open_team(location, progress=progress, on_wait=tell)
    except PasswordNeeded:
        if not sys.stdin.isatty() or location.password is not None:
            raise
        password = getpass.getpass(f"Password for {location.masked}: ")
        return Desk.open_team(location.with_password(password), progress=progress, on_wait=tell)
    if location.password is not None:
        tell(
            "a password in the address is visible to this machine's other users (ps, "
            "the shell's history): keep it in ~/.pgpass (or PGPASSFILE) instead"
        )
    return desk


def describe_restore(source: Path, restored: database_backups.Restored) -> str:
    noun = "paper" if restored.papers == 1 else "papers"
    line = f"restored {restored.papers} {noun} from {source}"
    if restored.kept_aside is not None:
        line += f"; the database it replaced was kept as {restored.kept_aside}"
    return line

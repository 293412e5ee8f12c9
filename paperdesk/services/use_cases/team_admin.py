"""Setting up a team library's roles: `paperdesk team init` and `team add-member`.

The server enforces who may do what (store/team_roles.py); these are the owner's
commands that create the roles and grants.
"""

from __future__ import annotations

from paperdesk.core.errors import LibraryError
from paperdesk.services.runtime.desk import Desk
from paperdesk.store.team_roles import LEVELS


def init(desk: Desk) -> str:
    """Create the library's reader, member and owner roles and make the caller an owner;
    returns the owner's name. Safe to run again (it brings the grants up to date)."""
    return _team(desk)._library.init_team()


def add_member(desk: Desk, name: str, level: str = "member", password: str | None = None) -> bool:
    """Let the server's role `name` into the library as a reader, member or owner
    (created, with `password`, if the server has no such role); True when created."""
    if level not in LEVELS:
        raise LibraryError(f"a member is one of {', '.join(LEVELS)}, not {level!r}")
    if not name.strip():
        raise LibraryError("a member needs a name (the role they log in as)")
    return _team(desk)._library.add_member(name.strip(), level, password)


def _team(desk: Desk) -> Desk:
    if not desk._library.shared:
        raise LibraryError(
            f"{desk.location} is a personal library: roles belong to a team library "
            "(--library postgresql://user@host/database)"
        )
    return desk

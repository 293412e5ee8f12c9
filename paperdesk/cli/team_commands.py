"""`paperdesk team init` and `paperdesk team add-member NAME`: a team library's roles."""

from __future__ import annotations

import argparse
import getpass
import sys

from paperdesk.core.errors import PaperdeskError
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import team_admin


def cmd_team(desk: Desk, args: argparse.Namespace) -> int:
    if args.team_action == "init":
        owner = team_admin.init(desk)
        print(f"{desk.location}: roles set up; {owner} is an owner")
        print("let people in with: paperdesk --library ADDRESS team add-member NAME")
        return 0
    if args.team_action == "add-member":
        password = _new_password(args.name) if args.password else None
        created = team_admin.add_member(desk, args.name, args.level, password)
        made = "created and " if created else ""
        print(f"{args.name} {made}added as {args.level} of {desk.location}")
        return 0
    raise PaperdeskError("say what to do: paperdesk team init | team add-member NAME")


def _new_password(name: str) -> str:
    """The new role's password: typed twice at a terminal, else one line of stdin
    (never an argument: `ps` shows those)."""
    if not sys.stdin.isatty():
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass(f"Password for {name}: ")
        if getpass.getpass("Again: ") != password:
            raise PaperdeskError("the two passwords differ: nothing was changed")
    if not password:
        raise PaperdeskError("an empty password: nothing was changed")
    return password

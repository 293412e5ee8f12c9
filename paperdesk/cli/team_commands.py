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


def add_team_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    help_text = "a team library's roles: set them up, let people in"
    sub = commands.add_parser("team", help=help_text, description=help_text)
    sub.set_defaults(handler=cmd_team)
    actions = sub.add_subparsers(dest="team_action", metavar="ACTION")
    actions.add_parser(
        "init",
        help="create the library's reader, member and owner roles; you become an owner "
        "(needs PostgreSQL's CREATEROLE)",
    )
    add = actions.add_parser(
        "add-member", help="let a server role in (created if the server has none)"
    )
    add.add_argument("name", help="the role they log in as")
    levels = add.add_mutually_exclusive_group()
    for level, what in (
        ("reader", "reads only"),
        ("member", "writes papers, tags, shortlists and their own notes and ratings (default)"),
        ("owner", "also adds members and upgrades the library"),
    ):
        levels.add_argument(
            f"--{level}", dest="level", action="store_const", const=level, help=what
        )
    add.set_defaults(level="member")
    add.add_argument(
        "--password",
        action="store_true",
        help="set the role's password: asked at the terminal, or one line of stdin",
    )

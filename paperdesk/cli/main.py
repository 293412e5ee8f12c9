"""`paperdesk`: parse the arguments, open the library, run the verb, report errors."""

from __future__ import annotations

import getpass
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from paperdesk.cli.commands import EXIT_ERROR, describe_restore
from paperdesk.cli.output import ProgressBar, tell
from paperdesk.cli.parser import build_parser
from paperdesk.config import resolve_library, resolve_library_dir
from paperdesk.core.errors import DamagedLibraryError, PaperdeskError, PasswordNeeded, QueryError
from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import database_backups

EXIT_USAGE = 2  # a malformed query, like argparse's own usage errors


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


def _parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise PaperdeskError(f"--size must look like 1400x900, not {text!r}") from None
    return width, height


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    try:
        location = resolve_library(args.library)
        if args.command is None:
            from paperdesk.gui.app import run_gui

            return run_gui(
                location,
                Path(args.screenshot) if args.screenshot else None,
                _parse_size(args.size),
                args.query,
                args.select,
                args.theme,
                [Path(name) for name in args.import_files],
            )
        if not getattr(args, "needs_library", True):
            return int(args.handler(None, args))
        bar = ProgressBar()
        desk = open_desk(location, lambda done, total: bar(done, total, "indexing"))
        bar.finish()
        if desk.read_only:
            tell(f"the library at {desk.location} is read-only: it can be read, not changed")
        try:
            return int(args.handler(desk, args))
        finally:
            desk.close()
    except DamagedLibraryError as error:
        tell(str(error))
        return offer_restore(resolve_library_dir(args.library), error)
    except QueryError as error:
        print(f"paperdesk: bad query: {error}", file=sys.stderr)
        return EXIT_USAGE
    except PaperdeskError as error:
        print(f"paperdesk: {error}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return 0
    except OSError as error:
        # What the disk refused outside the store's own translation (an index file...).
        where = f" ({error.filename})" if error.filename else ""
        print(f"paperdesk: {error.strerror or error}{where}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("paperdesk: interrupted", file=sys.stderr)
        return 130

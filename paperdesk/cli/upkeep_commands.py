"""The verbs that look after the library itself: reindex, check, backup, restore, and
the desktop menu entry."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paperdesk.cli.opening import describe_restore
from paperdesk.cli.output import EXIT_ERROR, ProgressBar, print_json, report_changes, tell
from paperdesk.config import resolve_library_dir
from paperdesk.core.errors import PaperdeskError
from paperdesk.services.runtime import rolling_backups
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import backup, database_backups, desktop, maintenance, reading


def cmd_reindex(desk: Desk, args: argparse.Namespace) -> int:
    bar = ProgressBar()
    count = maintenance.reindex(desk, progress=lambda done, total: bar(done, total, "indexing"))
    bar.finish()
    print(f"indexed {count} papers")
    return 0


def cmd_check(desk: Desk, args: argparse.Namespace) -> int:
    problems = maintenance.check(desk)
    if args.json:
        print_json({"ok": not problems, "problems": problems})
    elif problems:
        for problem in problems:
            print(f"problem: {problem}")
    else:
        print(f"ok: database and index agree ({reading.count(desk)} papers)")
    return EXIT_ERROR if problems else 0


def cmd_backup(desk: Desk, args: argparse.Namespace) -> int:
    if args.keep is not None:
        pruned = database_backups.set_kept(desk, args.keep)
        print(f"keeping the newest {args.keep} automatic backups ({len(pruned)} deleted)")
        if args.output is None:
            return 0
    target = maintenance.backup(desk, Path(args.output) if args.output else None)
    print(f"backed up to {target}")
    return 0


def cmd_restore(_desk: None, args: argparse.Namespace) -> int:
    """A `.sqlite3` backup replaces the database (even a damaged or missing one); a
    JSON backup fills an empty library."""
    library_dir = resolve_library_dir(args.library)
    source = Path(args.file)
    bar = ProgressBar()

    def progress(done: int, total: int) -> None:
        bar(done, total, "indexing")

    if not source.is_file():
        raise PaperdeskError(f"{source}: no such file")
    if rolling_backups.is_database_file(source):
        restored = database_backups.restore_database(
            library_dir, source, force=args.force, progress=progress, on_wait=tell
        )
        bar.finish()
        print(describe_restore(source, restored))
        return 0
    with Desk.open(library_dir, progress=progress, on_wait=tell) as desk:
        changes = backup.restore_backup(desk, source, progress=progress)
    bar.finish()
    report_changes(changes)
    return 0


def cmd_menu_entry(_desk: Desk | None, args: argparse.Namespace) -> int:
    if args.remove:
        removed = desktop.remove_menu_entry()
        print("\n".join(f"removed {path}" for path in removed) or "no menu entry to remove")
        return 0
    for path in desktop.install_menu_entry(_this_program()):
        print(f"wrote {path}")
    return 0


def _this_program() -> list[str]:
    """How to start this installation of paperdesk from a menu, by absolute path."""
    started_as = Path(sys.argv[0])
    if started_as.name == "paperdesk" and started_as.exists():
        return [str(started_as.absolute())]
    return [sys.executable, "-m", "paperdesk"]

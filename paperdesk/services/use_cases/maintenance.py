"""Keeping a library healthy: rebuild the index, check integrity, back up."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from paperdesk.core.errors import LibraryError
from paperdesk.services.runtime import indexing
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation
from paperdesk.store.sqlite_copies import backup_sqlite, copy_database


@mutation
def reindex(desk: Desk, progress: Callable[[int, int], None] | None = None) -> int:
    """Rebuild the search index from the database; returns how many papers it holds."""
    indexing.rebuild(desk._library, desk._index, progress)
    return desk._index.doc_count()


def check(desk: Desk) -> list[str]:
    """Problems found in the database and the index; empty when all is well."""
    problems = desk._library.integrity_problems()
    stale = desk._index.why_stale(desk._library.generation())
    if stale:
        problems.append(f"search index: {stale} (run `paperdesk reindex`)")
        return problems
    damage = desk._index.damage()
    if damage:
        # Derived data: rebuilt at once where it can be, so searches work again.
        if desk.read_only:
            problems.append(f"search index: {damage} (run `paperdesk reindex`)")
        else:
            reindex(desk)
            problems.append(f"search index: {damage}; rebuilt it")
        return problems
    stored = set(desk._library.papers.sorted_ids("added"))
    indexed = desk._index.indexed_ids()
    if stored - indexed:
        problems.append(f"search index: {len(stored - indexed)} papers are not indexed")
    if indexed - stored:
        problems.append(f"search index: {len(indexed - stored)} deleted papers are still indexed")
    return problems


def backup(desk: Desk, target: Path | None = None) -> Path:
    """A consistent copy of the database (SQLite backup API), safe while the app runs.

    Written whole or not at all: a full disk leaves no partial file behind.
    """
    if desk._library.shared:
        raise LibraryError(
            f"{desk.location} is a team library: back it up on its server (pg_dump), "
            "or export a lossless JSON backup with `paperdesk export FILE.json`"
        )
    if target is None:
        return backup_sqlite(desk.db_path, desk.backup_dir, reason="manual")
    return copy_database(desk.db_path, target)

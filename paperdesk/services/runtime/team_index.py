"""A team library's local search index, kept in step through the change sequence.

Each client indexes the shared library on its own disk. Other clients' changes reach
it as paper ids in the change sequence (store/change_log.py): before each action, at
open and when the window polls, the client re-indexes the papers changed since the
generation it last caught up to. A client too far behind (or whose index is missing
or damaged) rebuilds instead, which is quicker than replaying that many changes.

The generation caught up to is kept beside the index (a rebuild, which empties the
folder, forgets it): the index's own stamp is written by this client's own actions
and can name a generation whose other changes it has not seen.

This machine's own imports are indexed as they are written (importing.index_import):
their generations are noted beside the cursor and skipped when catching up, so the
command after a 13,000-paper import does not index those papers a second time.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from paperdesk.core.changes import Changes
from paperdesk.search.index import FullTextIndex
from paperdesk.services.runtime import indexing
from paperdesk.store.library import Library

log = logging.getLogger(__name__)

CURSOR_FILE = "team-generation"
#: Generations after the cursor that this machine made and indexed itself.
OWN_FILE = "team-own-generations"
#: More changed papers than this since the last catch-up: rebuild rather than replay.
REBUILD_AFTER = 20_000


def caught_up_to(index: FullTextIndex) -> int | None:
    """The generation whose changes the local index reflects (None: never caught up)."""
    try:
        return int((index.folder / CURSOR_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def catch_up(
    library: Library,
    index: FullTextIndex,
    progress: Callable[[int, int], None] | None = None,
    generation: int | None = None,
) -> int:
    """Bring the local index up to the library's generation; returns the papers re-indexed.

    The generation is read first (or given: `generation`, just read by the caller):
    every change up to it is committed and logged, so the papers read after it are at
    least that new (a later change read early is indexed again at the next catch-up,
    never missed).
    """
    target = library.generation() if generation is None else generation
    cursor = caught_up_to(index)
    if cursor == target:
        return 0
    own = [g for g in _own(index) if cursor is not None and cursor < g <= target]
    reason = index.why_unusable()
    if reason is None and cursor is None:
        reason = "the index has not followed this team library before"
    if (
        reason is None
        and cursor is not None
        and library.changes.count_since(cursor, skip=own) > REBUILD_AFTER
    ):
        reason = "the index is too far behind the team library"
    if reason is not None:
        log.info("rebuilding the search index: %s", reason)
        indexing.rebuild(library, index, progress)
        _remember(index, target)
        return library.papers.count()
    # Others' own notes and ratings are not in this index (only this member's are).
    ids = library.changes.papers_since(cursor or 0, target, library.member, skip=own)
    indexing.sync_changes(library, index, Changes(paper_ids=frozenset(ids)))
    _remember(index, target)
    return len(ids)


def indexed_own(library: Library, index: FullTextIndex, generation: int) -> None:
    """This machine wrote `generation` and has indexed what it changed: catching up
    skips it. Nothing to note for a personal library, or an index never caught up
    (it is rebuilt whole at the next catch-up anyway)."""
    if not library.shared:
        return
    cursor = caught_up_to(index)
    if cursor is None or generation <= cursor:
        return
    own = sorted({g for g in _own(index) if g > cursor} | {generation})
    _write(index.folder / OWN_FILE, " ".join(map(str, own)))


def _own(index: FullTextIndex) -> list[int]:
    try:
        text = (index.folder / OWN_FILE).read_text(encoding="utf-8")
        return [int(word) for word in text.split()]
    except (OSError, ValueError):
        return []


def _remember(index: FullTextIndex, generation: int) -> None:
    _write(index.folder / CURSOR_FILE, str(generation))
    own = [g for g in _own(index) if g > generation]
    _write(index.folder / OWN_FILE, " ".join(map(str, own)))


def _write(path: Path, text: str) -> None:
    temporary = path.with_suffix(".tmp")
    temporary.write_text(text, encoding="utf-8")
    temporary.replace(path)

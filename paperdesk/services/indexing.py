"""Keeping the search index in step with the database.

Papers become plain-text documents here (markup removed by paperdesk.text), so the
index sees what a reader sees: `$O(d \\log n)$` is indexed as "O(d log n)".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled
from paperdesk.core.models import Paper
from paperdesk.search.index import FullTextIndex
from paperdesk.search.schema import IndexDocument
from paperdesk.store.library import Library

if TYPE_CHECKING:  # Desk imports this module; only the type is needed here
    from paperdesk.services.desk import Desk
from paperdesk.text import to_plain


def document_for(paper: Paper) -> IndexDocument:
    return IndexDocument(
        id=paper.id,
        title=to_plain(paper.title),
        abstract=to_plain(paper.abstract),
        authors=paper.authors,
        note=paper.note,
        tags=paper.tags,
        venue=paper.venue,
        year=paper.year,
        status=paper.status.value,
        rating=paper.rating,
        shortlists=paper.shortlists,
        annotations="\n".join(f"{a.quote} {a.comment}".strip() for a in paper.annotations),
    )


def documents_for(papers: Iterable[Paper]) -> list[IndexDocument]:
    return [document_for(p) for p in papers]


def sync_changes(
    library: Library, index: FullTextIndex, changes: Changes, behind: set[int] | None = None
) -> Changes:
    """Re-index the papers a mutation touched (deleted ones leave the index).

    `behind` are papers still waiting to be re-indexed after a bulk change: those
    re-indexed here leave it, and while it is not empty the index's stamp stays old.
    """
    behind = behind if behind is not None else set()
    if changes.paper_ids:
        ids = sorted(changes.paper_ids)
        papers = library.papers.get_many(ids)
        present = {p.id for p in papers}
        behind.difference_update(ids)
        generation = None if behind else library.generation()
        index.update(documents_for(papers), [i for i in ids if i not in present], generation)
    elif not behind:
        # Nothing searchable changed (a saved search, a tag colour): just record that
        # the index is current for this generation, so the next open does not rebuild.
        index.mark_current(library.generation())
    return changes


def defer(desk: Desk, changes: Changes) -> None:
    """Leave a bulk change's papers to `catch_up` (the index is behind until then)."""
    desk.index_behind.update(changes.paper_ids)


def catch_up(desk: Desk, limit: int | None = None) -> int:
    """Re-index up to `limit` (default: all) of the papers left behind by bulk changes;
    returns how many still wait. Each call is one commit, so a caller can take turns
    with other writes (a star rated between two chunks is not kept waiting)."""
    behind = desk.index_behind
    if not behind:
        return 0
    chunk = sorted(behind)[:limit] if limit is not None else sorted(behind)
    with desk.writing():  # index writes take turns with other programs' actions
        sync_changes(desk.library, desk.index, Changes(paper_ids=frozenset(chunk)), behind)
    return len(behind)


def behind(desk: Desk) -> int:
    """How many papers' search documents are behind the database."""
    return len(desk.index_behind)


def add_new(
    library: Library,
    index: FullTextIndex,
    ids: Sequence[int],
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    behind: set[int] | None = None,
) -> None:
    """Index newly imported papers, loading them from the database a chunk at a time.

    Cancelled, with nothing added to the index, when `cancelled()` turns true. While
    `behind` (papers a bulk change left to re-index) is not empty, the stamp stays old.
    """

    def documents() -> Iterator[IndexDocument]:
        for start in range(0, len(ids), 2000):
            for position, paper in enumerate(library.papers.get_many(ids[start : start + 2000])):
                # Every 50 papers: a cancel is answered in well under a second.
                if cancelled is not None and position % 50 == 0 and cancelled():
                    raise Cancelled
                yield document_for(paper)

    if ids:
        index.add(documents(), None if behind else library.generation(), progress)
    else:
        index.mark_current(library.generation())


def rebuild(
    library: Library,
    index: FullTextIndex,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> None:
    generation = library.generation()
    batches = (documents_for(batch) for batch in library.papers.iter_all())
    index.rebuild(batches, generation, library.papers.count(), progress, cancelled)

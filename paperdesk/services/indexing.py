"""Keeping the search index in step with the database.

Papers become plain-text documents here (markup removed by paperdesk.text), so the
index sees what a reader sees: `$O(d \\log n)$` is indexed as "O(d log n)".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled
from paperdesk.core.models import Paper
from paperdesk.search.index import FullTextIndex
from paperdesk.search.schema import IndexDocument
from paperdesk.store.library import Library
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


def sync_changes(library: Library, index: FullTextIndex, changes: Changes) -> Changes:
    """Re-index the papers a mutation touched (deleted ones leave the index)."""
    if changes.paper_ids:
        ids = sorted(changes.paper_ids)
        papers = library.papers.get_many(ids)
        present = {p.id for p in papers}
        index.update(
            documents_for(papers), [i for i in ids if i not in present], library.generation()
        )
    else:
        # Nothing searchable changed (a saved search, a tag colour): just record that
        # the index is current for this generation, so the next open does not rebuild.
        index.mark_current(library.generation())
    return changes


def add_new(
    library: Library,
    index: FullTextIndex,
    ids: Sequence[int],
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> None:
    """Index newly imported papers, loading them from the database a chunk at a time.

    Cancelled, with nothing added to the index, when `cancelled()` turns true.
    """

    def documents() -> Iterator[IndexDocument]:
        for start in range(0, len(ids), 2000):
            for position, paper in enumerate(library.papers.get_many(ids[start : start + 2000])):
                # Every 50 papers: a cancel is answered in well under a second.
                if cancelled is not None and position % 50 == 0 and cancelled():
                    raise Cancelled
                yield document_for(paper)

    if ids:
        index.add(documents(), library.generation(), progress)
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

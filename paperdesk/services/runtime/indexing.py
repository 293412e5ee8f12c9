"""Keeping the search index in step with the database.

Papers become plain-text documents (services/index_documents). Large jobs (a rebuild,
a big import) are indexed by a pool of worker processes (services/index_pool).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled
from paperdesk.core.models import Paper
from paperdesk.search.index import FullTextIndex, ListNow
from paperdesk.search.schema import IndexDocument
from paperdesk.services.runtime import index_pool
from paperdesk.services.runtime.index_documents import document_for, documents_for
from paperdesk.store.library import Library

#: Papers read from the database at a time for indexing: the documents of a large
#: change are made as the index writer takes them, never all at once (a catch-up of a
#: status set on 13,417 papers peaked at 232 MB in its process, issue 25: 300 at most).
LOAD_BATCH = 2000


def sync_changes(
    library: Library, index: FullTextIndex, changes: Changes, stamp: bool = True
) -> Changes:
    """Re-index the papers a mutation touched (deleted ones leave the index).

    `stamp` False: other papers still wait to be re-indexed (services/runtime/index_follower.py),
    so the index's stamp stays old.
    """
    if changes.paper_ids:
        ids = sorted(changes.paper_ids)
        deleted: list[int] = []  # filled as the documents are read, used after them
        documents = (document_for(paper) for paper in papers_of(library, ids, deleted))
        generation = library.generation() if stamp else None
        index.update(documents, deleted, generation)
    elif stamp:
        # Nothing searchable changed (a saved search, a tag colour): just record that
        # the index is current for this generation, so the next open does not rebuild.
        index.mark_current(library.generation())
    return changes


def papers_of(
    library: Library, ids: Sequence[int], missing: list[int] | None = None
) -> Iterator[Paper]:
    """The papers of `ids`, read LOAD_BATCH at a time; ids of no paper go to `missing`."""
    for start in range(0, len(ids), LOAD_BATCH):
        batch = ids[start : start + LOAD_BATCH]
        papers = library.papers.get_many(batch)
        if missing is not None and len(papers) < len(batch):
            found = {paper.id for paper in papers}
            missing.extend(paper_id for paper_id in batch if paper_id not in found)
        yield from papers


def add_new(
    library: Library,
    index: FullTextIndex,
    ids: Sequence[int],
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    stamp: bool = True,
    searchable: Callable[[Sequence[int]], None] | None = None,
    apart: bool = False,
) -> None:
    """Index newly imported papers, loading them from the database a chunk at a time.

    Cancelled, with nothing added to the index, when `cancelled()` turns true; papers a
    pool already made searchable stay (re-indexing them replaces them). `stamp` False:
    other papers wait to be re-indexed, so the stamp stays old. `searchable(ids)` is
    told of papers searchable before the end: a pool lists the first ones at once.
    `apart` (a window's): all but a few papers are indexed in a worker process.
    """

    def documents() -> Iterator[IndexDocument]:
        for position, paper in enumerate(papers_of(library, ids)):
            # Every 50 papers: a cancel is answered in well under a second.
            if cancelled is not None and position % 50 == 0 and cancelled():
                raise Cancelled
            yield document_for(paper)

    generation = library.generation() if stamp else None
    workers = index_pool.worker_count(len(ids), apart)
    if workers and library.file is not None:
        database = library.file

        def build(folder: str, list_now: ListNow) -> list[Any]:
            def early(papers: list[int], built: list[Any]) -> None:
                list_now(built)
                if searchable is not None:
                    searchable(papers)

            return index_pool.build_segments(
                database, folder, ids, workers, progress, cancelled, early
            )

        index.add_with(build, generation)
    elif ids:
        index.add(documents(), generation, progress)
    elif generation is not None:
        index.mark_current(generation)


def rebuild(
    library: Library,
    index: FullTextIndex,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> None:
    generation = library.generation()
    total = library.papers.count()
    # The space a rebuild needs is judged by the live index, else by the papers' text.
    text_size = library.papers.text_size() if index.live_folder() is None else 0
    workers = index_pool.worker_count(total)
    if workers and library.file is not None:
        database = library.file
        ids = library.papers.sorted_ids("added")
        index.rebuild_with(
            lambda folder, _list_now: index_pool.build_segments(
                database,
                folder,
                ids,
                workers,
                None if progress is None else lambda done: progress(done, total),
                cancelled,
            ),
            generation,
            text_size,
        )
        return
    batches = (documents_for(batch) for batch in library.papers.iter_all())
    index.rebuild(batches, generation, total, progress, cancelled, text_size)

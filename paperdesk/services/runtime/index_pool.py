"""Building the search index in a pool of worker processes, one segment each.

Indexing is Python-bound: one process uses one core. Each worker reads its share of the
papers from the database file itself (nothing large crosses between processes), writes
one segment, and hands back its description; the index then lists every new segment in
one commit (search/index.py). The workers are a `WorkerCrew` of the one helper for
spawned processes (services/runtime/worker_process.py): each counts what it indexed as
it goes, a cancel (or another worker's failure) stops them all, and a worker's error is
raised here as the worker raised it (a full disk stays an OSError).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from paperdesk.core.errors import Cancelled
from paperdesk.search.schema import IndexDocument
from paperdesk.search.segments import write_segment
from paperdesk.services.runtime.index_documents import document_for
from paperdesk.services.runtime.worker_process import StopAsked, WorkerCrew, serve
from paperdesk.store.library import Library

# Below this many papers, starting the workers (~1 s of imports each) costs more than
# they save; the caller indexes in its own process.
POOL_THRESHOLD = 4_000
#: A window's import of more papers than this (and fewer than POOL_THRESHOLD) is indexed
#: by one worker all the same: in the window's process, at 2-3 ms of CPU a paper, it
#: held the GIL its GUI thread waited for (IndexFollower.keep_apart).
APART_THRESHOLD = 50
MAX_WORKERS = 8
#: An import's first papers, written as a segment of their own and listed at once: at
#: 2-3 ms of CPU a paper they are searchable within seconds of the workers' start.
FIRST_PAPERS = 2_000
_CHUNK = 1_000  # papers a worker loads from the database at a time


def worker_count(papers: int, apart: bool = False) -> int:
    """Workers for this many papers: one per core, none (0) for a small job; `apart`
    (a window's): one for a job of more than APART_THRESHOLD papers."""
    if papers < POOL_THRESHOLD:
        return 1 if apart and papers > APART_THRESHOLD else 0
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def build_segments(
    database: Path,
    folder: str,
    ids: Sequence[int],
    workers: int,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    early: Callable[[list[int], list[Any]], None] | None = None,
) -> list[Any]:
    """Index the papers `ids` into new segments of the index in `folder`, one per worker;
    returns the segments' descriptions. Cancelled when `cancelled()` turns true.

    With `early`, the first `FIRST_PAPERS` papers are a segment of their own, written
    first by the first worker and handed to `early(papers, [segment])` as soon as it is
    written (to be listed: an import's first papers searchable in seconds, not
    minutes), while every worker goes on with its share (`shares`).
    """
    head, parts = shares(ids, workers, FIRST_PAPERS if early is not None else 0)
    requests = [(str(database), folder, [part]) for part in parts]
    if head:
        requests[0] = (str(database), folder, [head, parts[0]])
    indexed = 0

    def heard(message: tuple[Any, ...]) -> None:
        nonlocal indexed
        if message[0] == "segment" and early is not None:
            early(head, [message[1]])
            return
        indexed += message[1]
        if progress is not None:
            progress(indexed)

    with WorkerCrew(_serve, (), workers, "paperdesk-index") as crew:
        return crew.run("segments", requests, heard, cancelled)


def shares(ids: Sequence[int], workers: int, first: int) -> tuple[list[int], list[list[int]]]:
    """The head (the first `first` papers; none when `first` is 0 or the first share too
    small to be worth two segments) and the workers' equal shares of the papers, the
    head cut from the first share."""
    bounds = [len(ids) * k // workers for k in range(workers + 1)]
    parts = [list(ids[lo:hi]) for lo, hi in zip(bounds, bounds[1:], strict=False)]
    if not 0 < first < len(parts[0]):
        return [], parts
    head, parts[0] = parts[0][:first], parts[0][first:]
    return head, parts


# --- in a worker ----------------------------------------------------------------------


def _serve(conn: Connection) -> None:
    serve(conn, _SegmentWriter(conn))


class _SegmentWriter:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def do_segments(self, database: str, folder: str, lists: list[list[int]]) -> Any:
        """A segment of each list of papers, read from the database file; each but the
        last sent as ("segment", its description) once written, the last answered;
        ("indexed", n) told as they are written."""
        stop_asked = StopAsked(self._conn)
        library = Library.open(f"sqlite:///{database}", Path(database), read_only=True)
        try:

            def documents(ids: list[int]) -> Iterator[IndexDocument]:
                for start in range(0, len(ids), _CHUNK):
                    papers = library.papers.get_many(ids[start : start + _CHUNK])
                    for position, paper in enumerate(papers):
                        # Every 50 papers: a cancel is answered in well under a second.
                        if position % 50 == 0 and stop_asked():
                            raise Cancelled
                        yield document_for(paper)

            *first, last = lists
            for ids in first:
                self._conn.send(("segment", write_segment(folder, documents(ids), self._told)))
            return write_segment(folder, documents(last), self._told)
        finally:
            library.close()

    def _told(self, count: int) -> None:
        self._conn.send(("indexed", count))

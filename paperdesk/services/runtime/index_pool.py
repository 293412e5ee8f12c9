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
MAX_WORKERS = 8
_CHUNK = 1_000  # papers a worker loads from the database at a time


def worker_count(papers: int) -> int:
    """Workers for this many papers: one per core, none (0) for a small job."""
    if papers < POOL_THRESHOLD:
        return 0
    return max(1, min(os.cpu_count() or 1, MAX_WORKERS))


def build_segments(
    database: Path,
    folder: str,
    ids: Sequence[int],
    workers: int,
    progress: Callable[[int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> list[Any]:
    """Index the papers `ids` into new segments of the index in `folder`, one per worker;
    returns the segments' descriptions. Cancelled when `cancelled()` turns true."""
    bounds = [len(ids) * k // workers for k in range(workers + 1)]
    parts = [
        (str(database), folder, list(ids[lo:hi]))
        for lo, hi in zip(bounds, bounds[1:], strict=False)
    ]
    indexed = 0

    def counted(message: tuple[Any, ...]) -> None:
        nonlocal indexed
        indexed += message[1]
        if progress is not None:
            progress(indexed)

    with WorkerCrew(_serve, (), workers, "paperdesk-index") as crew:
        return crew.run("segment", parts, counted, cancelled)


# --- in a worker ----------------------------------------------------------------------


def _serve(conn: Connection) -> None:
    serve(conn, _SegmentWriter(conn))


class _SegmentWriter:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def do_segment(self, database: str, folder: str, ids: list[int]) -> Any:
        """One segment of these papers, read from the database file; ("indexed", n)
        told as they are written."""
        stop_asked = StopAsked(self._conn)
        library = Library.open(f"sqlite:///{database}", Path(database), read_only=True)
        try:

            def documents() -> Iterator[IndexDocument]:
                for start in range(0, len(ids), _CHUNK):
                    papers = library.papers.get_many(ids[start : start + _CHUNK])
                    for position, paper in enumerate(papers):
                        # Every 50 papers: a cancel is answered in well under a second.
                        if position % 50 == 0 and stop_asked():
                            raise Cancelled
                        yield document_for(paper)

            return write_segment(folder, documents(), self._told)
        finally:
            library.close()

    def _told(self, count: int) -> None:
        self._conn.send(("indexed", count))

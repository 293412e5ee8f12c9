"""Building the search index in a pool of worker processes, one segment each.

Indexing is Python-bound: one process uses one core. Each worker reads its share of the
papers from the database file itself (nothing large crosses between processes), writes
one segment, and hands back its description; the index then lists every new segment in
one commit (search/index.py). Workers are spawned, never forked: a fork of the GUI
process would copy Qt's threads and locks mid-flight.
"""

from __future__ import annotations

import os
import queue
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from paperdesk.core.errors import Cancelled
from paperdesk.search.schema import IndexDocument
from paperdesk.search.segments import write_segment
from paperdesk.services.runtime.index_documents import document_for
from paperdesk.store.library import Library

# Below this many papers, starting the workers (~1 s of imports each) costs more than
# they save; the caller indexes in its own process.
POOL_THRESHOLD = 4_000
MAX_WORKERS = 8
_CHUNK = 1_000  # papers a worker loads from the database at a time

# In each worker: where to report progress and how to hear a cancel (set at start).
_done: Any = None
_stop: Any = None


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
    context = get_context("spawn")
    done = context.Queue()
    stop = context.Event()
    bounds = [len(ids) * k // workers for k in range(workers + 1)]
    parts = [list(ids[lo:hi]) for lo, hi in zip(bounds, bounds[1:], strict=False)]
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=_start_worker, initargs=(done, stop)
    ) as pool:
        jobs = [pool.submit(_segment_of, str(database), folder, part) for part in parts]
        indexed = 0
        pending = set(jobs)
        while pending:
            finished, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
            indexed += _drain(done)
            if progress is not None:
                progress(indexed)
            if cancelled is not None and cancelled():
                stop.set()
            if any(job.exception() for job in finished):
                stop.set()
        built = [job.result() for job in jobs]  # raises a worker's error, or Cancelled
    # A worker's last count can still be on its way through the queue when its result
    # is in: the last report is the total, once every worker is done.
    if progress is not None and indexed < len(ids):
        progress(len(ids))
    return built


def _drain(done: Any) -> int:
    total = 0
    while True:
        try:
            total += done.get_nowait()
        except queue.Empty:
            return total


def _start_worker(done: Any, stop: Any) -> None:
    global _done, _stop
    _done, _stop = done, stop


def _segment_of(database: str, folder: str, ids: list[int]) -> Any:
    """In a worker: one segment of these papers, read from the database file."""
    library = Library.open(f"sqlite:///{database}", Path(database), read_only=True)
    try:

        def documents() -> Iterator[IndexDocument]:
            for start in range(0, len(ids), _CHUNK):
                papers = library.papers.get_many(ids[start : start + _CHUNK])
                for position, paper in enumerate(papers):
                    # Every 50 papers: a cancel is answered in well under a second.
                    if position % 50 == 0 and _stop.is_set():
                        raise Cancelled
                    yield document_for(paper)

        return write_segment(folder, documents(), _done.put)
    finally:
        library.close()

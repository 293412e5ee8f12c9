"""Re-indexing changed papers in a worker process of its own: what a bulk change left
behind, and in a window every change's papers (IndexFollower.keep_apart).

whoosh re-analyses a whole document to change one field, in Python: on the window's
writer thread that held the GIL, and the GUI thread stalled 100-300 ms at a time while
a bulk edit's papers were re-indexed, and waited for each rated or decided paper's
update too (issue 25). Here a spawned process
(services/runtime/worker_process.py) opens the database file read-only and the index folder,
and re-indexes one chunk per request; the writer thread waits for the answer without
the GIL, holding the library's write lock as for any index write. Nothing large crosses
the pipe: the papers' ids go, their count comes back.
"""

from __future__ import annotations

import logging
from multiprocessing.connection import Connection
from pathlib import Path

from paperdesk.core.changes import Changes
from paperdesk.search.index import FullTextIndex
from paperdesk.services.runtime import indexing
from paperdesk.services.runtime.worker_process import WorkerProcess, serve
from paperdesk.store.library import Library


def start(database: Path, index_folder: Path) -> WorkerProcess:
    """A catch-up process for the library in `database` and its index in `index_folder`."""
    return WorkerProcess(
        _serve, (str(database), str(index_folder)), name="paperdesk-index-catch-up"
    )


def _serve(conn: Connection, database: str, index_folder: str) -> None:
    """In the worker: answer "update" requests until closed."""
    logging.basicConfig(level=logging.WARNING, format="paperdesk index catch-up: %(message)s")
    library = Library.open(f"sqlite:///{database}", Path(database), read_only=True)
    index = FullTextIndex(Path(index_folder))
    try:
        serve(conn, _CatchUp(library, index))
    finally:
        index.close()
        library.close()


class _CatchUp:
    def __init__(self, library: Library, index: FullTextIndex) -> None:
        self._library = library
        self._index = index

    def do_update(self, paper_ids: list[int], stamp: bool) -> int:
        """Re-index these papers (the caller holds the write lock); stamp the index with
        the library's generation if no other paper waits."""
        changes = Changes(paper_ids=frozenset(paper_ids))
        indexing.sync_changes(self._library, self._index, changes, stamp=stamp)
        return len(paper_ids)

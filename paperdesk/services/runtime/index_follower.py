"""The one owner of the search index's freshness: how far it is behind the database.

Every writer tells the follower what it changed (`follow`, one `Changes`); every reader
asks how far behind the index is (`behind`). Two kinds of papers wait:

- papers a bulk change (or a triage decision made with `index_later`) left to re-index:
  `catch_up` re-indexes them a chunk at a time, so other writes take turns with it;
- papers an import stored and is indexing (`importing` .. `imported`): the index's
  stamp is old meanwhile on purpose, and must not be taken for stale.

While any paper waits, index updates leave the stamp as it was (it then names no
generation the index fully reflects), so a program killed meanwhile leaves a stale
index the next open rebuilds, or, for an import's papers recorded in the import's own
transaction (`store/imports.py`, `pending_indexing`), indexes just those.

A catch-up chunk of more than `APART_PAPERS` is re-indexed in a worker process
(services/runtime/catch_up_process.py), so the window's process keeps its GIL for the GUI; a
worker that dies is replaced, up to `WORKER_DEATHS` times, and its papers redone here.
In a window (`keep_apart`) on a library of `APART_LIBRARY_PAPERS` or more, every
update goes there, a single paper's too: whoosh holds the GIL for each in Python, and
the GUI thread waited for it after every rating, tag and triage decision (issue 25).
In a window on any library, an import of more than a few papers is indexed by a
worker of the index pool (services/runtime/index_pool.py) for the same reason.
The thread that asked still waits for the answer (off the GIL), so a change is
searchable as soon as its action returns, as before.

The sets are touched by the writer thread and read by the reader thread (a search
counts them): a lock guards them. Index writes happen under the library's write lock,
held by the caller, never under this one.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any

from paperdesk.core.changes import Changes
from paperdesk.search.index import FullTextIndex
from paperdesk.services.runtime import catch_up_process, indexing
from paperdesk.services.runtime.worker_process import (
    Restarts,
    WorkerDied,
    WorkerProcess,
    how_it_ended,
)
from paperdesk.store.library import Library

log = logging.getLogger(__name__)

#: Above this many papers a change is re-indexed after the call (`catch_up`), not in
#: it: whoosh re-analyses a whole document to change one field, ~1 ms a paper, and a
#: status set on 100,000 papers must not wait two minutes for that.
BULK_PAPERS = 500
#: A catch-up chunk of more papers than this is re-indexed in the worker process.
APART_PAPERS = 50
#: From this many papers, a window's single-paper updates go to the worker process too
#: (`keep_apart`); below it, one update takes a few ms here and a process is not worth
#: its start and its memory.
APART_LIBRARY_PAPERS = 2000
#: Deaths of the catch-up process after which the catch-up stays in this process.
WORKER_DEATHS = 3


class IndexFollower:
    """Which papers' search documents are behind the database, and bringing them up."""

    def __init__(self, library: Library, index: FullTextIndex) -> None:
        self._library = library
        self._index = index
        self._lock = threading.Lock()
        self._behind: set[int] = set()
        self._importing: set[int] = set()
        self._worker: WorkerProcess | None = None
        self._restarts = Restarts(WORKER_DEATHS)
        self._apart = False  # every update in the catch-up process (keep_apart)
        self._ready: Future[Any] | None = None  # answered once the process can take work
        self._window = False  # an import of more than a few papers in a worker too

    # ------------------------------------------------------------------ readers

    def behind(self) -> int:
        """How many papers' search documents are behind the database (a search may
        miss them)."""
        with self._lock:
            return len(self._behind) + len(self._importing)

    def waiting(self) -> int:
        """How many papers `catch_up` has left to re-index."""
        with self._lock:
            return len(self._behind)

    def stale_on_purpose(self) -> bool:
        """Whether the index's stamp is old because papers wait here (then it is not
        to be rebuilt whole: catch_up or the import finishes the job)."""
        with self._lock:
            return bool(self._behind or self._importing)

    def resumable(self) -> bool:
        """Whether the index has every change so far: an import's indexing stopped
        half-way can then resume with just its papers (`Desk.maintain`)."""
        with self._lock:
            if self._behind or self._importing:
                return False
        return self._index.why_stale(self._library.generation()) is None

    # ------------------------------------------------------------------ writers

    def follow(self, changes: Changes, later: bool = False) -> None:
        """Bring the index up to date with a committed change: at once, or for a bulk
        change (or `later`) by `catch_up`. The caller holds the library's write lock."""
        if later or len(changes.paper_ids) > BULK_PAPERS:
            with self._lock:
                self._behind.update(changes.paper_ids)
            return
        self._sync(changes)

    def catch_up(self, limit: int | None = None) -> int:
        """Re-index up to `limit` (default: all) of the papers left behind; returns how
        many still wait. The caller holds the write lock, for one chunk: a star rated
        between two chunks waits for one chunk at most."""
        with self._lock:
            waiting = sorted(self._behind)
        if not waiting:
            return 0
        chunk = waiting[:limit] if limit is not None else waiting
        with self._lock:
            self._behind.difference_update(chunk)
            others = bool(self._behind or self._importing)
        try:
            self._update(chunk, stamp=not others)
        except BaseException:
            with self._lock:  # failed (a full disk): the chunk still waits
                self._behind.update(chunk)
            raise
        return self.waiting()

    def keep_apart(self) -> None:
        """From now on every update of a library's papers, however few, is made in the
        catch-up process, started now, and an import's indexing of more than a few
        papers in a worker of the index pool (a window calls this once its library is
        open, so its process keeps the GIL for the GUI thread). A small library, or a
        team library (no database file), keeps its updates here."""
        self._window = True
        if self._library.file is None or self._library.papers.count() < APART_LIBRARY_PAPERS:
            return
        self._apart = True
        self._worker_for(1)  # started while the user reads, not at the first change

    def _update(self, paper_ids: list[int], stamp: bool) -> None:
        """Re-index these papers, in the catch-up process when it takes them
        (`_worker_for`), else here; a process that died meanwhile: here, and the next
        update apart again. A few papers while the process is still starting: here,
        rather than wait a second or two for it. `stamp`: no other paper waits."""
        worker = self._worker_for(len(paper_ids))
        if worker is not None and not (len(paper_ids) <= APART_PAPERS and self._starting()):
            try:
                worker.call("update", paper_ids, stamp)
                return
            except WorkerDied:
                self._bury(worker)
        changes = Changes(paper_ids=frozenset(paper_ids))
        indexing.sync_changes(self._library, self._index, changes, stamp=stamp)

    def _worker_for(self, papers: int) -> WorkerProcess | None:
        """The catch-up process, started if needed; None for a small chunk (unless
        `keep_apart`), a library with no database file (a team library), or after too
        many deaths."""
        database = self._library.file
        if database is None or self._restarts.given_up:
            return None
        if papers <= APART_PAPERS and not self._apart:
            return None
        if self._worker is not None and self._worker.dead:
            self._bury(self._worker)
            return self._worker_for(papers)
        if self._worker is None:
            self._worker = catch_up_process.start(database, self._index.folder)
            with contextlib.suppress(WorkerDied):  # then the next update buries it
                # Nothing to re-index: answered once the process has opened the library.
                self._ready = self._worker.request("update", [], False)
        return self._worker

    def _starting(self) -> bool:
        """Whether the catch-up process has yet to answer its first request (it takes a
        second or two to import its modules and open the library)."""
        return self._ready is not None and not self._ready.done()

    def _bury(self, worker: WorkerProcess) -> None:
        """A catch-up process that died: said, counted; the next update starts another."""
        worker.process.join(1.0)  # reaped, so its exit code is known
        log.warning("the index catch-up's process ended (%s)", how_it_ended(worker.exit_code))
        self._worker = None
        self._restarts.died()

    def close(self) -> int | None:
        """End the catch-up process, if one runs; its exit code (0: it ended cleanly)."""
        worker, self._worker = self._worker, None
        return worker.close() if worker is not None else None

    def resume(self, paper_ids: list[int]) -> None:
        """Papers an earlier program's import stored but did not index: `catch_up`."""
        with self._lock:
            self._behind.update(paper_ids)

    def importing(self, changes: Changes, index_was_current: bool) -> None:
        """An import committed these papers; `add_imported` indexes them next. An
        import that changed no paper leaves an index that was current, current."""
        if not changes.paper_ids:
            if index_was_current:
                self._index.mark_current(self._library.generation())
            return
        with self._lock:
            self._importing.update(changes.paper_ids)

    def add_imported(
        self,
        new_ids: list[int],
        changes: Changes,
        progress: Callable[[int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        """Index an import's new papers and re-index those it merged into (`changes`
        names both). If it fails or is cancelled, its papers wait for `catch_up`."""
        merged = changes.paper_ids - set(new_ids)
        indexed = False
        try:
            with self._lock:
                self._behind.difference_update(new_ids)
                others = bool(self._behind or merged or self._importing - changes.paper_ids)
            indexing.add_new(
                self._library,
                self._index,
                new_ids,
                progress,
                cancelled,
                not others,
                searchable=self._searchable,
                apart=self._window,
            )
            if merged:
                self._sync(Changes(paper_ids=frozenset(merged)), importing=changes.paper_ids)
            indexed = True
        finally:
            with self._lock:
                self._importing.difference_update(changes.paper_ids)
                if not indexed:  # cancelled (the import is withdrawn) or failed
                    self._behind.update(changes.paper_ids)

    def _searchable(self, paper_ids: Sequence[int]) -> None:
        """An import's papers listed in the index before the rest of it: searches stop
        counting them as behind."""
        with self._lock:
            self._importing.difference_update(paper_ids)

    def _sync(self, changes: Changes, importing: frozenset[int] = frozenset()) -> None:
        """Re-index `changes`' papers; the stamp names the generation only once no
        other paper waits (those of `importing` are the ones being indexed now)."""
        with self._lock:
            self._behind.difference_update(changes.paper_ids)
            others = bool(self._behind or self._importing - importing)
        if changes.paper_ids:
            self._update(sorted(changes.paper_ids), stamp=not others)
        else:  # nothing searchable changed: the stamp alone, a file written here
            indexing.sync_changes(self._library, self._index, changes, stamp=not others)

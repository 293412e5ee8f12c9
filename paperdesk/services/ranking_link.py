"""The window's (or the command line's) side of the ranking's process.

`RankingLink` spawns one process (services/ranking_process.py; spawned, never forked: a
fork of the GUI process would copy Qt's threads and locks mid-flight) and talks to it
over one pipe. A reader thread receives what the process sends: answers to requests,
and after every training every paper's score (`Ranked`), kept here so that "the next
paper" and "in promise order" are read without asking the process anything.

Nothing here imports scikit-learn or SciPy (only NumPy): the process does.

When the process dies (killed, out of memory), the reader sees the pipe close: every
request waiting fails with WorkerDied, `latest` is no longer read, and `on_death` is
called (the Promise then falls back to file order and starts another process).
"""

from __future__ import annotations

import itertools
import logging
import threading
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger(__name__)

#: How long closing waits for the process to end by itself before ending it.
CLOSE_WAIT_S = 10.0


class WorkerDied(RuntimeError):
    """The ranking's process ended before answering."""


class WorkerFailed(RuntimeError):
    """The ranking's process answered a request with an error (it logged the details)."""


@dataclass(frozen=True)
class Ranked:
    """A finished model's score for every paper of the matrix it was trained on.

    `kind` is None while there is no model (no keep and no query yet): file order.
    """

    ids: np.ndarray
    scores: np.ndarray
    kind: str | None
    version: int
    _sorted: list[np.ndarray] = field(default_factory=list, compare=False, repr=False)
    _best_first: list[list[int]] = field(default_factory=list, compare=False, repr=False)

    def prepare(self) -> Ranked:
        """Sort the ids by score once (on the link's reader thread, as they arrive), so
        that `best` walks from the top instead of scanning every paper."""
        if not self._best_first:
            order = np.argsort(-self.scores, kind="stable")
            self._best_first.append(self.ids[order].tolist())
        return self

    def best(self, candidates: Collection[int]) -> int | None:
        """The highest-scored of `candidates` (None when the model knows none of them);
        of equal scores, the one first in the matrix."""
        if not candidates:
            return None
        if isinstance(candidates, (set, frozenset)) and len(candidates) * 8 >= len(self.ids):
            # Most of the library: the best is among the first few (the decided papers
            # that rank above it are skipped), a few set lookups instead of a scan.
            for paper_id in self.prepare()._best_first[0]:
                if paper_id in candidates:
                    return int(paper_id)
            return None
        wanted = np.fromiter(candidates, dtype=np.int64, count=len(candidates))
        mask = np.isin(self.ids, wanted)
        if not mask.any():
            return None
        scores = np.where(mask, self.scores, -np.inf)
        return int(self.ids[int(np.argmax(scores))])

    def order(self, ids: Sequence[int]) -> list[int]:
        """`ids` highest score first (ties keep their order); unscored papers last."""
        if not ids:
            return []
        rows = self._rows_of(np.fromiter(ids, dtype=np.int64, count=len(ids)))
        known = rows >= 0
        wanted = np.asarray(ids, dtype=np.int64)
        scored, rest = wanted[known], wanted[~known]
        order = np.argsort(-self.scores[rows[known]], kind="stable")
        return scored[order].tolist() + rest.tolist()  # type: ignore[no-any-return]

    def _rows_of(self, wanted: np.ndarray) -> np.ndarray:
        """Each wanted id's row, -1 for an id without one."""
        if not self._sorted:
            by_id = np.argsort(self.ids, kind="stable")
            self._sorted.extend([by_id, self.ids[by_id]])
        by_id, sorted_ids = self._sorted
        if len(sorted_ids) == 0:
            return np.full(len(wanted), -1, dtype=np.int64)
        at = np.minimum(np.searchsorted(sorted_ids, wanted), len(sorted_ids) - 1)
        return np.where(sorted_ids[at] == wanted, by_id[at], -1)  # type: ignore[no-any-return]


def _serve(conn: Connection, folder: str) -> None:
    """The spawned process's entry: imports the engine there, never here."""
    from paperdesk.services.ranking_process import serve

    serve(conn, folder)


class RankingLink:
    """One ranking process for one library folder, and what it last trained."""

    def __init__(
        self,
        folder: Path,
        on_trained: Callable[[Ranked], None] | None = None,
        on_death: Callable[[RankingLink], None] | None = None,
    ) -> None:
        context = get_context("spawn")
        self._conn, child = context.Pipe()
        self.process = context.Process(
            target=_serve, args=(child, str(folder)), name="paperdesk-ranking", daemon=True
        )
        self.process.start()
        child.close()
        self._on_trained = on_trained
        self._on_death = on_death
        self._lock = threading.Lock()
        self._pending: dict[int, Future[Any]] = {}
        self._numbers = itertools.count(1)
        self._closing = False
        self._ids: np.ndarray | None = None
        self.dead = False
        self.latest: Ranked | None = None
        self._reader = threading.Thread(target=self._read, name="ranking-link", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    # ------------------------------------------------------------------ requests

    def call(self, name: str, *args: object, timeout: float | None = None) -> Any:
        """Ask the process and wait for its answer (WorkerDied, WorkerFailed, TimeoutError)."""
        return self.request(name, *args).result(timeout)

    def request(self, name: str, *args: object) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self.dead:
                raise WorkerDied("the ranking's process has ended")
            number = next(self._numbers)
            self._pending[number] = future
            self._send((number, name, args))
        return future

    def send(self, name: str, *args: object) -> None:
        """Tell the process something that needs no answer."""
        with self._lock:
            if self.dead:
                raise WorkerDied("the ranking's process has ended")
            self._send((0, name, args))

    def _send(self, message: tuple[Any, ...]) -> None:
        try:
            self._conn.send(message)
        except (OSError, ValueError) as error:
            raise WorkerDied(f"the ranking's process has ended ({error})") from None

    # ------------------------------------------------------------------ the reader

    def _read(self) -> None:
        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError):
                break
            try:
                self._receive(message)
            except Exception:
                log.exception("the ranking's answer could not be read")
        with self._lock:
            self.dead = True
            pending, self._pending = self._pending, {}
        for future in pending.values():
            future.set_exception(WorkerDied("the ranking's process ended"))
        if not self._closing and self._on_death is not None:
            # Its pipe closes a moment before it is reaped: wait for that, or its exit
            # code reads None (on this thread, never the window's).
            self.process.join(timeout=1.0)
            self._on_death(self)

    def _receive(self, message: tuple[Any, ...]) -> None:
        if message[0] == "trained":
            _, version, ids, scores, kind = message
            if ids is not None:
                self._ids = ids
            assert self._ids is not None
            self.latest = Ranked(self._ids, scores, kind, version).prepare()
            if self._on_trained is not None:
                self._on_trained(self.latest)
            return
        answer, number, value = message
        with self._lock:
            future = self._pending.pop(number, None)
        if future is None:
            return
        if answer == "error":
            future.set_exception(WorkerFailed(value))
        else:
            future.set_result(value)

    # ------------------------------------------------------------------ ending

    def close(self, timeout: float = CLOSE_WAIT_S) -> int | None:
        """Ask the process to end, wait for it, and return its exit code (0: it ended
        by itself; a process that does not end in `timeout` is terminated)."""
        self._closing = True
        try:
            self.call("close", timeout=timeout)
        except (WorkerDied, WorkerFailed, TimeoutError):
            pass
        self.process.join(timeout)
        if self.process.is_alive():
            log.warning("the ranking's process did not end: terminating it")
            self.process.terminate()
            self.process.join(timeout)
        self._reader.join(timeout)
        self._conn.close()
        return self.process.exitcode

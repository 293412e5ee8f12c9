"""The window's (or the command line's) side of the ranking's process.

`RankingLink` spawns one process (services/runtime/ranking_process.py) through the one helper
every worker process uses (services/runtime/worker_process.py). Its reader thread receives what
the process sends: answers to requests, and after every training every paper's score
(`Ranked`), kept here so that "the next paper" and "in promise order" are read without
asking the process anything.

Nothing here imports scikit-learn or SciPy (only NumPy): the process does.

When the process dies (killed, out of memory), the reader sees the pipe close: every
request waiting fails with WorkerDied, `latest` is no longer read, and `on_death` is
called (the Promise then falls back to file order and starts another process).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np

from paperdesk.services.runtime.worker_process import WorkerDied, WorkerFailed, WorkerProcess

__all__ = ["Ranked", "RankingLink", "WorkerDied", "WorkerFailed"]


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
    from paperdesk.services.runtime.ranking_process import serve

    serve(conn, folder)


class RankingLink:
    """One ranking process for one library folder, and what it last trained."""

    def __init__(
        self,
        folder: Path,
        on_trained: Callable[[Ranked], None] | None = None,
        on_death: Callable[[RankingLink], None] | None = None,
    ) -> None:
        self._on_trained = on_trained
        self._ids: np.ndarray | None = None
        self.latest: Ranked | None = None
        self._worker = WorkerProcess(
            _serve,
            (str(folder),),
            "paperdesk-ranking",
            on_message=self._trained,
            on_death=None if on_death is None else lambda _worker: on_death(self),
        )
        self.process = self._worker.process
        self.call = self._worker.call
        self.request = self._worker.request
        self.send = self._worker.send
        self.close = self._worker.close

    @property
    def pid(self) -> int | None:
        return self._worker.pid

    @property
    def dead(self) -> bool:
        return self._worker.dead

    def _trained(self, message: tuple[Any, ...]) -> None:
        """After every training, on the reader thread: every paper's score."""
        _, version, ids, scores, kind = message
        if ids is not None:
            self._ids = ids
        assert self._ids is not None
        self.latest = Ranked(self._ids, scores, kind, version).prepare()
        if self._on_trained is not None:
            self._on_trained(self.latest)

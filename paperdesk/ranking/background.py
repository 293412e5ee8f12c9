"""Learn in the background; pick the next paper from the last model that finished.

A decision returns at once: it is recorded and a retrain is scheduled on one worker
thread. While the worker trains, decisions keep coming; when it finishes, it trains
again once on everything decided by then (never once per decision queued up). "Next
paper" reads the scores of the last finished model, so it costs one masked arg-max and
never waits for training (liblinear and SciPy release the GIL while they compute).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import Scorer, train

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Ranking:
    """A finished model and its score for every row of the matrix it was trained on."""

    features: FeatureMatrix
    scorer: Scorer | None
    scores: np.ndarray
    version: int


class BackgroundRanker:
    """'Most promising first' for one triage: decisions in, next paper out, never blocking."""

    def __init__(
        self,
        features: FeatureMatrix,
        labels: dict[int, bool] | None = None,
        query: str = "",
        on_trained: Callable[[Ranking], None] | None = None,
    ) -> None:
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)
        self._features = features
        self._labels = dict(labels or {})
        self._query = query
        self._on_trained = on_trained
        self._version = 0
        self._training = False
        self._latest = Ranking(features, None, np.zeros(len(features)), -1)
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ranking")
        self._changed()

    # Changes: each returns at once and schedules a retrain.

    def decide(self, paper_id: int, relevant: bool | None) -> None:
        """Record a decision (None forgets one, e.g. after an undo)."""
        self.decide_many({paper_id: relevant})

    def decide_many(self, labels: dict[int, bool | None]) -> None:
        """`decide` for several papers at once (a bulk change): one retrain."""
        with self._lock:
            for paper_id, relevant in labels.items():
                if relevant is None:
                    self._labels.pop(paper_id, None)
                else:
                    self._labels[paper_id] = relevant
        self._changed()

    def set_query(self, query: str) -> None:
        with self._lock:
            self._query = query
        self._changed()

    def set_features(self, features: FeatureMatrix) -> None:
        """The library changed: learn on its new matrix (decisions on removed papers drop)."""
        with self._lock:
            self._features = features
        self._changed()

    # Answers: from the last finished model, without waiting.

    @property
    def latest(self) -> Ranking:
        return self._latest

    def next_paper(self, candidates: Iterable[int] | None = None) -> int | None:
        """The most promising undecided paper among `candidates` (all papers when None).

        Papers newer than the last model come after the scored ones, in the given order.
        """
        ranking = self._latest
        with self._lock:
            decided = set(self._labels)
        features = ranking.features
        if candidates is None:
            ids = features.ids
            scores = ranking.scores.copy()
            if decided:
                scores[np.isin(ids, np.fromiter(decided, dtype=np.int64))] = -np.inf
            if len(scores) == 0 or scores.max() == -np.inf:
                return None
            return int(ids[int(np.argmax(scores))])
        best: int | None = None
        best_score = -np.inf
        unscored: int | None = None
        for paper_id in candidates:
            if paper_id in decided:
                continue
            row = features.row_of.get(paper_id)
            if row is None:
                unscored = paper_id if unscored is None else unscored
            elif best is None or ranking.scores[row] > best_score:
                best, best_score = paper_id, ranking.scores[row]
        return best if best is not None else unscored

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the model reflects every change so far (tests, benchmarks, CLI)."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._training, timeout)

    def close(self) -> None:
        self._worker.shutdown(wait=True, cancel_futures=True)

    def __enter__(self) -> BackgroundRanker:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # The worker.

    def _changed(self) -> None:
        with self._lock:
            self._version += 1
            if self._training:
                return  # the running job sees the new version and trains again
            self._training = True
        self._worker.submit(self._train_until_current)

    def _train_until_current(self) -> None:
        try:
            while True:
                with self._lock:
                    version = self._version
                    features = self._features
                    labels = {i: r for i, r in self._labels.items() if i in features.row_of}
                    query = self._query
                scorer = train(features, labels, query)
                scores = (
                    scorer.scores(features.matrix)
                    if scorer is not None
                    # No model yet: file order, first paper first.
                    else -np.arange(len(features), dtype=np.float64)
                )
                self._latest = Ranking(features, scorer, scores, version)
                if self._on_trained is not None:
                    self._on_trained(self._latest)
                with self._lock:
                    if self._version == version:
                        self._training = False
                        self._idle.notify_all()
                        return
        except Exception:
            logger.exception("training the ranking model failed")
            with self._lock:
                self._training = False
                self._idle.notify_all()

"""'Most promising first' for an open library (issue 10, part 3).

The feature matrix (paperdesk.ranking.features) is built once per library change, not
per decision: it is saved in the library folder (`ranking/`) with a key per paper that
changes when the paper's title or abstract does, so reopening loads it and a change
tokenises only the papers it touched. Decisions (keep or a rating of 4+ relevant,
discard irrelevant) reach a BackgroundRanker, which retrains on its own thread; the
next paper is read from the last model that finished, so it never waits on training.

A Promise belongs to one Desk (`desk.promise`) and is safe to use from any thread.
Building the matrix is the only slow call (seconds at 13,000 papers, a minute at
100,000 the first time): `start` runs it on the Promise's own worker thread.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from paperdesk.core.changes import Changes
from paperdesk.core.models import Paper, Status
from paperdesk.core.triage import KEPT_STATUSES
from paperdesk.ranking.background import BackgroundRanker, Ranking
from paperdesk.ranking.explain import Contribution, Explanation, explain
from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import decision_label, more_like

if TYPE_CHECKING:
    from paperdesk.services.desk import Desk
    from paperdesk.store.triage import TriageStore

log = logging.getLogger(__name__)

FEATURES_DIR = "ranking"
_MATRIX_FILE = "features.npz"
_KEYS_FILE = "keys.npz"
#: Words of "why this paper" shown each way.
EXPLAINED_TERMS = 8
#: How long an order waits for the first model of a library (later ones never wait).
FIRST_MODEL_WAIT_S = 60.0


def label_of(status: Status, rating: int) -> bool | None:
    """What a paper teaches the model: relevant, irrelevant, or nothing (None)."""
    return decision_label(status, rating, kept=status in KEPT_STATUSES)


class Promise:
    """The feature matrix kept in step with one library, and its background ranker."""

    def __init__(self, desk: Desk) -> None:
        self._desk = desk
        self._folder = desk.folder / FEATURES_DIR
        self._lock = threading.RLock()
        self._features: FeatureMatrix | None = None
        self._keys: dict[int, int] = {}
        self._ranker: BackgroundRanker | None = None
        self._query = ""
        self._listeners: list[Callable[[], None]] = []
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="promise")
        self._closed = False

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Future[None]:
        """Bring the matrix up to date and (re)train, on the Promise's own thread."""
        return self._worker.submit(self._logged(self.ranker))

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener` (on a worker thread) whenever a model finishes training."""
        self._listeners.append(listener)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            ranker, self._ranker = self._ranker, None
        self._worker.shutdown(wait=True, cancel_futures=True)
        if ranker is not None:
            ranker.close()

    # ------------------------------------------------------------------ the matrix

    def features(self) -> FeatureMatrix:
        """The matrix for the library as it is now: loaded, built or brought up to date.

        Slow the first time for a library (run it off the GUI thread); afterwards it costs
        one read of the papers' keys and tokenises only what changed.
        """
        with self._lock:
            current = self._current_keys()
            if self._features is None:
                self._features, self._keys = self._load()
            removed = [i for i in self._keys if i not in current]
            return self._follow(current, removed)

    def _reread(self, ids: Sequence[int]) -> None:
        """Re-tokenise those of `ids` whose text changed (an edited title, an undone one).

        Reads the keys of these papers only: a decision changes no key and costs one
        small query here, and an edit does not wait for the next open to be seen.
        """
        with self._lock:
            if self._features is not None:  # else the first features() reads every key
                self._follow(self._current_keys(ids), removed=[])

    def _follow(self, current: dict[int, int], removed: list[int]) -> FeatureMatrix:
        """The matrix with the papers whose key differs from `current` re-tokenised and
        `removed` dropped; saved, and handed to the ranker, when anything changed."""
        changed = [i for i, key in current.items() if self._keys.get(i) != key]
        if self._features is None or changed or removed:
            self._features = self._updated(self._features, changed, removed)
            for paper_id in removed:
                del self._keys[paper_id]
            self._keys.update(current)
            self._save(self._features)
        if self._ranker is not None and self._ranker.latest.features is not self._features:
            self._ranker.set_features(self._features)
        return self._features

    def _current_keys(self, ids: Sequence[int] | None = None) -> dict[int, int]:
        return {paper_id: _digest(key) for paper_id, key in self._triage.text_keys(ids)}

    def ready(self) -> bool:
        """Whether a model can be asked for now (the matrix exists and a ranker runs)."""
        return self._ranker is not None

    def _updated(
        self, features: FeatureMatrix | None, changed: list[int], removed: list[int]
    ) -> FeatureMatrix:
        texts = self._triage.texts(changed)
        if features is None:
            log.info("building the ranking's feature matrix for %d papers", len(changed))
            return FeatureMatrix.build(texts)
        if removed:
            features = features.without(removed)
        return features.with_papers(texts) if changed else features

    def _load(self) -> tuple[FeatureMatrix | None, dict[int, int]]:
        try:
            matrix = FeatureMatrix.load(self._folder / _MATRIX_FILE)
            with np.load(self._folder / _KEYS_FILE, allow_pickle=False) as saved:
                keys = dict(zip(saved["ids"].tolist(), saved["keys"].tolist(), strict=True))
        except (OSError, ValueError, KeyError) as error:
            if (self._folder / _MATRIX_FILE).exists():
                log.info("rebuilding the ranking's feature matrix: %s", error)
            return None, {}
        if set(keys) != set(matrix.row_of):
            return None, {}
        return matrix, keys

    def _save(self, features: FeatureMatrix) -> None:
        """Write the matrix and its keys (each through a temporary file, then renamed)."""
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
            matrix_temp = self._folder / (_MATRIX_FILE + ".tmp")
            keys_temp = self._folder / (_KEYS_FILE + ".tmp")
            features.save(matrix_temp)
            ids = np.fromiter(self._keys, dtype=np.int64, count=len(self._keys))
            keys = np.fromiter(self._keys.values(), dtype=np.int64, count=len(self._keys))
            with keys_temp.open("wb") as out:
                np.savez(out, ids=ids, keys=keys)
            os.replace(matrix_temp, self._folder / _MATRIX_FILE)
            os.replace(keys_temp, self._folder / _KEYS_FILE)
        except OSError as error:
            # Only a cache: the next open builds the matrix again.
            log.warning("could not save the ranking's feature matrix: %s", error)

    # ------------------------------------------------------------------ the model

    def ranker(self) -> BackgroundRanker:
        """The background ranker (made on first use, from every decision so far)."""
        features = self.features()
        with self._lock:
            if self._ranker is None:
                if self._closed:
                    raise RuntimeError("the library was closed")
                labels = self.labels()
                self._ranker = BackgroundRanker(features, labels, self._query, self._trained)
            return self._ranker

    def labels(self) -> dict[int, bool]:
        """Every judged paper's label (keep or rating >= 4 relevant, discard irrelevant)."""
        found = {}
        for paper_id, status, rating in self._triage.judged():
            label = label_of(status, rating)
            if label is not None:
                found[paper_id] = label
        return found

    def set_query(self, query: str) -> None:
        """A triage's query, the positive example a cold start learns from ("" for none)."""
        with self._lock:
            self._query = query
            if self._ranker is not None:
                self._ranker.set_query(query)

    def note_changes(self, changes: Changes) -> None:
        """Learn from a mutation: new labels for the papers it touched, and a matrix
        update (on the worker) when papers came or went or their text changed. Never
        slow, never raises."""
        ranker = self._ranker
        if ranker is None or not changes.paper_ids:
            return
        try:
            ids = sorted(changes.paper_ids)
            judged = {i: label_of(s, r) for i, s, r in self._triage.judged(ids)}
            for paper_id in ids:
                ranker.decide(paper_id, judged.get(paper_id))
            if changes.papers_added_or_removed:
                self._worker.submit(self._logged(self.features))
            else:
                self._worker.submit(self._logged(lambda: self._reread(ids)))
        except Exception:
            log.exception("the ranking could not follow a change")

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the model reflects every change so far (CLI, tests, benchmarks).

        Once the ranker runs, this reads nothing itself: it waits for the matrix updates
        the changes' own note_changes queued, then for the model.
        """
        ranker = self._ranker
        if ranker is None:
            return self.ranker().wait(timeout)
        started = time.monotonic()
        try:
            self._worker.submit(lambda: None).result(timeout)
        except (TimeoutError, RuntimeError):  # too slow, or the library is closing
            return False
        left = None if timeout is None else max(0.0, timeout - (time.monotonic() - started))
        return ranker.wait(left)

    def latest(self) -> Ranking | None:
        """The last model that finished (None before the ranker started)."""
        ranker = self._ranker
        return ranker.latest if ranker is not None else None

    def best(self, candidates: Collection[int]) -> int | None:
        """The most promising of `candidates` by the last model, without waiting.

        None when there is no candidate, no model yet (before the first keep or query),
        or none of the candidates is known to the model: the caller keeps its own order.
        """
        ranking = self.latest()
        if not candidates or ranking is None or ranking.scorer is None:
            return None
        wanted = np.fromiter(candidates, dtype=np.int64, count=len(candidates))
        mask = np.isin(ranking.features.ids, wanted)
        if not mask.any():
            return None
        scores = np.where(mask, ranking.scores, -np.inf)
        return int(ranking.features.ids[int(np.argmax(scores))])

    def order(self, ids: Sequence[int]) -> list[int]:
        """`ids` most promising first by the last model; papers it has not seen last.

        The first time, this builds the matrix and trains (see `start` to do it ahead).
        """
        if self._ranker is None:
            self.ranker().wait(FIRST_MODEL_WAIT_S)
        ranking = self.latest()
        if ranking is None or ranking.scorer is None:
            return list(ids)
        rows = ranking.features.row_of
        known = [i for i in ids if i in rows]
        scores = ranking.scores[[rows[i] for i in known]] if known else np.zeros(0)
        order = np.argsort(-scores, kind="stable")
        return [known[k] for k in order.tolist()] + [i for i in ids if i not in rows]

    def explain(self, paper: Paper) -> Explanation | None:
        """The words that raised or lowered the paper's score (None without a model)."""
        ranking = self.latest()
        if ranking is None or ranking.scorer is None or paper.id not in ranking.features.row_of:
            return None
        found = explain(ranking.features, ranking.scorer, paper.id, paper, 3 * EXPLAINED_TERMS)
        # "is", "for", "of the" do move scores, but tinting them says nothing to a reader.
        return replace(
            found,
            raising=_telling(found.raising)[:EXPLAINED_TERMS],
            lowering=_telling(found.lowering)[:EXPLAINED_TERMS],
        )

    def more_like(self, paper_id: int, limit: int = 20) -> list[int]:
        """The papers whose words are most like this one's, most alike first."""
        features = self.features()
        if paper_id not in features.row_of:
            return []
        return [other for other, _ in more_like(features, paper_id, limit)]

    # ------------------------------------------------------------------ helpers

    @property
    def _triage(self) -> TriageStore:
        return self._desk.library.triage

    def _trained(self, _ranking: Ranking) -> None:
        for listener in list(self._listeners):
            listener()

    @staticmethod
    def _logged(work: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except Exception:
                log.exception("the ranking's background work failed")

        return run


def _telling(terms: tuple[Contribution, ...]) -> tuple[Contribution, ...]:
    """The terms with at least one word that is not an English stop word."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return tuple(t for t in terms if any(w not in ENGLISH_STOP_WORDS for w in t.term.split()))


def _digest(key: str) -> int:
    """A paper's text key as a signed 64-bit number (what the keys file stores)."""
    return int.from_bytes(
        hashlib.blake2b(key.encode(), digest_size=8).digest(), "little", signed=True
    )

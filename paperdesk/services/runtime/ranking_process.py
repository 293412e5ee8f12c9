"""The ranking's own process: the feature matrix, the model and its training (issue 10).

Spawned (never forked) by services/runtime/ranking_link.py, one per open library. The process
that opened the library (the window, or `paperdesk triage`) reads the database and sends
this one the papers' text keys and, for the papers whose key changed, their texts in
slices of 2,000 (features.SLICE), each tokenised as it arrives: the texts of one slice
at most are held here. After every training it sends back every paper's score, so the
other side picks the next paper without asking; 'why this paper' and 'more like this'
are asked for. scikit-learn, SciPy and the matrix (a gigabyte at 100,000 papers) live
here only: the window's process never imports them, and its GIL never waits on them.

Messages are tuples over one duplex pipe:
  in:  (request_id, name, args)   request_id 0 asks for no answer
  out: ("reply", request_id, value) | ("error", request_id, text)
       ("trained", version, ids or None when unchanged, scores, kind or None)
"""

from __future__ import annotations

import logging
import os
import resource
import threading
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sp

from paperdesk.core.models import Paper, PaperRecord
from paperdesk.ranking.background import BackgroundRanker, Ranking
from paperdesk.ranking.explain import explain
from paperdesk.ranking.explanation import Explanation
from paperdesk.ranking.features import FeatureConfig, FeatureMatrix, tokenise
from paperdesk.ranking.model import more_like

log = logging.getLogger(__name__)

FEATURES_DIR = "ranking"
_MATRIX_FILE = "features.npz"
_KEYS_FILE = "keys.npz"
#: Words of "why this paper" shown each way.
EXPLAINED_TERMS = 8


def serve(conn: Connection, folder: str) -> None:
    """The process's body: answer `conn` until told to close or the other side is gone."""
    logging.basicConfig(level=logging.WARNING, format="paperdesk ranking: %(message)s")
    _Worker(conn, Path(folder) / FEATURES_DIR).run()


class _Worker:
    def __init__(self, conn: Connection, folder: Path) -> None:
        self._conn = conn
        self._send_lock = threading.Lock()
        self._folder = folder
        self._config = FeatureConfig()
        self._features: FeatureMatrix | None = None
        self._keys: dict[int, int] = {}
        self._loaded = False
        # A sync under way: the keys it brings, the papers it removes, the slices so far.
        self._sync: tuple[dict[int, int], list[int]] | None = None
        self._slices: list[tuple[np.ndarray, sp.csr_matrix]] = []
        self._slice_failed: str | None = None
        self._generation = 0
        self._ranker: BackgroundRanker | None = None
        self._pushed: FeatureMatrix | None = None

    def run(self) -> None:
        try:
            while True:
                try:
                    request_id, name, args = self._conn.recv()
                except (EOFError, OSError):
                    return  # the other process is gone: nothing left to answer
                if name == "close":
                    self._reply(request_id, None)
                    return
                if name == "wait":
                    # Waits for training on a thread of its own: other requests go on.
                    threading.Thread(target=self._wait, args=(request_id, *args)).start()
                    continue
                try:
                    value = getattr(self, "do_" + name)(*args)
                except Exception as error:
                    log.exception("%s failed", name)
                    if request_id:
                        self._send(("error", request_id, f"{type(error).__name__}: {error}"))
                    continue
                self._reply(request_id, value)
        finally:
            if self._ranker is not None:
                self._ranker.close()
            self._conn.close()

    # ------------------------------------------------------------------ the matrix

    def do_keys(self, ids: np.ndarray, digests: np.ndarray, complete: bool) -> np.ndarray:
        """Compare the library's text keys with the matrix's; the ids whose text must
        come (`texts`) before `commit`. `complete`: these are all the library's papers
        (the others were removed)."""
        if not self._loaded:
            self._features, self._keys = self._load()
            self._loaded = True
        self._slices, self._slice_failed = [], None
        if self._features is None and not complete:
            self._sync = None  # the first complete sync reads everything anyway
            return np.zeros(0, dtype=np.int64)
        current = dict(zip(ids.tolist(), digests.tolist(), strict=True))
        removed = [i for i in self._keys if i not in current] if complete else []
        if self._features is None:
            changed = list(current)
        else:
            changed = [i for i, key in current.items() if self._keys.get(i) != key]
        self._sync = (current, removed)
        return np.array(changed, dtype=np.int64)

    def do_texts(self, papers: list[tuple[int, PaperRecord]]) -> None:
        """One slice of a sync's papers: tokenised now, its texts dropped."""
        if self._sync is None or self._slice_failed:
            return
        try:
            self._slices.append(tokenise(papers, self._config))
        except Exception as error:  # answered by `commit`, the sync's next call
            self._slice_failed = f"{type(error).__name__}: {error}"
            raise

    def do_commit(self) -> int:
        """End a sync: the matrix with its papers' new rows, saved and handed to the
        model when anything changed. Returns the matrix's papers."""
        sync, slices, failed = self._sync, self._slices, self._slice_failed
        self._sync, self._slices, self._slice_failed = None, [], None
        if failed:
            raise RuntimeError(f"a slice of papers could not be read: {failed}")
        if sync is None:
            return len(self._features) if self._features is not None else 0
        current, removed = sync
        features = self._features
        if features is None:
            log.info("building the ranking's feature matrix for %d papers", len(current))
            features = FeatureMatrix.from_slices(slices, self._config)
        elif removed or slices:
            if removed:
                features = features.without(removed)
            if slices:
                features = features.with_rows(
                    np.concatenate([ids for ids, _ in slices]),
                    sp.vstack([tf for _, tf in slices], format="csr"),
                )
        if features is not self._features:
            self._features = features
            for paper_id in removed:
                self._keys.pop(paper_id, None)
            self._keys.update(current)
            self._generation += 1
            self._save(features)
            if self._ranker is not None:
                self._ranker.set_features(features)
        else:
            self._keys.update(current)
        return len(features)

    def _load(self) -> tuple[FeatureMatrix | None, dict[int, int]]:
        try:
            matrix = FeatureMatrix.load(self._folder / _MATRIX_FILE)
            with np.load(self._folder / _KEYS_FILE, allow_pickle=False) as saved:
                keys = dict(zip(saved["ids"].tolist(), saved["keys"].tolist(), strict=True))
        except (OSError, ValueError, KeyError) as error:
            if (self._folder / _MATRIX_FILE).exists():
                log.info("rebuilding the ranking's feature matrix: %s", error)
            return None, {}
        if set(keys) != set(matrix.row_of) or matrix.config != self._config:
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

    def do_start(self, labels: dict[int, bool], query: str) -> None:
        """Start training (once the first sync committed); later calls set the query."""
        if self._features is None:
            raise RuntimeError("no feature matrix yet")
        if self._ranker is None:
            self._ranker = BackgroundRanker(self._features, labels, query, self._trained)
        else:
            self._ranker.set_query(query)

    def do_query(self, query: str) -> None:
        if self._ranker is not None:
            self._ranker.set_query(query)

    def do_decide(self, labels: dict[int, bool | None]) -> None:
        if self._ranker is not None:
            self._ranker.decide_many(labels)

    def _wait(self, request_id: int, timeout: float | None) -> None:
        ready = self._ranker.wait(timeout) if self._ranker is not None else True
        self._reply(request_id, ready)

    def _trained(self, ranking: Ranking) -> None:
        """On the training thread: every paper's score to the other side."""
        ids = None if ranking.features is self._pushed else ranking.features.ids
        self._pushed = ranking.features
        kind = ranking.scorer.kind if ranking.scorer is not None else None
        self._send(("trained", ranking.version, ids, ranking.scores, kind))

    # ------------------------------------------------------------------ answers

    def do_explain(self, paper: Paper) -> Explanation | None:
        ranker = self._ranker
        ranking = ranker.latest if ranker is not None else None
        if ranking is None or ranking.scorer is None or paper.id not in ranking.features.row_of:
            return None
        return explain(ranking.features, ranking.scorer, paper.id, paper, EXPLAINED_TERMS)

    def do_more_like(self, paper_id: int, limit: int) -> list[int]:
        features = self._features
        if features is None or paper_id not in features.row_of:
            return []
        return [other for other, _ in more_like(features, paper_id, limit)]

    def do_columns(self, paper_id: int) -> list[int]:
        """The matrix's columns of one paper's row (tests: is an edit seen)."""
        features = self._features
        if features is None or paper_id not in features.row_of:
            return []
        return features.matrix[features.row_of[paper_id]].indices.tolist()  # type: ignore[no-any-return]

    def do_term_columns(self, text: str) -> list[int]:
        features = self._features
        return list(features.terms(text).values()) if features is not None else []

    def do_info(self) -> dict[str, Any]:
        """The process's figures: papers, matrix generation, pid, peak memory (MB), CPU (s)."""
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return {
            "papers": len(self._features) if self._features is not None else 0,
            "generation": self._generation,
            "pid": os.getpid(),
            "peak_mb": usage.ru_maxrss / 1024,
            "cpu_s": usage.ru_utime + usage.ru_stime,
        }

    # ------------------------------------------------------------------ the pipe

    def _reply(self, request_id: int, value: object) -> None:
        if request_id:
            self._send(("reply", request_id, value))

    def _send(self, message: tuple[Any, ...]) -> None:
        with self._send_lock:
            try:
                self._conn.send(message)
            except (OSError, ValueError):
                pass  # the other side is gone; the main loop ends at its next read

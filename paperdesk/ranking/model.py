"""'Most promising first': a linear scorer learnt from the user's decisions.

The scorer is a linear SVM over the TF-IDF rows (score = row . weights + bias), from
the first kept paper or query on. Linear keeps scoring 100,000 papers one sparse
product, and lets `explain` say which words raised or lowered any score.

Which learner, with which settings, was chosen by simulating triage on the real corpus
(see LEARNER below).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from paperdesk.ranking.decisions import POSITIVE_RATING, decision_label
from paperdesk.ranking.features import FeatureMatrix

__all__ = ["POSITIVE_RATING", "Scorer", "decision_label", "more_like", "rank", "train"]


@dataclass(frozen=True)
class Scorer:
    """score(row) = row . weights + bias; higher is more promising."""

    weights: np.ndarray
    bias: float
    # "learnt" once both classes were decided; "kept" / "query" while it starts cold.
    kind: str

    def scores(self, matrix: sp.csr_matrix) -> np.ndarray:
        """The score of every row, as float64 (an argsort must not see float32 ties)."""
        return np.asarray(matrix @ self.weights, dtype=np.float64) + self.bias


Learner = Callable[[sp.csr_matrix, np.ndarray], tuple[np.ndarray, float]]


def balanced_weights(y: np.ndarray, ratio: float) -> np.ndarray:
    """Sample weights that count the irrelevant class as 1/ratio of the relevant one.

    Decisions are lopsided (a few keeps among many discards); without this the learner
    settles on 'everything is irrelevant' and ranks by noise.
    """
    positives = np.count_nonzero(y)
    negatives = len(y) - positives
    weights = np.where(y == 1, 1.0, positives / (ratio * negatives))
    return weights * (len(y) / weights.sum())


@dataclass(frozen=True)
class LinearSVM:
    """A linear SVM learner (liblinear's dual coordinate descent), relevant weighted
    `ratio` times; `random_state` fixes the order it visits the rows in.

    Left to NumPy's global random state, that order changed from run to run and so did
    the figures of a simulation (by about 10 reads to 95% recall on the same seeds).
    """

    c: float
    ratio: float
    random_state: int = 0

    def __call__(self, x: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, float]:
        model = LinearSVC(C=self.c, dual=True, max_iter=5000, random_state=self.random_state)
        with warnings.catch_warnings():
            # Stopping a little short of convergence moves no paper in the ranking.
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(x, y, sample_weight=balanced_weights(y, self.ratio))
        return model.coef_.ravel(), float(model.intercept_[0])


def linear_svm(c: float, ratio: float, random_state: int = 0) -> LinearSVM:
    return LinearSVM(c, ratio, random_state)


def seeded(learn: Learner, seed: int) -> Learner:
    """`learn` with its random state derived from a simulation's `seed` (learners
    without one are returned as they are): the same seed reads the same papers."""
    return replace(learn, random_state=seed) if isinstance(learn, LinearSVM) else learn


# The learner and its settings, chosen by simulation (bench/bench_ranking.py --learners;
# the alternatives and their figures are in the report): ASReview's balancing, a little
# less regularisation than its C=0.11, and presumed-irrelevant papers as in CAL.
LEARNER = linear_svm(c=0.3, ratio=9.8)
# Each fit makes up its irrelevant examples to this many with random undecided papers
# (Cormack and Grossman's "presumed non-relevant" documents): most undecided papers are,
# and they show the learner the whole library while few papers are decided. It is also
# what lets one kept paper or a query start the ranking. The user's own discards take
# their place as they come: kept on in every fit, a hundred random papers cost ~60 more
# abstracts read to 95% recall at low prevalence (title~causal, 1.8% relevant), where
# they lost to the baseline (bench/bench_ranking.py --learners).
PRESUMED_IRRELEVANT = 100


def fit_decisions(
    learn: Learner,
    matrix: sp.csr_matrix,
    rows: np.ndarray,
    y: np.ndarray,
    presumed: int = PRESUMED_IRRELEVANT,
    extra_positive: sp.csr_matrix | None = None,
) -> tuple[np.ndarray, float]:
    """Fit on the decided rows (labels `y`), random other rows taken as irrelevant while
    fewer than `presumed` rows are decided irrelevant, and `extra_positive` rows (a
    query) taken as relevant.

    The sample is drawn from a generator seeded by the number of decisions: the same
    decisions always give the same model.
    """
    parts = [matrix[rows]]
    labels = [y]
    missing = presumed - (len(y) - int(np.count_nonzero(y)))
    undecided = np.setdiff1d(np.arange(matrix.shape[0]), rows, assume_unique=True)
    if missing > 0 and len(undecided):
        rng = np.random.default_rng(len(rows))
        parts.append(matrix[rng.choice(undecided, min(missing, len(undecided)), replace=False)])
        labels.append(np.zeros(parts[-1].shape[0], dtype=np.int64))
    if extra_positive is not None:
        parts.append(extra_positive)
        labels.append(np.ones(extra_positive.shape[0], dtype=np.int64))
    return learn(sp.vstack(parts, format="csr"), np.concatenate(labels))


def train(features: FeatureMatrix, labels: Mapping[int, bool], query: str = "") -> Scorer | None:
    """The scorer for these decisions (paper id -> relevant) and query, or None.

    A query alone, or one kept paper, is enough to start: the presumed-irrelevant papers
    stand in for the discards not made yet. Only discards and no query rank nothing.
    """
    rows = features.rows(labels)
    y = np.fromiter((1 if labels[i] else 0 for i in labels), dtype=np.int64, count=len(labels))
    typed = features.vectorize(query) if query.strip() else None
    if typed is not None and typed.nnz == 0:
        typed = None  # only unknown or hidden words
    kept = int(np.count_nonzero(y))
    if not kept and typed is None:
        return None
    if kept == len(y) == len(features):
        return None  # every paper kept: nothing stands for "irrelevant", nothing left to rank
    weights, bias = fit_decisions(LEARNER, features.matrix, rows, y, extra_positive=typed)
    kind = "learnt" if 0 < kept < len(y) else "kept" if kept else "query"
    return Scorer(weights.astype(np.float32), bias, kind)


def rank(
    features: FeatureMatrix, scorer: Scorer | None, candidates: Iterable[int] | None = None
) -> list[int]:
    """Candidate ids (all papers when None), most promising first; ties keep id order.

    Without a scorer the order is the candidates' own (file order).
    """
    ids = features.ids if candidates is None else np.fromiter(candidates, dtype=np.int64)
    if scorer is None or len(ids) == 0:
        return [int(i) for i in ids]
    rows = features.rows(ids.tolist()) if candidates is not None else np.arange(len(ids))
    scores = scorer.scores(features.matrix[rows])
    order = np.lexsort((ids, -scores))
    return [int(i) for i in ids[order]]


def more_like(features: FeatureMatrix, paper_id: int, limit: int = 10) -> list[tuple[int, float]]:
    """The papers most similar to one (cosine of TF-IDF rows), with their similarity."""
    row = features.matrix[features.row_of[paper_id]]
    similarity = np.asarray((features.matrix @ row.T).todense()).ravel()
    similarity[features.row_of[paper_id]] = -np.inf
    limit = min(limit, len(similarity) - 1)
    if limit <= 0:
        return []
    best = np.argpartition(-similarity, limit - 1)[:limit]
    best = best[np.lexsort((features.ids[best], -similarity[best]))]
    return [(int(features.ids[r]), float(similarity[r])) for r in best if similarity[r] > 0]

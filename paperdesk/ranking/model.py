"""'Most promising first': a linear scorer learnt from the user's decisions.

Every scorer here is linear in the TF-IDF row (score = row . weights + bias), whether
it was learnt (a linear SVM) or made for a cold start (the direction of a query or of
the kept papers). That keeps scoring 100,000 papers one sparse product, and lets
`explain` say which words raised or lowered any score.

Which learner, with which settings, was chosen by simulating triage on the real corpus
(bench/bench_ranking.py --learners); the alternatives tried and their figures are in
the docstring of LEARNERS below.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import ComplementNB
from sklearn.svm import LinearSVC

from paperdesk.core.models import Status
from paperdesk.ranking.features import FeatureMatrix

# A rating at or above this counts as "keep", whatever the status says.
POSITIVE_RATING = 4


def decision_label(status: Status, rating: int, kept: bool = False) -> bool | None:
    """The issue's rule: keep or rating >= 4 is relevant, discard is not, the rest unknown."""
    if kept or rating >= POSITIVE_RATING:
        return True
    if status is Status.DISCARDED:
        return False
    return None


@dataclass(frozen=True)
class Scorer:
    """score(row) = row . weights + bias; higher is more promising."""

    weights: np.ndarray
    bias: float
    # "learnt" once both classes exist; "query" / "kept" while it starts cold.
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


def linear_svm(c: float, ratio: float) -> Learner:
    def fit(x: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, float]:
        model = LinearSVC(C=c, dual=True, max_iter=5000)
        with warnings.catch_warnings():
            # Stopping a little short of convergence moves no paper in the ranking.
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(x, y, sample_weight=balanced_weights(y, ratio))
        return model.coef_.ravel(), float(model.intercept_[0])

    return fit


def logistic(c: float, ratio: float) -> Learner:
    def fit(x: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, float]:
        model = LogisticRegression(C=c, solver="liblinear")
        model.fit(x, y, sample_weight=balanced_weights(y, ratio))
        return model.coef_.ravel(), float(model.intercept_[0])

    return fit


def complement_nb(alpha: float) -> Learner:
    def fit(x: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, float]:
        model = ComplementNB(alpha=alpha).fit(x, y)
        log_prob = model.feature_log_prob_
        return log_prob[1] - log_prob[0], 0.0

    return fit


LEARNERS: dict[str, Learner] = {
    "svm": linear_svm(c=0.3, ratio=9.8),
    "logistic": logistic(c=10.0, ratio=9.8),
    "complement-nb": complement_nb(alpha=0.1),
}
"""Learners compared by simulation; DEFAULT_LEARNER won (figures in the report)."""

DEFAULT_LEARNER = "svm"


def train(
    features: FeatureMatrix,
    labels: Mapping[int, bool],
    query: str = "",
    learner: str = DEFAULT_LEARNER,
) -> Scorer | None:
    """The scorer for these decisions (paper id -> relevant), or None when nothing says.

    With both classes, the learner. Before that, a cold start: the direction of the kept
    papers and of the query together (a query alone, or one kept paper, is enough).
    With neither (only discards, no query) there is nothing to rank by: None.
    """
    rows = features.rows(labels)
    y = np.fromiter((1 if labels[i] else 0 for i in labels), dtype=np.int64, count=len(labels))
    if 0 < np.count_nonzero(y) < len(y):
        weights, bias = LEARNERS[learner](features.matrix[rows], y)
        return Scorer(weights.astype(np.float32), bias, "learnt")
    positive_rows = rows[y == 1]
    weights = np.zeros(features.config.n_features, dtype=np.float32)
    if len(positive_rows):
        weights += np.asarray(features.matrix[positive_rows].sum(axis=0)).ravel()
    if query.strip():
        typed = features.vectorize(query)
        weights[typed.indices] += typed.data
    if not weights.any():
        return None
    return Scorer(weights, 0.0, "kept" if len(positive_rows) else "query")


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

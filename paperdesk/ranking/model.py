"""'Most promising first': two linear scorers learnt from the user's decisions, fused.

Each scorer is a linear SVM over the TF-IDF rows (score = row . weights + bias), from
the first kept paper or query on. Linear keeps scoring 100,000 papers one sparse
product, and lets `explain` say which words raised or lowered any score.

The order is ASReview's default model's (ELAS u4: C=0.11, relevant weighted 9.8x,
nothing presumed), into which ours (tuned by simulating triage on the real corpus,
LEARNER below) may only bring forward the papers it ranks in its first FUSION_K. Tuned
alone, ours read up to 14% more abstracts than ASReview on a topic it was not tuned on;
an equal fusion of the two still lost by up to 9%, mostly in the last few relevant
papers, where ours was the weaker. Led by ASReview's part, no paper comes more than
FUSION_K places after where that part ranks it (docs/triage.md has the figures).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from sklearn.exceptions import ConvergenceWarning
from sklearn.svm import LinearSVC

from paperdesk.ranking.decisions import POSITIVE_RATING, decision_label
from paperdesk.ranking.features import FeatureMatrix

__all__ = ["POSITIVE_RATING", "Scorer", "decision_label", "more_like", "rank", "train"]

#: Reciprocal rank fusion's constant, as Cormack, Clarke and Buettcher (2009) set it:
#: an order adds 1 / (FUSION_K + rank) to a paper. Not tuned here; no new constant
#: either: ours votes for its first FUSION_K papers only (`promote`).
FUSION_K = 60


@dataclass(frozen=True)
class LinearPart:
    """score(row) = row . weights + bias; higher is more promising."""

    weights: np.ndarray
    bias: float

    def scores(self, matrix: sp.csr_matrix) -> np.ndarray:
        """The score of every row, as float64 (an argsort must not see float32 ties)."""
        return np.asarray(matrix @ self.weights, dtype=np.float64) + self.bias


def ranks(scores: np.ndarray) -> np.ndarray:
    """Each row's rank by `scores`, 1 the highest; equal scores take their ranks in row
    order (a stable sort), as `rank` breaks ties."""
    ranked = np.empty(len(scores), dtype=np.float64)
    ranked[np.argsort(-scores, kind="stable")] = np.arange(1, len(scores) + 1)
    return ranked


def promote(lead: np.ndarray, promoter: np.ndarray, k: int = FUSION_K) -> np.ndarray:
    """`lead`'s order, into which `promoter` brings forward the papers it ranks in its
    first `k`: reciprocal rank fusion, the promoter voting only for its first `k`.

    Ranks, not scores, are summed: the two SVMs' scores are on different scales. A paper
    is passed only by papers the lead ranks higher and by the promoter's k, so none
    comes more than k places after its rank in the lead's order; a paper the promoter
    ranks r-th (r <= k) comes before every paper the lead ranks after r that the
    promoter does not vote for.
    """
    voted = ranks(promoter)
    return 1.0 / (k + ranks(lead)) + np.where(voted <= k, 1.0 / (k + voted), 0.0)


@dataclass(frozen=True)
class Scorer:
    """One linear part's order, or ASReview's part's with ours promoting (`promote`);
    higher is more promising."""

    parts: tuple[LinearPart, ...]  # ours, then ASReview's once both kinds are decided
    # "learnt" once both classes were decided; "kept" / "query" while it starts cold.
    kind: str

    def scores(self, matrix: sp.csr_matrix) -> np.ndarray:
        """Every row's score: the one part's own, or the parts' fused ranks among the
        rows given (so score the rows that compete, all of them at once)."""
        if len(self.parts) == 1:
            return self.parts[0].scores(matrix)
        ours, asreview = self.parts
        return promote(lead=asreview.scores(matrix), promoter=ours.scores(matrix))

    @cached_property
    def explained(self) -> LinearPart:
        """One linear score for 'why this paper': the parts' weights, each scaled to unit
        length (the SVMs' scales differ), summed. A word that raises it raised the paper
        in the orders overall; its split into words is exact (explain.py)."""
        if len(self.parts) == 1:
            return self.parts[0]
        norms = [float(np.linalg.norm(part.weights)) or 1.0 for part in self.parts]
        weights = sum(part.weights / norm for part, norm in zip(self.parts, norms, strict=True))
        bias = sum(part.bias / norm for part, norm in zip(self.parts, norms, strict=True))
        return LinearPart(np.asarray(weights, dtype=np.float32), float(bias))


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
    weights, bias = learn(sp.vstack(parts, format="csr"), np.concatenate(labels))
    return weights.astype(np.float32), bias


#: ASReview's default model (ELAS u4, asreview 3.0.8): C=0.11, relevant weighted 9.8x, on
#: the decided papers only. The fusion's second part, on our features.
ASREVIEW_LEARNER = linear_svm(c=0.11, ratio=9.8)


def fit_scorer(
    matrix: sp.csr_matrix,
    rows: np.ndarray,
    y: np.ndarray,
    extra_positive: sp.csr_matrix | None = None,
    seed: int = 0,
) -> Scorer:
    """The app's scorer for the decided `rows` (labels `y`) and a query's row, if any.

    Ours always (it starts from one kept paper or a query); ASReview's part joins once
    both kinds of decision were made, and leads the order from then on. `seed` sets both
    SVMs' random state (a simulation's seed; the app uses 0).
    """
    kept = int(np.count_nonzero(y))
    ours = LinearPart(
        *fit_decisions(seeded(LEARNER, seed), matrix, rows, y, PRESUMED_IRRELEVANT, extra_positive)
    )
    if not 0 < kept < len(y):
        return Scorer((ours,), "kept" if kept else "query")
    theirs = LinearPart(
        *fit_decisions(seeded(ASREVIEW_LEARNER, seed), matrix, rows, y, 0, extra_positive)
    )
    return Scorer((ours, theirs), "learnt")


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
    return fit_scorer(features.matrix, rows, y, typed)


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

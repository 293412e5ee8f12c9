"""Replay triage on a labelled list, as screening researchers measure their tools.

The simulated reader always decides truthfully. It starts from `prior` relevant and
`prior` irrelevant papers drawn at random (by `seed`), then reads the most promising
unread paper, decides, and the model learns again. Ours (the app's fused order,
`model.fit_scorer`) and the usual open-source baseline (ASReview's default, rebuilt
here: its TF-IDF 1-2-grams + linear SVM, balanced, most probable first) replay the
same priors; random reading is given by its expectation. bench/bench_ranking.py
--suite runs the real ASReview beside them.

Retraining: after a fit on n decisions, the next max(1, n * retrain_growth) papers are
read in that fit's order before the next fit. With retrain_growth=0 the model learns
after every decision, as in the app; bench/bench_ranking.py --check-schedule shows the
default growth gives the same figures within the spread between seeds.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord
from paperdesk.ranking import metrics
from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import (
    ASREVIEW_LEARNER,
    Learner,
    LinearPart,
    fit_decisions,
    fit_scorer,
    seeded,
)
from paperdesk.ranking.reading import hidden_words_pattern, reader_text

DEFAULT_RETRAIN_GROWTH = 0.02
OURS = "ours"
BASELINE = "baseline"


@dataclass(frozen=True)
class Run:
    """One reading order, summed up by when each relevant paper was found."""

    method: str
    found_at: tuple[int, ...]
    read: int
    fits: int
    fit_seconds: float

    def read_to_recall(self, n_relevant: int, recall: float = metrics.RECALL_TARGET) -> int:
        return metrics.read_to_recall(self.found_at, n_relevant, recall)


@dataclass(frozen=True)
class SimulationResult:
    rule: str
    n_papers: int
    n_relevant: int
    prior: int
    seed: int
    runs: tuple[Run, ...]
    retrain_growth: float
    random_read_to_95: float = field(init=False)

    def __post_init__(self) -> None:
        expected = metrics.random_read_to_recall(self.n_papers, self.n_relevant)
        object.__setattr__(self, "random_read_to_95", expected)

    def run(self, method: str) -> Run:
        return next(run for run in self.runs if run.method == method)

    def read_to_95(self, method: str) -> int:
        return self.run(method).read_to_recall(self.n_relevant)

    def wss_95(self, method: str) -> float:
        return metrics.work_saved(self.read_to_95(method), self.n_papers)

    @property
    def random_wss_95(self) -> float:
        return metrics.work_saved(round(self.random_read_to_95), self.n_papers)

    def summary(self) -> str:
        """The figures as a few lines of text: what `paperdesk simulate` prints."""
        shares = (0.05, 0.1, 0.2, 0.3, 0.5)
        reads = [max(1, round(share * self.n_papers)) for share in shares]
        head = "  ".join(f"{share:>5.0%}" for share in shares)
        lines = [
            f"{self.rule or 'relevant'}: {self.n_relevant} of {self.n_papers} papers"
            f" ({self.n_relevant / self.n_papers:.1%}); prior {self.prior}+{self.prior},"
            f" seed {self.seed}",
            f"{'method':<10} {'read to 95%':>11} {'WSS@95':>7}   recall after reading {head}",
        ]
        for run in self.runs:
            recalls = metrics.recall_after(run.found_at, self.n_relevant, reads)
            # Past the point where a replay stopped, recall is only known to be at least.
            stopped = len(run.found_at) < self.n_relevant
            cells = [
                f">={recall:.0%}" if stopped and read >= run.read else f"{recall:>5.0%}"
                for read, recall in zip(reads, recalls, strict=True)
            ]
            lines.append(
                f"{run.method:<10} {self.read_to_95(run.method):>11} "
                f"{self.wss_95(run.method):>7.1%}   {'':<21}" + "  ".join(cells)
            )
        random_recalls = "  ".join(f"{min(1.0, share):>5.0%}" for share in shares)
        lines.append(
            f"{'random':<10} {self.random_read_to_95:>11.0f} {self.random_wss_95:>7.1%}"
            f"   {'(expected)':<21}{random_recalls}"
        )
        return "\n".join(lines)

    def to_json(self) -> str:
        """Totals, the figures per method and each method's curve (reads at each find)."""
        out = asdict(self)
        for run in out["runs"]:
            run["read_to_95"] = self.read_to_95(run["method"])
            run["wss_95"] = round(self.wss_95(run["method"]), 4)
            run["recall_at_read"] = [
                [read, round(k / self.n_relevant, 4)]
                for k, read in enumerate(run.pop("found_at"), start=1)
            ]
        out["random_wss_95"] = round(self.random_wss_95, 4)
        return json.dumps(out)


def simulate(
    records: Sequence[PaperRecord],
    is_relevant: Callable[[PaperRecord], bool],
    prior: int = 1,
    seed: int = 0,
    **options: Any,
) -> SimulationResult:
    """Replay triage of `records` with ours (and the baseline) from the same priors;
    `options` are simulate_seeds' (rule, hidden_words, with_baseline, ...)."""
    (result,) = simulate_seeds(records, is_relevant, [seed], prior, **options)
    return result


def simulate_seeds(
    records: Sequence[PaperRecord],
    is_relevant: Callable[[PaperRecord], bool],
    seeds: Sequence[int],
    prior: int = 1,
    *,
    rule: str = "",
    hidden_words: Sequence[str] = (),
    with_baseline: bool = True,
    with_ours: bool = True,
    retrain_growth: float = DEFAULT_RETRAIN_GROWTH,
    stop_recall: float = 1.0,
) -> list[SimulationResult]:
    """`simulate` for each of `seeds`, the features built once for all of them.

    `hidden_words` are cut out of every text both models read; `stop_recall` ends each
    replay once that share of the relevant papers is found (1.0 reads on to the last).
    Both SVMs take their random state from the seed: a seed fixes the whole run.
    """
    y = np.fromiter((is_relevant(r) for r in records), dtype=np.int64, count=len(records))
    n_relevant = int(y.sum())
    if n_relevant < prior or len(y) - n_relevant < prior:
        raise InvalidValueError(
            f"--relevant {rule or '...'}: {n_relevant} of {len(y)} papers are relevant;"
            f" a prior of {prior} needs at least {prior} relevant and {prior} irrelevant"
        )
    stop = metrics.needed(n_relevant, stop_recall)
    ours = (
        used_columns(FeatureMatrix.build(enumerate(records), hidden=hidden_words).matrix)
        if with_ours
        else None
    )
    theirs = baseline_features(records, hidden_words) if with_baseline else None
    results = []
    for seed in seeds:
        schedule = (prior_rows(y, prior, seed), retrain_growth, stop)
        runs = []
        if ours is not None:
            runs.append(replay(OURS, y, app_fit(ours, seed), *schedule))
        if theirs is not None:
            runs.append(replay(BASELINE, y, baseline_fit(theirs, seed), *schedule))
        results.append(
            SimulationResult(rule, len(y), n_relevant, prior, seed, tuple(runs), retrain_growth)
        )
    return results


def used_columns(matrix: sp.csr_matrix) -> sp.csr_matrix:
    """`matrix` without its empty columns: the same fits and scores (an empty column
    gets no weight), but each fit's weight vector is the papers' terms, not 2**21 hashed
    columns, which made most of a replay's time on a few thousand papers."""
    return sp.csr_matrix(matrix[:, np.unique(matrix.indices)])


#: A model in a replay: decided rows and their labels in, the score of every row out.
Fit = Callable[[np.ndarray, np.ndarray], np.ndarray]


def app_fit(matrix: sp.csr_matrix, seed: int) -> Fit:
    """The app's own model (`fit_scorer`) on `matrix`, its SVMs seeded by `seed`."""
    return lambda rows, y: fit_scorer(matrix, rows, y, seed=seed).scores(matrix)


def learner_fit(matrix: sp.csr_matrix, learn: Learner, seed: int, presumed: int = 0) -> Fit:
    """One learner alone on `matrix`, its irrelevant rows made up to `presumed`."""
    seeded_learn = seeded(learn, seed)

    def fit(rows: np.ndarray, y: np.ndarray) -> np.ndarray:
        return LinearPart(*fit_decisions(seeded_learn, matrix, rows, y, presumed)).scores(matrix)

    return fit


def baseline_fit(matrix: sp.csr_matrix, seed: int) -> Fit:
    """ASReview's default model, rebuilt: its SVM on its TF-IDF (`baseline_features`)."""
    return learner_fit(matrix, ASREVIEW_LEARNER, seed)


def prior_rows(y: np.ndarray, prior: int, seed: int) -> list[int]:
    """`prior` relevant then `prior` irrelevant rows, drawn by `seed`."""
    rng = np.random.default_rng(seed)
    relevant = rng.choice(np.flatnonzero(y == 1), prior, replace=False)
    irrelevant = rng.choice(np.flatnonzero(y == 0), prior, replace=False)
    return [int(row) for row in (*relevant, *irrelevant)]


def replay(
    method: str,
    y: np.ndarray,
    fit: Fit,
    first: list[int],
    retrain_growth: float,
    stop: int,
) -> Run:
    """Read `first`, then most promising first, until `stop` relevant papers are found."""
    order = list(first)
    read = np.zeros(len(y), dtype=bool)
    read[order] = True
    found = int(y[order].sum())
    fits = 0
    fit_seconds = 0.0
    while found < stop and len(order) < len(y):
        started = time.perf_counter()
        rows = np.array(order)
        scores = fit(rows, y[rows])
        fit_seconds += time.perf_counter() - started
        fits += 1
        scores[read] = -np.inf
        batch = max(1, int(len(order) * retrain_growth))
        # A stable sort: equal scores are read in file order, so a seed fixes the run.
        for row in np.argsort(-scores, kind="stable")[:batch].tolist():
            if read[row]:
                break
            order.append(row)
            read[row] = True
            found += int(y[row])
            if found >= stop:
                break
    return Run(method, tuple(metrics.found_at(y[order] == 1)), len(order), fits, fit_seconds)


def baseline_features(records: Sequence[PaperRecord], hidden_words: Sequence[str]) -> sp.csr_matrix:
    """ASReview's TF-IDF: word 1-2-grams, sublinear TF, max_df 0.95, its own vocabulary."""
    hidden = hidden_words_pattern(hidden_words)
    texts = [reader_text(record, hidden) for record in records]
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True, max_df=0.95)
    return sp.csr_matrix(vectorizer.fit_transform(texts))

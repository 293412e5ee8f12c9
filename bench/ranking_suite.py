"""The ranking's validation suite: 22 labels of four kinds on a fixed corpus subsample.

Each label is a definition of "relevant" the model never sees: a venue, a year, a
title word or a title phrase (the word or phrase is cut out of every text the models
read, so they must learn the topic, not spot the word). Prevalence on the subsample
spans 0.5-10%. Tune on seeds 0-2; report on 5-9 (bench_ranking.py --suite).

The real ASReview (pip `asreview`, the `bench` extra) runs here on the same labels,
subsample, hidden words and priors: its own Simulate loop and its default model ELAS u4
(its TF-IDF, SVM, balancer and max querier) built from its own configuration. One thing
differs from its defaults: it retrains on the same schedule as our replays (after
max(1, 2% of the papers read) more reads, not after every read), which cut its CPU
time ~20-fold (61 s for one seed of year=2020) on a machine shared by eight.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from paperdesk.core.models import PaperRecord
from paperdesk.ranking import metrics
from paperdesk.ranking.labels import RelevanceRule, parse_relevant
from paperdesk.ranking.reading import hidden_words_pattern, hide
from paperdesk.text import to_plain

#: Papers of the subsample, and the seed that draws it from corpus.jsonl (13,417).
SUBSAMPLE = 3_000
SUBSAMPLE_SEED = 0
TUNING_SEEDS = (0, 1, 2)
HELD_OUT_SEEDS = (5, 6, 7, 8, 9)

VENUES = ["venue=CORL", "venue=COLT", "venue=UAI", "venue=ACML", "venue=COLM", "venue=AUTOML"]
# Years read most of the subsample to 95% recall (topics drift slowly): two of them.
YEARS = ["year=2020", "year=2025"]
TITLE_WORDS = [
    "title~causal",
    "title~bandit",
    "title~robot",
    "title~diffusion",
    "title~wasserstein",
    "title~submodular",
    "title~federated",
    "title~kernel",
]
TITLE_PHRASES = [
    "reinforcement learning",
    "language model",
    "gaussian process",
    "differential privacy",
    "gradient descent",
    "time series",
]


@dataclass(frozen=True)
class Label:
    kind: str
    rule: RelevanceRule


def title_phrase(phrase: str) -> RelevanceRule:
    """Relevant: the title has `phrase` (its last word inflected); the phrase is hidden."""
    pattern = hidden_words_pattern([phrase])
    assert pattern is not None
    return RelevanceRule(
        f'title~"{phrase}"', lambda record: pattern.search(record.title) is not None, (phrase,)
    )


def labels() -> list[Label]:
    return [
        *(Label("venue", parse_relevant(text)) for text in VENUES),
        *(Label("year", parse_relevant(text)) for text in YEARS),
        *(Label("title word", parse_relevant(text)) for text in TITLE_WORDS),
        *(Label("title phrase", title_phrase(phrase)) for phrase in TITLE_PHRASES),
    ]


def subsample(records: Sequence[PaperRecord], size: int = SUBSAMPLE) -> list[PaperRecord]:
    """A fixed random subsample (the same papers on every run and machine)."""
    return random.Random(SUBSAMPLE_SEED).sample(list(records), min(size, len(records)))


class _RecallStopper:
    """Stops ASReview's loop once `needed` relevant papers were read."""

    def __init__(self, needed: int) -> None:
        self.needed = needed

    def stop(self, results: object, labels: object) -> bool:
        return int(results["label"].sum()) >= self.needed  # type: ignore[index]


def asreview_features(records: Sequence[PaperRecord], hidden: Sequence[str]) -> Any:
    """ASReview's own ELAS u4 TF-IDF of the titles and abstracts, hidden words cut (made
    once per label: its Simulate would make it again for every seed)."""
    import pandas as pd
    from asreview.learner import ActiveLearningCycle
    from asreview.models.models import get_ai_config

    pattern = hidden_words_pattern(hidden)
    frame = pd.DataFrame(
        {
            "title": [hide(to_plain(r.title), pattern) for r in records],
            "abstract": [hide(to_plain(r.abstract), pattern) for r in records],
        }
    )
    return ActiveLearningCycle.from_meta(get_ai_config("elas_u4")["value"]).transform(frame)


def asreview_read_to_95(
    features: Any, y: np.ndarray, first: list[int], seed: int, growth: float
) -> int:
    """Papers the real ASReview (ELAS u4, its Simulate loop) reads to 95% recall from the
    prior rows `first`, its SVM seeded by `seed`, retrained after max(1, growth x read)
    reads; `features` from `asreview_features`."""
    from asreview.learner import ActiveLearningCycle
    from asreview.models.models import get_ai_config
    from asreview.simulation.simulate import Simulate

    cycle = ActiveLearningCycle.from_meta(get_ai_config("elas_u4")["value"])
    cycle.classifier.set_params(random_state=seed)
    cycle.n_query = lambda results: max(1, int(len(results) * growth))
    needed = metrics.needed(int(y.sum()))
    simulation = Simulate(
        features,
        y.tolist(),
        cycle,
        stopper=_RecallStopper(needed),
        skip_transform=True,
        print_progress=False,
    )
    simulation.label(first)
    simulation.review()
    found = metrics.found_at(simulation._results["label"].to_numpy() == 1)
    return found[needed - 1]


def prevalence(records: Sequence[PaperRecord], rule: RelevanceRule) -> float:
    return sum(map(rule.is_relevant, records)) / len(records)

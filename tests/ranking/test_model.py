"""'Most promising first', cold starts and 'more like this' on a small made-up library."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp

from paperdesk.core.models import PaperRecord, Status
from paperdesk.ranking import metrics
from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import (
    ASREVIEW_LEARNER,
    FUSION_K,
    PRESUMED_IRRELEVANT,
    LinearPart,
    Scorer,
    decision_label,
    fit_decisions,
    linear_svm,
    more_like,
    promote,
    rank,
    seeded,
    train,
)
from tests.ranking.synthetic import make_records


@pytest.fixture(scope="module")
def library() -> tuple[FeatureMatrix, list[bool]]:
    records, relevant = make_records(n=300, relevant_topic="graphs", share=0.1)
    return FeatureMatrix.build(enumerate(records)), relevant


def test_the_learner_ranks_planted_relevant_papers_first(library) -> None:
    features, relevant = library
    positives = [i for i, r in enumerate(relevant) if r]
    negatives = [i for i, r in enumerate(relevant) if not r]
    labels = {positives[0]: True, positives[1]: True} | {i: False for i in negatives[:6]}
    scorer = train(features, labels)
    assert scorer is not None and scorer.kind == "learnt"
    unread = [i for i in range(len(relevant)) if i not in labels]
    order = rank(features, scorer, unread)
    n_left = sum(relevant[i] for i in unread)
    top = order[:n_left]
    assert sum(relevant[i] for i in top) >= 0.9 * n_left


def test_one_kept_paper_is_enough_to_start(library) -> None:
    features, relevant = library
    kept = relevant.index(True)
    scorer = train(features, {kept: True})
    assert scorer is not None and scorer.kind == "kept"
    order = rank(features, scorer, [i for i in range(len(relevant)) if i != kept])
    assert all(relevant[i] for i in order[:10])


def test_a_query_is_enough_to_start_and_discards_alone_are_not(library) -> None:
    features, relevant = library
    scorer = train(features, {}, query="message passing on a molecule graph")
    assert scorer is not None and scorer.kind == "query"
    assert all(relevant[i] for i in rank(features, scorer)[:10])
    discarded = relevant.index(False)
    assert train(features, {discarded: False}) is None


def test_without_a_scorer_the_order_is_the_candidates_own(library) -> None:
    features, _ = library
    assert rank(features, None, [5, 3, 9]) == [5, 3, 9]


def test_more_like_this_finds_papers_on_the_same_topic(library) -> None:
    features, relevant = library
    paper = relevant.index(True)
    similar = more_like(features, paper, limit=5)
    assert [relevant[i] for i, _ in similar] == [True] * 5
    assert paper not in [i for i, _ in similar]
    assert [s for _, s in similar] == sorted((s for _, s in similar), reverse=True)


def test_no_title_words_are_learnt_from_a_derived_title() -> None:
    derived = PaperRecord(title="Zebra stripes", title_is_derived=True, abstract="Lions hunt.")
    real = PaperRecord(title="Zebra stripes", abstract="Lions hunt.")
    features = FeatureMatrix.build([(1, derived), (2, real), (3, real)])
    assert "zebra" not in features.terms("lions hunt")
    assert features.matrix[features.row_of[1]].nnz < features.matrix[features.row_of[2]].nnz


@pytest.mark.parametrize(
    ("status", "rating", "kept", "label"),
    [
        (Status.NEW, 0, True, True),
        (Status.SKIMMED, 4, False, True),
        (Status.DISCARDED, 5, False, True),
        (Status.DISCARDED, 0, False, False),
        (Status.TO_READ, 3, False, None),
        (Status.NEW, 0, False, None),
    ],
)
def test_decisions_become_labels_as_the_issue_says(status, rating, kept, label) -> None:
    assert decision_label(status, rating, kept) is label


def test_a_library_where_every_paper_is_kept_has_nothing_to_rank() -> None:
    records, _ = make_records(n=3)
    features = FeatureMatrix.build(enumerate(records))
    assert train(features, {0: True, 1: True, 2: True}) is None
    assert train(FeatureMatrix.build([]), {}, query="graph") is None


@pytest.mark.parametrize(("discards", "presumed"), [(1, 99), (30, 70), (100, 0), (150, 0)])
def test_discards_take_the_place_of_presumed_irrelevant_papers(discards, presumed) -> None:
    """Random undecided papers only make the irrelevant examples up to 100: at low
    prevalence, a hundred of them in every fit cost reading (title~causal)."""
    matrix = sp.random(400, 50, density=0.2, format="csr", random_state=0)
    rows = np.arange(discards + 2)
    y = np.array([1, 1] + [0] * discards)
    seen: list[np.ndarray] = []

    def learn(x: sp.csr_matrix, labels: np.ndarray) -> tuple[np.ndarray, float]:
        seen.append(labels)
        return np.zeros(x.shape[1]), 0.0

    fit_decisions(learn, matrix, rows, y)

    assert PRESUMED_IRRELEVANT == 100
    (labels,) = seen
    assert len(labels) == len(rows) + presumed
    assert np.count_nonzero(labels == 0) == max(100, discards)


def test_the_svm_fits_the_same_weights_whatever_numpy_s_global_random_state() -> None:
    """liblinear visits rows in a random order; left to np.random, a simulation's figures
    moved from run to run on the same seeds."""
    matrix = sp.random(300, 200, density=0.05, format="csr", random_state=0)
    y = (np.arange(300) % 10 == 0).astype(np.int64)
    learn = seeded(linear_svm(0.3, 9.8), 3)
    np.random.seed(1)
    first = learn(matrix, y)
    np.random.seed(2)
    second = learn(matrix, y)
    assert np.array_equal(first[0], second[0]) and first[1] == second[1]
    # The seed does reach liblinear: another one visits the rows in another order.
    assert not np.array_equal(first[0], seeded(linear_svm(0.3, 9.8), 4)(matrix, y)[0])
    assert seeded(learn, 5) == linear_svm(0.3, 9.8, random_state=5)


def test_once_both_kinds_are_decided_the_order_fuses_ours_with_asreview_s(library) -> None:
    features, relevant = library
    kept = relevant.index(True)
    assert len(train(features, {kept: True}).parts) == 1  # type: ignore[union-attr]
    scorer = train(features, {kept: True, relevant.index(False): False})
    assert scorer is not None and len(scorer.parts) == 2
    assert scorer.kind == "learnt"


def _positions(scores: np.ndarray) -> np.ndarray:
    """Each row's place in the order `rank` reads (1 first; ties in row order)."""
    return np.argsort(np.argsort(-scores, kind="stable"), kind="stable") + 1


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", [False, True])
def test_no_paper_comes_more_than_k_places_after_asreview_s_part_ranks_it(seed, ties) -> None:
    """The bound that keeps the order near ASReview's whatever ours says: only the
    papers ASReview's part ranks higher and ours' first FUSION_K can pass a paper."""
    rng = np.random.default_rng(seed)
    lead, promoter = rng.normal(size=(2, 1000))
    if ties:  # many equal scores, as a part gives papers with no known words
        lead, promoter = np.round(lead), np.round(promoter)
    order = _positions(promote(lead, promoter))
    behind = order - _positions(lead)
    assert behind.max() <= FUSION_K
    # The bound is reached: ours does bring its first FUSION_K forward, past others.
    assert behind.max() > FUSION_K // 2


def test_a_paper_ours_ranks_in_its_first_k_passes_every_paper_ranked_lower_by_both() -> None:
    """Ours may only promote, but what it promotes comes early: its r-th paper (r <=
    FUSION_K), last in ASReview's part's order, still comes before every paper that
    part ranks after r and ours does not rank in its first FUSION_K."""
    rng = np.random.default_rng(0)
    lead, promoter = rng.normal(size=(2, 1000))
    lead[7], promoter[7] = -10.0, np.sort(promoter)[-10] + 1e-9  # ours' 10th, lead's last
    fused = promote(lead, promoter)
    r = _positions(promoter)[7]
    assert r == 10
    below = (_positions(lead) > r) & (_positions(promoter) > FUSION_K)
    assert below.sum() > 800
    assert fused[7] > fused[below].max()
    # Ours' papers past its first FUSION_K add nothing: there the order is the lead's.
    ignored = _positions(promoter) > FUSION_K
    assert np.array_equal(_positions(fused[ignored]), _positions(lead[ignored]))


def test_the_app_s_order_is_led_by_asreview_s_part(library) -> None:
    """Once both kinds are decided, the order's lead is ASReview's model (ELAS u4 on the
    decisions alone), and no paper comes more than FUSION_K places after where that part
    ranks it, even when ours says the exact opposite."""
    features, relevant = library
    kept = [i for i, r in enumerate(relevant) if r][:2]
    labels = {**{i: True for i in kept}, **{i: False for i in range(40) if not relevant[i]}}
    scorer = train(features, labels)
    assert scorer is not None and len(scorer.parts) == 2
    ours, asreview = scorer.parts
    y = np.array([int(labels[i]) for i in labels])
    elas_u4 = fit_decisions(ASREVIEW_LEARNER, features.matrix, features.rows(labels), y, 0)
    assert np.array_equal(asreview.weights, elas_u4[0]) and asreview.bias == elas_u4[1]
    asreview_places = _positions(asreview.scores(features.matrix))
    # Ours still counts: its favourite is read before ASReview's part's tenth.
    favourite = int(features.ids[np.argmin(_positions(ours.scores(features.matrix)))])
    assert rank(features, scorer).index(favourite) < 10
    opposite = LinearPart(-asreview.weights, -asreview.bias)
    order = rank(features, Scorer((opposite, asreview), "learnt"))
    behind = [order.index(int(i)) + 1 - asreview_places[row] for row, i in enumerate(features.ids)]
    assert max(behind) <= FUSION_K


def _read_to_95(order: np.ndarray, relevant: np.ndarray) -> int:
    return metrics.read_to_recall(metrics.found_at(relevant[order]), int(relevant.sum()))


@pytest.mark.parametrize("how", ["says nothing", "says the opposite"])
def test_the_order_stays_within_k_of_asreview_s_part_when_ours_fails(how) -> None:
    """ASReview's part finds the relevant papers, ours fails (its scores are noise, or it
    ranks them last): the order reads at most FUSION_K more papers than ASReview's part
    alone. (The price of the design: when ASReview's part fails, ours can only bring its
    first FUSION_K papers forward at each retrain; docs/triage.md.)"""
    rng = np.random.default_rng(1)
    relevant = np.zeros(2000, dtype=bool)
    relevant[rng.choice(2000, 40, replace=False)] = True
    working = 3.0 * relevant + rng.normal(size=2000)  # most relevant papers near the top
    sign = 0.0 if how == "says nothing" else -3.0
    broken = sign * relevant + rng.normal(size=2000)
    reads = {
        name: _read_to_95(np.argsort(-scores, kind="stable"), relevant)
        for name, scores in {
            "working": working,
            "broken": broken,
            "fused": promote(lead=working, promoter=broken),
        }.items()
    }
    assert reads["fused"] <= reads["working"] + FUSION_K
    assert reads["fused"] < reads["broken"] / 2

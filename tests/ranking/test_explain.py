"""'Why this paper': the words returned are in the paper, and their signs are the model's."""

from __future__ import annotations

import numpy as np
import pytest

from paperdesk.ranking.explain import explain, is_content_term
from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import train
from paperdesk.ranking.reading import reader_text
from tests.ranking.synthetic import make_records


@pytest.fixture(scope="module")
def trained():
    records, relevant = make_records(n=200, relevant_topic="bandits", share=0.15)
    features = FeatureMatrix.build(enumerate(records))
    labels = {i: r for i, r in enumerate(relevant) if i < 120}
    scorer = train(features, labels)
    assert scorer is not None
    return records, relevant, features, scorer


def test_explained_words_are_in_the_paper_with_the_models_signs(trained) -> None:
    records, relevant, features, scorer = trained
    paper_id = relevant.index(True, 120)
    why = explain(features, scorer, paper_id, records[paper_id], limit=5)
    text = reader_text(records[paper_id]).lower()
    assert why.raising and why.lowering
    for part in why.raising + why.lowering:
        assert part.term in text
        assert np.sign(part.weight) == np.sign(
            scorer.explained.weights[features.terms(part.term)[part.term]]
        )
    assert all(p.weight > 0 for p in why.raising) and all(p.weight < 0 for p in why.lowering)
    assert [p.weight for p in why.raising] == sorted((p.weight for p in why.raising), reverse=True)
    # The topic's own words are what made a relevant paper promising.
    assert {"bandit", "regret", "arm", "exploration", "reward", "online"} & {
        p.term for p in why.raising
    }


def test_contributions_add_up_to_the_score(trained) -> None:
    records, _, features, scorer = trained
    why = explain(features, scorer, 150, records[150], limit=1000, content_only=False)
    total = sum(p.weight for p in why.raising + why.lowering)
    assert total + why.bias == pytest.approx(why.score, abs=1e-4)
    assert why.score == pytest.approx(
        float(scorer.explained.scores(features.matrix[features.row_of[150]])[0])
    )


@pytest.mark.parametrize(
    ("term", "content"),
    [
        ("the number", False),
        ("of agents", False),
        ("paper we", False),
        ("proposed method", False),
        ("2024", False),
        ("regret", True),
        ("multi armed", True),
        ("bandit regret", True),
    ],
)
def test_only_content_words_explain(term, content) -> None:
    assert is_content_term(term) is content


def test_no_stop_word_or_boilerplate_term_is_returned(trained) -> None:
    """The synthetic abstracts are half filler ("we propose", "paper", "results show"):
    those terms carry weight in the model, and none may come back."""
    records, _, features, scorer = trained
    weights = scorer.explained.weights
    for paper_id in (130, 150, 170):
        text = reader_text(records[paper_id])
        noise = [t for t, c in features.terms(text).items() if not is_content_term(t)]
        assert any(weights[features.terms(t)[t]] != 0 for t in noise)  # they would show
        why = explain(features, scorer, paper_id, records[paper_id], limit=1000)
        assert why.raising or why.lowering
        assert all(is_content_term(p.term) for p in why.raising + why.lowering)

"""The feature matrix: hidden words never reach it, and it grows without a rebuild."""

from __future__ import annotations

import numpy as np
import pytest

from paperdesk.core.models import PaperRecord
from paperdesk.ranking.features import FeatureConfig, FeatureMatrix
from paperdesk.ranking.labels import parse_relevant
from paperdesk.ranking.reading import hidden_words_pattern, reader_text
from tests.ranking.synthetic import make_records


def _same(a, b) -> bool:
    return (a != b).nnz == 0


def test_a_hidden_title_word_never_reaches_the_features() -> None:
    records = [
        PaperRecord(title="Contextual Bandits", abstract="A bandit-style regret bound."),
        PaperRecord(
            title="Bandit feedback", abstract="We study BANDITS and \\textit{bandit} arms."
        ),
        PaperRecord(title="Arms", abstract="Regret bound for arms, contextual feedback."),
    ]
    rule = parse_relevant("title~bandit")
    pattern = hidden_words_pattern(rule.hidden_words)
    for record in records:
        assert "bandit" not in reader_text(record, pattern).lower()
    bandit_terms = ["bandit", "bandits", "contextual bandits", "bandit style", "bandit feedback"]
    columns = FeatureConfig().vectorizer(analyzer=lambda term: [term]).transform(bandit_terms)
    plain = FeatureMatrix.build(enumerate(records))
    hidden = FeatureMatrix.build(enumerate(records), hidden=rule.hidden_words)
    assert set(columns.indices) & set(plain.matrix.indices)  # the test would notice a leak
    assert not set(columns.indices) & set(hidden.matrix.indices)
    assert hidden.vectorize("Bandits").nnz == 0  # a typed query goes through the same filter
    assert hidden.terms("contextual bandits") == hidden.terms("contextual")


def test_adding_papers_gives_the_rows_a_full_build_gives() -> None:
    records, _ = make_records(n=120)
    first = FeatureMatrix.build(enumerate(records[:100]))
    grown = first.with_papers((i, records[i]) for i in range(100, 120))
    full = FeatureMatrix.build(enumerate(records))
    assert list(grown.ids) == list(full.ids)
    assert _same(grown.matrix, full.matrix)
    assert np.array_equal(grown.idf, full.idf)


def test_replacing_and_removing_papers() -> None:
    records, _ = make_records(n=50)
    features = FeatureMatrix.build(enumerate(records))
    edited = PaperRecord(title="Edited", abstract=records[7].abstract + " graph graph")
    changed = features.with_papers([(7, edited)]).without([3, 999])
    assert len(changed) == 49 and 3 not in changed.row_of
    expected = FeatureMatrix.build(
        [(i, r) for i, r in enumerate(records) if i not in (3, 7)] + [(7, edited)]
    )
    assert _same(changed.matrix, expected.matrix)


def test_a_saved_matrix_loads_as_it_was(tmp_path) -> None:
    records, _ = make_records(n=40)
    features = FeatureMatrix.build(enumerate(records), hidden=["graph"])
    features.save(tmp_path / "features.npz")
    loaded = FeatureMatrix.load(tmp_path / "features.npz")
    assert list(loaded.ids) == list(features.ids)
    assert _same(loaded.matrix, features.matrix)
    assert loaded.hidden_words == ("graph",) and loaded.config == features.config
    assert loaded.vectorize("graph").nnz == 0
    grown = loaded.with_papers([(99, records[0])])
    assert _same(grown.matrix[:40], features.with_papers([(99, records[0])]).matrix[:40])


def test_a_damaged_saved_matrix_is_refused(tmp_path) -> None:
    damaged = tmp_path / "features.npz"
    damaged.write_bytes(b"not a matrix")
    with pytest.raises(ValueError, match="features.npz"):
        FeatureMatrix.load(damaged)

"""'Why this paper': the words that raised or lowered a paper's score.

The order fuses two linear scorers by rank; their weights, each scaled to unit length
and summed (`Scorer.explained`), make one linear score, linear in the paper's TF-IDF
row, so it splits exactly into one part per column (the row's value there times the
weight) plus the bias. Columns are
named by the terms of the paper's own text that land in them, so every word returned
is one the reader can find in the abstract (a two-word term is a phrase to tint).
"""

from __future__ import annotations

from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

from paperdesk.ranking.explanation import Contribution, Explanation
from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import Scorer
from paperdesk.ranking.reading import Readable, reader_text

__all__ = ["Contribution", "Explanation", "explain", "is_content_term"]

#: Words every abstract has: they move scores a little, and tinted they say nothing to a
#: reader ("paper we", "the proposed method"). Besides scikit-learn's English stop words.
ABSTRACT_BOILERPLATE = frozenset(
    """paper papers propose proposed proposes present presents presented introduce
    introduces show shows shown demonstrate demonstrates result results method methods
    approach approaches novel new work works based using use used existing study studies
    problem problems experiments experimental performance provide provides et al""".split()
)


def is_content_term(term: str) -> bool:
    """Every word of the term says something: no stop word, no boilerplate, no number,
    at least three letters ("the number", "of agents" and "paper we" are not)."""
    return all(
        len(word) >= 3
        and not word.isdigit()
        and word not in ENGLISH_STOP_WORDS
        and word not in ABSTRACT_BOILERPLATE
        for word in term.split()
    )


def explain(
    features: FeatureMatrix,
    scorer: Scorer,
    paper_id: int,
    paper: Readable,
    limit: int = 10,
    content_only: bool = True,
) -> Explanation:
    """Up to `limit` terms that raised the score of `paper` (stored as `paper_id`), and
    up to `limit` that lowered it, strongest first: content terms only (`is_content_term`)
    unless `content_only` is False (then, all of them, the parts add up to the score)."""
    linear = scorer.explained
    row = features.matrix[features.row_of[paper_id]]
    value_at = dict(zip(row.indices.tolist(), row.data.tolist(), strict=True))
    terms_by_column: dict[int, list[str]] = {}
    for term, column in features.terms(reader_text(paper)).items():
        if column in value_at and (is_content_term(term) or not content_only):
            terms_by_column.setdefault(column, []).append(term)
    parts: list[Contribution] = []
    for column, terms in terms_by_column.items():
        # Two terms of one paper in one hashed column (rare) share that column's part.
        share = value_at[column] * float(linear.weights[column]) / len(terms)
        parts.extend(Contribution(term, share) for term in terms)
    raising = sorted((p for p in parts if p.weight > 0), key=lambda p: (-p.weight, p.term))
    lowering = sorted((p for p in parts if p.weight < 0), key=lambda p: (p.weight, p.term))
    score = float(linear.scores(row)[0])
    return Explanation(score, linear.bias, tuple(raising[:limit]), tuple(lowering[:limit]))

"""'Why this paper': the words that raised or lowered a paper's score.

A score is linear in the paper's TF-IDF row, so it splits exactly into one part per
column (the row's value there times the model's weight) plus the bias. Columns are
named by the terms of the paper's own text that land in them, so every word returned
is one the reader can find in the abstract (a two-word term is a phrase to tint).
"""

from __future__ import annotations

from paperdesk.ranking.explanation import Contribution, Explanation
from paperdesk.ranking.features import FeatureMatrix
from paperdesk.ranking.model import Scorer
from paperdesk.ranking.reading import Readable, reader_text

__all__ = ["Contribution", "Explanation", "explain"]


def explain(
    features: FeatureMatrix, scorer: Scorer, paper_id: int, paper: Readable, limit: int = 10
) -> Explanation:
    """Up to `limit` terms that raised the score of `paper` (stored as `paper_id`), and
    up to `limit` that lowered it, strongest first."""
    row = features.matrix[features.row_of[paper_id]]
    value_at = dict(zip(row.indices.tolist(), row.data.tolist(), strict=True))
    terms_by_column: dict[int, list[str]] = {}
    for term, column in features.terms(reader_text(paper)).items():
        if column in value_at:
            terms_by_column.setdefault(column, []).append(term)
    parts: list[Contribution] = []
    for column, terms in terms_by_column.items():
        # Two terms of one paper in one hashed column (rare) share that column's part.
        share = value_at[column] * float(scorer.weights[column]) / len(terms)
        parts.extend(Contribution(term, share) for term in terms)
    raising = sorted((p for p in parts if p.weight > 0), key=lambda p: (-p.weight, p.term))
    lowering = sorted((p for p in parts if p.weight < 0), key=lambda p: (p.weight, p.term))
    score = float(scorer.scores(row)[0])
    return Explanation(score, scorer.bias, tuple(raising[:limit]), tuple(lowering[:limit]))

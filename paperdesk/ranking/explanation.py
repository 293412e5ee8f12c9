"""What 'why this paper' answers, as plain data (no scikit-learn: the window receives it
from the ranking's process and must not load the engine to read it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Contribution:
    """One term of the paper (lower case, as matched) and how much it moved the score."""

    term: str
    weight: float


@dataclass(frozen=True)
class Explanation:
    """The score, the bias it started from, and the strongest terms either way."""

    score: float
    bias: float
    raising: tuple[Contribution, ...]
    lowering: tuple[Contribution, ...]

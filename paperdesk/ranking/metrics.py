"""Screening metrics: recall against abstracts read, work saved, and random reading.

A reading order is summed up by `found_at`: for each relevant paper, how many papers
had been read when it was found (1-based, ascending). Everything else follows from it
and the two totals, so a curve of 100,000 reads is kept in a few hundred numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

RECALL_TARGET = 0.95


def found_at(relevant_in_order: Sequence[bool]) -> list[int]:
    """The 1-based read positions at which relevant papers were found."""
    return [position for position, hit in enumerate(relevant_in_order, start=1) if hit]


def needed(n_relevant: int, recall: float = RECALL_TARGET) -> int:
    """How many relevant papers make `recall`: the smallest k with k / n_relevant >= recall."""
    # A little slack so that 0.95 * 20 = 19.000000000000004 still asks for 19.
    return max(1, math.ceil(recall * n_relevant - 1e-9))


def read_to_recall(found: Sequence[int], n_relevant: int, recall: float = RECALL_TARGET) -> int:
    """Papers read when `recall` was first reached; ValueError when it never was."""
    k = needed(n_relevant, recall)
    if len(found) < k:
        raise ValueError(f"recall {recall:.0%} was never reached ({len(found)}/{n_relevant})")
    return found[k - 1]


def work_saved(read: int, n_papers: int, recall: float = RECALL_TARGET) -> float:
    """WSS@recall = (TN + FN) / N - (1 - recall): the share left unread, less random's saving.

    At the moment `recall` is reached, everything unread is a true or false negative, so
    (TN + FN) is simply N - read.
    """
    return (n_papers - read) / n_papers - (1.0 - recall)


def random_read_to_recall(n_papers: int, n_relevant: int, recall: float = RECALL_TARGET) -> float:
    """Expected papers read, in random order, to find the k-th relevant: k (N + 1) / (R + 1)."""
    return needed(n_relevant, recall) * (n_papers + 1) / (n_relevant + 1)


def recall_after(found: Sequence[int], n_relevant: int, reads: Sequence[int]) -> list[float]:
    """Recall after each number of papers read in `reads` (for plots and tables)."""
    out = []
    hits = 0
    for read in reads:
        while hits < len(found) and found[hits] <= read:
            hits += 1
        out.append(hits / n_relevant)
    return out

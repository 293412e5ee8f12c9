"""What a decision teaches the model (no scikit-learn: the window reads labels too)."""

from __future__ import annotations

from paperdesk.core.models import Status

# A rating at or above this counts as "keep", whatever the status says.
POSITIVE_RATING = 4


def decision_label(status: Status, rating: int, kept: bool = False) -> bool | None:
    """The issue's rule: keep or rating >= 4 is relevant, discard is not, the rest unknown."""
    if kept or rating >= POSITIVE_RATING:
        return True
    if status is Status.DISCARDED:
        return False
    return None

"""Triage decisions: keep, maybe or discard one paper."""

from __future__ import annotations

from paperdesk.core.screening import Screening
from paperdesk.core.triage import LABELS, Decision
from paperdesk.gui.actions import Done, perform
from paperdesk.gui.operations import Operations
from paperdesk.gui.tasks import ErrorCallback
from paperdesk.services.use_cases import triage


def decide(
    operations: Operations,
    paper_id: int,
    decision: Decision,
    shortlist: str | None,
    done: Done | None = None,
    failed: ErrorCallback | None = None,
    screening: Screening | None = None,
    reason: str | None = None,
) -> None:
    """Keep (onto `shortlist`, created if new), maybe or discard the paper, in a
    screening; a discard may carry an exclusion reason.

    The search index follows in the background (the window's catch-up) while the next
    paper is read: the triage waits for the database only.
    """
    perform(
        operations,
        LABELS[decision],
        lambda desk: triage.decide(
            desk,
            paper_id,
            decision,
            shortlist,
            index_later=True,
            screening=screening,
            reason=reason,
        ),
        done=done,
        failed=failed,
    )

"""Marking passages of an abstract with a colour and an optional comment (issue 10).

Offsets count characters of the abstract as a reader sees it (`paperdesk.text.shown_text`),
which is what the detail pane and the triage view show and select.
"""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


@mutation
def highlight(
    desk: Desk, paper_id: int, start: int, stop: int, quote: str, colour: str, comment: str = ""
) -> Changes:
    """Mark characters `start`..`stop` (`quote`) of the paper's shown abstract."""
    return desk._library.annotations.add(paper_id, start, stop, quote, colour, comment)


@mutation
def edit(desk: Desk, annotation_id: int, colour: str, comment: str) -> Changes:
    return desk._library.annotations.edit(annotation_id, colour, comment)


@mutation
def remove(desk: Desk, annotation_id: int) -> Changes:
    return desk._library.annotations.remove(annotation_id)

"""Passages of an abstract marked with a colour and a comment, and the words every
abstract highlights."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.gui.actions import perform
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import annotations as marks  # not `annotations`: __future__'s
from paperdesk.services.use_cases import triage


def highlight(
    operations: Operations,
    paper_id: int,
    start: int,
    stop: int,
    quote: str,
    colour: str,
    comment: str,
) -> None:
    perform(
        operations,
        "Highlighting",
        lambda desk: marks.highlight(desk, paper_id, start, stop, quote, colour, comment),
    )


def remove_highlight(operations: Operations, annotation_id: int) -> None:
    perform(operations, "Removing a highlight", lambda desk: marks.remove(desk, annotation_id))


def set_highlight_words(operations: Operations, words: Sequence[str]) -> None:
    words = list(words)
    perform(
        operations,
        "Setting highlight words",
        lambda desk: triage.set_highlight_words(desk, words),
    )

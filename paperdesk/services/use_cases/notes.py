"""Markdown notes, one per paper."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


@mutation
def set_note(desk: Desk, paper_id: int, markdown: str, based_on: str | None = None) -> Changes:
    """Replace the note; `based_on` is the note as the user last saw it: if it changed
    since, both texts are kept (store/notes.py)."""
    return desk._library.notes.set(paper_id, markdown, based_on)


@mutation
def append_note(desk: Desk, paper_id: int, markdown: str) -> Changes:
    """Add a paragraph to the end of the note (a blank line apart from what is there)."""
    return desk._library.notes.append(paper_id, markdown)

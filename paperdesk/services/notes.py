"""Markdown notes, one per paper."""

from __future__ import annotations

from paperdesk.core.changes import Changes
from paperdesk.services._sync import synced
from paperdesk.services.desk import Desk


def set_note(desk: Desk, paper_id: int, markdown: str) -> Changes:
    return synced(desk, desk.library.set_note(paper_id, markdown))


def append_note(desk: Desk, paper_id: int, markdown: str) -> Changes:
    """Add a paragraph to the end of the note (a blank line apart from what is there)."""
    existing = desk.library.note(paper_id).rstrip()
    body = f"{existing}\n\n{markdown}" if existing else markdown
    changes = desk.library.set_note(paper_id, body)
    return synced(desk, Changes("Append to note", changes.paper_ids, history_id=changes.history_id))

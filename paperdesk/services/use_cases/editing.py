"""Triage decisions and edits on papers: status, rating, any field by hand, deletion."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.changes import Changes
from paperdesk.core.fields import parse_edit
from paperdesk.core.models import Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation


@mutation
def set_status(desk: Desk, ids: Sequence[int], status: Status) -> Changes:
    return desk._library.papers.set_status(ids, status)


@mutation
def set_rating(desk: Desk, ids: Sequence[int], rating: int) -> Changes:
    return desk._library.papers.set_rating(ids, rating)


@mutation
def set_title(desk: Desk, paper_id: int, title: str) -> Changes:
    """Replace a title; a derived title given by hand stops being derived."""
    return desk._library.papers.set_title(paper_id, title)


@mutation
def edit_field(desk: Desk, paper_id: int, name: str, text: str) -> Changes:
    """Set one field (core.fields.EDITABLE_FIELDS) from what the user typed: read and
    checked by the field table, one undo step; a citation key must be free."""
    field, value = parse_edit(name, text)
    return desk._library.papers.set_field(paper_id, field.name, value)


@mutation
def delete_papers(desk: Desk, ids: Sequence[int]) -> Changes:
    return desk._library.papers.delete(ids)

"""Rating, status, title and deletion of papers."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.models import Status
from paperdesk.gui.actions import perform
from paperdesk.gui.operations import Operations
from paperdesk.services import editing


def set_rating(operations: Operations, ids: Sequence[int], rating: int) -> None:
    ids = list(ids)
    perform(operations, "Rating", lambda desk: editing.set_rating(desk, ids, rating))


def set_status(operations: Operations, ids: Sequence[int], status: Status) -> None:
    ids = list(ids)
    perform(operations, "Status", lambda desk: editing.set_status(desk, ids, status))


def set_title(operations: Operations, paper_id: int, title: str) -> None:
    perform(operations, "Editing the title", lambda desk: editing.set_title(desk, paper_id, title))


def delete_papers(operations: Operations, ids: Sequence[int]) -> None:
    ids = list(ids)
    perform(operations, "Deleting papers", lambda desk: editing.delete_papers(desk, ids))

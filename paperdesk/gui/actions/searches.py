"""Saved searches, listed in the sidebar."""

from __future__ import annotations

from paperdesk.gui.actions import perform
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import saved


def save_search(operations: Operations, name: str, query: str) -> None:
    perform(operations, "Saving the search", lambda desk: saved.save_search(desk, name, query))


def delete_search(operations: Operations, name: str) -> None:
    perform(operations, "Deleting a search", lambda desk: saved.delete_search(desk, name))

"""Which ids the table shows for a sidebar scope, a search text and a sort.

Runs on the reader thread (it may search or list the whole library) and returns plain
data, so nothing here touches Qt.
"""

from __future__ import annotations

from dataclasses import dataclass

from paperdesk.gui.sidebar import Kind, Scope
from paperdesk.services import searching
from paperdesk.services.desk import Desk


@dataclass(frozen=True)
class Listing:
    ids: list[int]
    total_in_library: int
    suggestion: str | None = None
    terms: tuple[str, ...] = ()
    # A shortlist shown in its own order can be reordered by dragging rows.
    reorderable: bool = False


def combined_query(scope: Scope, text: str) -> str:
    """The scope's fragment AND the user's text (parenthesised so its ORs stay inside)."""
    fragment = scope.query()
    text = text.strip()
    if fragment and text:
        return f"{fragment} ({text})"
    return fragment or text


def list_papers(desk: Desk, scope: Scope, text: str, sort: str, descending: bool) -> Listing:
    pinned: list[int] | None = None
    if scope.kind == Kind.SHORTLIST:
        pinned = searching.shortlist_ids(desk, scope.value)
    elif scope.kind == Kind.IMPORT:
        pinned = desk.library.batch_paper_ids(int(scope.value))
    if pinned is not None and not text.strip() and sort == "relevance":
        return Listing(pinned, desk.library.count(), reorderable=scope.kind == Kind.SHORTLIST)
    query = combined_query(scope, text)
    result = searching.find_ids(desk, query or None, sort, descending)  # type: ignore[arg-type]
    ids = result.ids
    if pinned is not None:
        members = set(pinned)
        ids = [paper_id for paper_id in ids if paper_id in members]
    return Listing(ids, result.total_in_library, result.suggestion, result.terms)

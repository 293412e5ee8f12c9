"""Finding papers: a query (or none) to an ordered list of ids."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paperdesk.services.desk import Desk

SortKey = Literal[
    "relevance", "title", "first_author", "venue", "year", "status", "rating", "added", "tags"
]


@dataclass(frozen=True)
class SearchResult:
    ids: list[int]
    total_in_library: int
    suggestion: str | None
    terms: tuple[str, ...]


def find_ids(
    desk: Desk, query: str | None = None, sort: SortKey = "relevance", descending: bool = False
) -> SearchResult:
    """Matching ids in the requested order; QueryError for a query the user must fix.

    Without a query, "relevance" means newest additions last (import order).
    """
    total = desk.library.count()
    if not query or not query.strip():
        key = "added" if sort == "relevance" else sort
        return SearchResult(desk.library.sorted_ids(key, descending), total, None, ())
    hits = desk.index.search(query)
    ids = hits.ids
    if sort != "relevance":
        wanted = set(ids)
        ids = [i for i in desk.library.sorted_ids(sort, descending) if i in wanted]
    elif descending:
        ids = list(reversed(ids))
    return SearchResult(ids, total, hits.suggestion, hits.terms)


def shortlist_ids(desk: Desk, name: str) -> list[int]:
    """A shortlist's papers in the user's order."""
    return desk.library.shortlist_paper_ids(name)


def more_like(desk: Desk, paper_id: int, count: int = 10) -> list[int]:
    return desk.index.more_like(paper_id, count)

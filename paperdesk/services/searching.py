"""Finding papers: a query, a scope and a sort to an ordered list of ids.

`listing` is the one way from a `Scope` (and the text typed in a search field) to the
ids shown: the GUI's table, the CLI's `list` and `search`, and exports all use it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from paperdesk.core import fields
from paperdesk.core.scope import Kind, Scope
from paperdesk.search.query import CHEAT_SHEET
from paperdesk.services import indexing
from paperdesk.services.desk import Desk
from paperdesk.text import to_plain

#: A sort key of the field table (core/fields.py), or "relevance".
SortKey = str
SORT_KEYS = fields.sort_keys()
#: The search syntax, for the search field's help and `paperdesk syntax`.
SYNTAX_HELP = CHEAT_SHEET


@dataclass(frozen=True)
class SearchResult:
    ids: list[int]
    total_in_library: int
    suggestion: str | None
    terms: tuple[str, ...]
    # Papers whose search documents wait to be re-indexed after a bulk change: a query
    # on what changed (status:, rating:, tag:) may miss or keep them until then.
    index_behind: int = 0


@dataclass(frozen=True)
class Listing:
    """The ids a scope shows, with what the search said about them."""

    ids: list[int]
    total_in_library: int
    suggestion: str | None = None
    terms: tuple[str, ...] = ()
    # A shortlist shown in its own order can be reordered by dragging rows.
    reorderable: bool = False
    index_behind: int = 0


def find_ids(
    desk: Desk, query: str | None = None, sort: SortKey = "relevance", descending: bool = False
) -> SearchResult:
    """Matching ids in the requested order; QueryError for a query the user must fix.

    Without a query, "relevance" means newest additions last (import order).
    """
    total = desk.library.papers.count()
    if not query or not query.strip():
        key = "added" if sort == fields.RELEVANCE else sort
        return SearchResult(desk.library.papers.sorted_ids(key, descending), total, None, ())
    desk.catch_up_with_others()  # a team library: others' tags are searchable at once
    hits = desk.index.search(query)
    ids = hits.ids
    behind = indexing.behind(desk)
    if sort != fields.RELEVANCE:
        wanted = set(ids)
        ids = [i for i in desk.library.papers.sorted_ids(sort, descending) if i in wanted]
    else:
        if behind:
            # A bulk delete leaves the store before it leaves the index.
            stored = set(desk.library.papers.sorted_ids())
            ids = [i for i in ids if i in stored]
        if descending:
            ids = list(reversed(ids))
    return SearchResult(ids, total, hits.suggestion, hits.terms, behind)


def shortlist_ids(desk: Desk, name: str) -> list[int]:
    """A shortlist's papers in the user's order."""
    return desk.library.shortlists.paper_ids(name)


def listing(
    desk: Desk,
    scope: Scope,
    text: str = "",
    sort: SortKey = "relevance",
    descending: bool = False,
) -> Listing:
    """The papers of a scope narrowed by a search text, in the requested order.

    A shortlist, an import or chosen ids keep their own order while nothing narrows or
    sorts them; a query's papers come best match first (import order without one).
    Sorted by promise, they come most promising first (`desk.promise`).
    """
    if sort == fields.PROMISE:
        found = listing(desk, scope, text)
        return replace(found, ids=desk.promise.order(found.ids), reorderable=False)
    pinned = _listed_ids(desk, scope)
    if pinned is not None and not text.strip() and sort == fields.RELEVANCE:
        total = desk.library.papers.count()
        return Listing(pinned, total, reorderable=scope.kind == Kind.SHORTLIST)
    query = combined_query(_query_of(desk, scope), text)
    result = find_ids(desk, query or None, sort, descending)
    ids = result.ids
    if pinned is not None:
        members = set(pinned)
        ids = [paper_id for paper_id in ids if paper_id in members]
    return Listing(
        ids,
        result.total_in_library,
        result.suggestion,
        result.terms,
        index_behind=result.index_behind,
    )


def scope_ids(desk: Desk, scope: Scope) -> list[int]:
    """The scope's papers in the order the user sees them."""
    return listing(desk, scope).ids


def combined_query(fragment: str, text: str) -> str:
    """The scope's fragment AND the user's text (parenthesised so its ORs stay inside)."""
    text = text.strip()
    if fragment and text:
        return f"{fragment} ({text})"
    return fragment or text


def more_like(desk: Desk, paper_id: int, count: int = 10) -> list[int]:
    """Papers whose words are most like this paper's title and abstract, most alike first."""
    paper = desk.library.papers.get(paper_id)
    text = f"{to_plain(paper.title)}\n{to_plain(paper.abstract)}"
    return desk.index.more_like(paper_id, text, count)


def _listed_ids(desk: Desk, scope: Scope) -> list[int] | None:
    """The stored list of a shortlist, import, status or chosen ids; None for other scopes.

    A status is read from the store, not the index: right at once after a status set
    on thousands of papers, whose search documents follow later.
    """
    if scope.kind == Kind.STATUS:
        return desk.library.papers.ids_with_status(scope.value)
    if scope.kind == Kind.SHORTLIST:
        return shortlist_ids(desk, scope.value)
    if scope.kind == Kind.IMPORT:
        return desk.library.imports.batch_paper_ids(int(scope.value))
    if scope.kind == Kind.IDS:
        return desk.library.papers.require(scope.ids)
    return None


def _query_of(desk: Desk, scope: Scope) -> str:
    if scope.kind == Kind.SAVED:
        return desk.library.saved.query_of(scope.value)
    if scope.kind == Kind.STATUS:
        return ""  # listed from the store (_listed_ids)
    return scope.query()

"""Finding papers: a query, a scope and a sort to an ordered list of ids.

`listing` is the one way from a `Scope` (and the text typed in a search field) to the
ids shown: the GUI's table, the CLI's `list` and `search`, and exports all use it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, replace
from functools import partial

from rapidfuzz.distance import OSA

from paperdesk.core import fields
from paperdesk.core.scope import Kind, Scope
from paperdesk.search.analysis import index_term
from paperdesk.search.query import CHEAT_SHEET
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.index_documents import document_for
from paperdesk.services.use_cases import column_orders
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
    desk: Desk,
    query: str | None = None,
    sort: SortKey = "relevance",
    descending: bool = False,
    typed: str = "",
) -> SearchResult:
    """Matching ids in the requested order; QueryError for a query the user must fix.

    Without a query, "relevance" means newest additions last (import order). `typed`:
    the text being typed in a search field, part of `query`; its last word also finds
    longer words (search as you type).
    """
    orders = column_orders.of(desk._library)
    if not query or not query.strip():
        key = "added" if sort == fields.RELEVANCE else sort
        total = desk._library.papers.count()
        return SearchResult(orders.order(desk._library, key, descending), total, None, ())
    total, generation = desk._library.papers.count_and_generation()
    # A team library: others' tags are searchable at once.
    desk.catch_up_with_others(generation=generation)
    ranked = sort == fields.RELEVANCE
    hits = desk._index.search(query, ranked=ranked, typed=typed)  # scored only if ranked
    ids = hits.ids
    behind = desk._follower.behind()
    if not ranked:
        ids = orders.sort(desk._library, ids, sort, descending)
    else:
        if behind:
            # A bulk delete leaves the store before it leaves the index.
            stored = set(desk._library.papers.sorted_ids())
            ids = [i for i in ids if i in stored]
        if descending:
            ids = list(reversed(ids))
    suggestion = readable_suggestion(desk, query, hits.suggestion) if hits.suggestion else None
    return SearchResult(ids, total, suggestion, hits.terms, behind)


def similar_ids(desk: Desk, paper_id: int, limit: int) -> list[int]:
    """Up to `limit` papers like this one, most alike first, from the search index: a
    first answer to "more like this" while the ranking's (`desk.promise.more_like`)
    reads every abstract, seconds the first time after a library opens."""
    document = document_for(desk._library.papers.get(paper_id))
    found = desk._index.similar(f"{document.title}\n{document.abstract}", limit + 1)
    return [other for other in found if other != paper_id][:limit]


_SUGGESTED_WORD = re.compile(r"(?:(?P<field>[A-Za-z_][\w-]*):)?(?P<term>[^\W\d_]+)")
_WORD = re.compile(r"[^\W\d_]+")
#: Papers read for the words behind a suggested stem.
WORD_SAMPLE = 10


def readable_suggestion(desk: Desk, query: str, suggestion: str) -> str:
    """The spelling suggestion with words in place of the index's stems.

    The corrector proposes index terms, which are stems ("diffus" for diffusion); a
    paper holding the term shows the word it came from.
    """
    asked = query.split()
    words = suggestion.split()
    if len(asked) != len(words):
        return suggestion
    for position, (before, after) in enumerate(zip(asked, words, strict=True)):
        if before != after:
            typed = before.rpartition(":")[2].lower()
            words[position] = _SUGGESTED_WORD.sub(partial(_worded, desk, typed=typed), after)
    return " ".join(words)


def _worded(desk: Desk, match: re.Match[str], typed: str) -> str:
    field, term = match["field"], match["term"].lower()
    forms: Counter[str] = Counter()
    ids = desk._index.papers_with_term(field or fields.DEFAULT_QUERY_FIELD, term, WORD_SAMPLE)
    for paper in desk._library.papers.get_many(ids):
        parts = (paper.title, paper.abstract, paper.note, *paper.authors)
        text = " ".join(to_plain(part) for part in parts)
        forms.update(w.lower() for w in _WORD.findall(text) if index_term(w) == term)
    if not forms:
        return match.group()
    # The form nearest to what was typed (`perfomance`: performance, not perform), then
    # the commonest, the shorter first.
    word = min(forms, key=lambda form: (OSA.distance(typed, form), -forms[form], len(form)))
    return f"{field}:{word}" if field else word


def shortlist_ids(desk: Desk, name: str) -> list[int]:
    """A shortlist's papers in the user's order."""
    return desk._library.shortlists.paper_ids(name)


def listing(
    desk: Desk,
    scope: Scope,
    text: str = "",
    sort: SortKey = "relevance",
    descending: bool = False,
    typing: bool = False,
) -> Listing:
    """The papers of a scope narrowed by a search text, in the requested order.

    `typing`: the text is being typed in a search field, so its last word also finds
    the words it starts (search as you type; the command line searches whole words).

    A shortlist, an import or chosen ids keep their own order while nothing narrows or
    sorts them; a query's papers come best match first (import order without one).
    Sorted by promise, they come most promising first (`desk.promise`).
    """
    if sort == fields.PROMISE:
        found = listing(desk, scope, text, typing=typing)
        return replace(found, ids=desk.promise.order(found.ids), reorderable=False)
    pinned = _listed_ids(desk, scope)
    if pinned is not None and not text.strip() and sort == fields.RELEVANCE:
        total = desk._library.papers.count()
        return Listing(pinned, total, reorderable=scope.kind == Kind.SHORTLIST)
    query = combined_query(_query_of(desk, scope), text)
    result = find_ids(desk, query or None, sort, descending, typed=text if typing else "")
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


def _listed_ids(desk: Desk, scope: Scope) -> list[int] | None:
    """The stored list of a shortlist, import, status or chosen ids; None for other scopes.

    A status is read from the store, not the index: right at once after a status set
    on thousands of papers, whose search documents follow later.
    """
    if scope.kind == Kind.STATUS:
        return desk._library.papers.ids_with_status(scope.value)
    if scope.kind == Kind.SHORTLIST:
        return shortlist_ids(desk, scope.value)
    if scope.kind == Kind.IMPORT:
        return desk._library.imports.batch_paper_ids(int(scope.value))
    if scope.kind == Kind.IDS:
        return desk._library.papers.require(scope.ids)
    return None


def _query_of(desk: Desk, scope: Scope) -> str:
    if scope.kind == Kind.SAVED:
        return desk._library.saved.query_of(scope.value)
    if scope.kind == Kind.STATUS:
        return ""  # listed from the store (_listed_ids)
    return scope.query()

"""Finding papers: queries and sorts, every kind of scope, and "more like this"."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import InvalidValueError, NotFoundError, QueryError
from paperdesk.core.models import Status
from paperdesk.core.scope import Kind, Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, reading, saved, searching, shortlists, tagging
from tests.services.conftest import paper_with

TTT = "Self-attention performs well in long context"


def test_without_a_query_relevance_is_import_order_and_any_sort_key_applies(desk: Desk) -> None:
    every = searching.find_ids(desk).ids
    assert every == list(range(1, 39)) and searching.find_ids(desk).total_in_library == 38
    newest_first = searching.find_ids(desk, "  ", descending=True).ids
    stamps = [paper.added for paper in reading.papers(desk, newest_first)]
    assert sorted(newest_first) == every and stamps == sorted(stamps, reverse=True)
    editing.set_rating(desk, [5], 3)
    editing.set_rating(desk, [9], 4)
    assert searching.find_ids(desk, None, sort="rating", descending=True).ids[:2] == [9, 5]
    with pytest.raises(InvalidValueError, match="cannot sort by 'colour'"):
        searching.find_ids(desk, None, sort="colour")


def test_a_query_ranks_best_first_reverses_and_suggests(desk: Desk) -> None:
    ttt = paper_with(desk, TTT)
    ranked = searching.find_ids(desk, "test-time training")
    assert ranked.ids[0] == ttt and ranked.terms
    assert searching.find_ids(desk, "test-time training", descending=True).ids[-1] == ttt
    graph = searching.find_ids(desk, "graph").ids
    by_title = searching.find_ids(desk, "graph", sort="title").ids
    titles = [reading.paper(desk, i).title.lower() for i in by_title]
    assert sorted(by_title) == sorted(graph) and titles == sorted(titles)
    missed = searching.find_ids(desk, "grahp")
    assert missed.ids == [] and missed.suggestion == "graph"
    with pytest.raises(QueryError):
        searching.find_ids(desk, '"unclosed')


def test_listing_a_query_scope_narrowed_by_text(desk: Desk) -> None:
    graph = set(searching.find_ids(desk, "graph").ids)
    editing.set_status(desk, sorted(graph)[:2], Status.READ)
    read = searching.listing(desk, Scope(Kind.STATUS, "read"))
    assert sorted(read.ids) == sorted(graph)[:2] and not read.reorderable
    narrowed = searching.listing(desk, Scope(Kind.STATUS, "read"), "graph OR nothing")
    assert sorted(narrowed.ids) == sorted(graph)[:2]
    tagging.add_tags(desk, [3], ["ml/rnn"])
    assert searching.listing(desk, Scope(Kind.TAG, "ml")).ids == [3]
    assert set(searching.listing(desk, Scope.of_query("graph")).ids) == graph


def test_listing_a_shortlist_keeps_its_order_until_narrowed_or_sorted(desk: Desk) -> None:
    shortlists.create(desk, "Reading group", [30, 4, 17])
    scope = Scope.of_shortlist("reading group")
    own = searching.listing(desk, scope)
    assert own.ids == [30, 4, 17] and own.reorderable and own.total_in_library == 38
    assert searching.listing(desk, scope, sort="added").ids == [4, 17, 30]
    assert not searching.listing(desk, scope, sort="added").reorderable
    assert searching.listing(desk, scope, "NOT graph").ids == [
        i for i in searching.find_ids(desk, "NOT graph").ids if i in {30, 4, 17}
    ]
    with pytest.raises(NotFoundError, match="no shortlist named 'nope'"):
        searching.listing(desk, Scope.of_shortlist("nope"))


def test_listing_an_import_chosen_ids_and_a_saved_search(desk: Desk) -> None:
    batch = desk._library.imports.batches()[0]
    assert searching.listing(desk, Scope(Kind.IMPORT, str(batch.id))).ids == list(
        range(1, batch.added + 1)
    )
    assert searching.scope_ids(desk, Scope.of_ids([7, 3, 7])) == [7, 3]
    with pytest.raises(NotFoundError, match="no paper with id 99"):
        searching.scope_ids(desk, Scope.of_ids([7, 99]))
    saved.save_search(desk, "Graphs", "graph")
    assert (
        searching.scope_ids(desk, Scope(Kind.SAVED, "Graphs"))
        == searching.find_ids(desk, "graph").ids
    )
    assert searching.scope_ids(desk, Scope()) == list(range(1, 39))


def test_combined_queries_keep_the_users_or_inside() -> None:
    assert searching.combined_query("status:read", " a OR b ") == "status:read (a OR b)"
    assert searching.combined_query("", "a OR b") == "a OR b"
    assert searching.combined_query("status:read", "") == "status:read"

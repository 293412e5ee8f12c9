"""Kept sort orders follow the library's changes, and stay the database's orders."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from paperdesk.core import fields
from paperdesk.core.models import Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import column_orders, editing, history, searching, tagging
from tests.services.conftest import another_program

KEYS = [key for key in searching.SORT_KEYS if key not in (fields.RELEVANCE, fields.PROMISE)]


def _database_orders(desk: Desk) -> dict[tuple[str, bool], list[int]]:
    papers = desk._library.papers
    return {(k, d): papers.sorted_ids(k, d) for k in KEYS for d in (False, True)}


def _kept_orders(desk: Desk) -> dict[tuple[str, bool], list[int]]:
    orders = column_orders.of(desk._library)
    return {(k, d): orders.order(desk._library, k, d) for k in KEYS for d in (False, True)}


def _counting_full_reads(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sort keys read for every paper (not only for changed ones), as they happen."""
    reads: list[str] = []
    papers = desk._library.papers
    read = papers.sort_values

    def counted(sort: str, descending: bool = False, ids=None):  # type: ignore[no-untyped-def]
        if ids is None:
            reads.append(sort)
        return read(sort, descending, ids)

    monkeypatch.setattr(papers, "sort_values", counted)
    return reads


CHANGES: list[tuple[str, Callable[[Desk, list[int]], object]]] = [
    ("rating", lambda desk, ids: editing.set_rating(desk, ids[:3], 5)),
    ("status", lambda desk, ids: editing.set_status(desk, ids[-2:], Status.TO_READ)),
    ("title", lambda desk, ids: editing.set_title(desk, ids[5], "aardvark first")),
    ("title to the end", lambda desk, ids: editing.set_title(desk, ids[6], "Zzz last")),
    ("tags", lambda desk, ids: tagging.add_tags(desk, ids[10:14], ["Beta", "alpha"])),
    ("a tag renamed", lambda desk, ids: tagging.rename_tag(desk, "gamma", "Aaa")),
    ("papers deleted", lambda desk, ids: editing.delete_papers(desk, ids[20:22])),
    ("an undo", lambda desk, ids: history.undo(desk)),
    ("many ratings", lambda desk, ids: editing.set_rating(desk, ids[::3], 2)),
]


@pytest.mark.parametrize(("what", "change"), CHANGES, ids=[what for what, _ in CHANGES])
def test_kept_orders_follow_a_change_without_reading_every_paper(
    desk: Desk,
    monkeypatch: pytest.MonkeyPatch,
    what: str,
    change: Callable[[Desk, list[int]], object],
) -> None:
    ids = desk._library.papers.sorted_ids("added")
    tagging.add_tags(desk, ids[30:33], ["gamma"])  # some papers have tags before
    assert _kept_orders(desk) == _database_orders(desk)
    change(desk, ids)
    expected = _database_orders(desk)
    reads = _counting_full_reads(desk, monkeypatch)
    assert _kept_orders(desk) == expected, what
    assert reads == [], f"{what}: the orders were read again whole"


def test_a_change_not_noted_drops_the_orders(desk: Desk, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another program's change (here: a write past the services) is not known paper by
    paper: the orders are read again, and are right."""
    ids = desk._library.papers.sorted_ids("added")
    before = _kept_orders(desk)
    with desk.writing(), another_program(desk) as other:
        other.papers.set_rating(ids[:2], 3)
    expected = _database_orders(desk)
    reads = _counting_full_reads(desk, monkeypatch)
    assert _kept_orders(desk) == expected != before
    assert sorted(set(reads)) == sorted(KEYS)


def test_a_search_sorted_by_a_column_sees_a_change_at_once(desk: Desk) -> None:
    ids = desk._library.papers.sorted_ids("added")
    everything = searching.find_ids(desk, None, sort="title").ids
    editing.set_title(desk, everything[-1], "A first title")
    assert searching.find_ids(desk, None, sort="title").ids[0] == everything[-1]
    editing.set_rating(desk, [ids[0]], 5)
    assert searching.find_ids(desk, None, sort="rating", descending=True).ids[0] == ids[0]

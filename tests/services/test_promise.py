"""The ranking follows the library while it is open: an edit is a change it sees."""

from __future__ import annotations

from paperdesk.core.triage import Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, triage

# Words every ICML seed list has many times, so each has a column of its own.
NEW_TITLE = "Graph neural networks for reinforcement learning with language models"


def _columns_of(desk: Desk, paper_id: int) -> set[int]:
    link = desk.promise.link()
    assert link is not None
    return set(link.call("columns", paper_id))


def test_an_edited_title_is_read_by_the_ranking_without_reopening(desk: Desk) -> None:
    triage.decide(desk, 1, Decision.KEEP)
    triage.decide(desk, 2, Decision.DISCARD)
    assert desk.promise.wait(60)
    link = desk.promise.link()
    assert link is not None
    title_columns = set(link.call("term_columns", NEW_TITLE))
    assert not title_columns <= _columns_of(desk, 3)  # the seeds' titles are derived

    editing.set_title(desk, 3, NEW_TITLE)
    assert desk.promise.wait(60)

    assert title_columns <= _columns_of(desk, 3)


def test_a_decision_leaves_the_matrix_as_it_was(desk: Desk) -> None:
    triage.decide(desk, 1, Decision.KEEP)
    assert desk.promise.wait(60)
    before = desk.promise.info()["generation"]
    first = desk.promise.latest()

    triage.decide(desk, 2, Decision.DISCARD)
    assert desk.promise.wait(60)

    assert desk.promise.info()["generation"] == before  # nothing re-tokenised
    latest = desk.promise.latest()
    assert first is not None and latest is not None and latest.version > first.version
    assert latest.ids is first.ids  # the scores came without the ids again

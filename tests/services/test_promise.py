"""The ranking follows the library while it is open: an edit is a change it sees."""

from __future__ import annotations

from paperdesk.core.triage import Decision
from paperdesk.services import editing, triage
from paperdesk.services.desk import Desk

# Words every ICML seed list has many times, so each has a column of its own.
NEW_TITLE = "Graph neural networks for reinforcement learning with language models"


def _columns_of(desk: Desk, paper_id: int) -> set[int]:
    ranking = desk.promise.latest()
    assert ranking is not None
    row = ranking.features.matrix[ranking.features.row_of[paper_id]]
    return set(row.indices.tolist())


def test_an_edited_title_is_read_by_the_ranking_without_reopening(desk: Desk) -> None:
    triage.decide(desk, 1, Decision.KEEP)
    triage.decide(desk, 2, Decision.DISCARD)
    desk.promise.ranker()
    assert desk.promise.wait(60)
    title_columns = set(desk.promise.latest().features.terms(NEW_TITLE).values())
    assert not title_columns <= _columns_of(desk, 3)  # the seeds' titles are derived

    editing.set_title(desk, 3, NEW_TITLE)
    assert desk.promise.wait(60)

    assert title_columns <= _columns_of(desk, 3)


def test_a_decision_leaves_the_matrix_as_it_was(desk: Desk) -> None:
    triage.decide(desk, 1, Decision.KEEP)
    desk.promise.ranker()
    assert desk.promise.wait(60)
    before = desk.promise.latest().features

    triage.decide(desk, 2, Decision.DISCARD)
    assert desk.promise.wait(60)

    assert desk.promise.latest().features is before  # nothing re-tokenised

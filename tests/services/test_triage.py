"""Triage services: a decision is one undo step; annotations are searchable, kept by undo,
the JSON backup and the Markdown export; the figures of the statistics view."""

from __future__ import annotations

import json

import pytest

from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.models import Status
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import UNDECIDED
from paperdesk.core.triage import Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    annotations,
    backup,
    editing,
    exporting,
    history,
    reading,
    screenings,
    searching,
    shortlists,
    triage,
)


def shortlist_ids(desk: Desk, name: str) -> list[int]:
    return searching.listing(desk, Scope.of_shortlist(name)).ids


def test_a_keep_sets_the_status_joins_the_target_shortlist_and_logs_it_in_one_undo_step(desk):
    changes = triage.decide(desk, 3, Decision.KEEP, "Reading group")
    assert changes.paper_ids == {3} and changes.shortlists
    assert reading.paper(desk, 3).status == Status.TO_READ
    assert shortlist_ids(desk, "Reading group") == [3]
    assert [(e.paper_id, e.decision) for e in desk._library.triage.log()] == [(3, Decision.KEEP)]

    undone = history.undo(desk)
    assert undone is not None and 3 in undone.paper_ids
    assert reading.paper(desk, 3).status == Status.NEW
    assert "Reading group" not in [s.name for s in shortlists.list_shortlists(desk)]
    assert desk._library.triage.log() == []


def test_maybe_and_discard_set_their_statuses_and_leave_the_shortlists_alone(desk):
    triage.decide(desk, 4, Decision.MAYBE, "Kept")
    triage.decide(desk, 5, Decision.DISCARD, "Kept")
    assert reading.paper(desk, 4).status == Status.SKIMMED
    assert reading.paper(desk, 5).status == Status.DISCARDED
    assert shortlists.list_shortlists(desk) == []


def test_a_decision_may_leave_the_index_to_catch_up_afterwards(desk):
    triage.decide(desk, 4, Decision.DISCARD, index_later=True)
    assert reading.paper(desk, 4).status == Status.DISCARDED  # in the database at once
    assert desk.papers_behind() == 1
    desk.catch_up_deferred()
    assert desk.papers_behind() == 0
    assert searching.listing(desk, Scope(), "status:discarded").ids == [4]


def test_deciding_a_paper_that_is_gone_names_it(desk):
    with pytest.raises(NotFoundError, match="999999"):
        triage.decide(desk, 999_999, Decision.KEEP)


def test_the_queue_of_not_yet_decided_papers_drops_decided_ones(desk):
    default = screenings.start(desk)
    before = screenings.queue(desk, default)
    triage.decide(desk, before.pending[0], Decision.DISCARD, screening=default)
    after = screenings.queue(desk, default)
    assert before.pending[0] not in after.pending
    assert len(after.pending) == len(before.pending) - 1


def test_a_shortlist_triage_goes_through_every_paper_on_it_decided_elsewhere_or_not(desk):
    shortlists.create(desk, "Later", [1, 2])
    triage.decide(desk, 1, Decision.MAYBE)
    later = screenings.start(desk, "Later", scope=Scope.of_shortlist("Later"))
    assert screenings.queue(desk, later).pending == (1, 2)


def abstract_words(desk: Desk, paper_id: int) -> tuple[int, int, str]:
    abstract = reading.paper(desk, paper_id).abstract
    quote = abstract.split(".")[0][:40].strip()
    start = abstract.index(quote)
    return start, start + len(quote), quote


def test_a_marked_passage_is_shown_searchable_and_undone(desk):
    start, stop, quote = abstract_words(desk, 6)
    annotations.highlight(desk, 6, start, stop, quote, "#fff59d", "zyxwvut idea")
    (mark,) = reading.paper(desk, 6).annotations
    assert (mark.start, mark.stop, mark.quote, mark.comment) == (start, stop, quote, "zyxwvut idea")
    assert searching.listing(desk, Scope(), "annotation:zyxwvut").ids == [6]

    history.undo(desk)
    assert reading.paper(desk, 6).annotations == ()
    assert searching.listing(desk, Scope(), "annotation:zyxwvut").ids == []
    history.redo(desk)
    assert [m.comment for m in reading.paper(desk, 6).annotations] == ["zyxwvut idea"]


def test_a_mark_can_change_colour_and_comment_and_be_removed(desk):
    start, stop, quote = abstract_words(desk, 7)
    annotations.highlight(desk, 7, start, stop, quote, "#fff59d")
    (mark,) = reading.paper(desk, 7).annotations
    annotations.edit(desk, mark.id, "#b3e5fc", "second thoughts")
    (edited,) = reading.paper(desk, 7).annotations
    assert (edited.colour, edited.comment) == ("#b3e5fc", "second thoughts")
    annotations.remove(desk, mark.id)
    assert reading.paper(desk, 7).annotations == ()
    with pytest.raises(NotFoundError):
        annotations.remove(desk, mark.id)


def test_an_empty_passage_is_refused_with_a_message(desk):
    with pytest.raises(InvalidValueError, match="select a passage"):
        annotations.highlight(desk, 7, 5, 5, "", "#fff59d")


def test_marks_and_decisions_survive_the_json_backup(desk, empty_desk, tmp_path):
    start, stop, quote = abstract_words(desk, 8)
    annotations.highlight(desk, 8, start, stop, quote, "#b9f6ca", "keep this")
    triage.decide(desk, 8, Decision.KEEP, "Kept")
    triage.set_highlight_words(desk, ["regret", "bandit"])
    path = tmp_path / "library-backup.json"
    backup.write_backup(desk, path)

    backup.restore_backup(empty_desk, path)
    paper = reading.paper(empty_desk, 8)
    assert [(m.quote, m.comment) for m in paper.annotations] == [(quote, "keep this")]
    assert [e.decision for e in empty_desk._library.triage.log()] == [Decision.KEEP]
    assert triage.highlight_words(empty_desk) == ["bandit", "regret"]


def test_the_markdown_export_quotes_marked_passages_under_the_paper(desk, tmp_path):
    start, stop, quote = abstract_words(desk, 9)
    annotations.highlight(desk, 9, start, stop, quote, "#fff59d", "the key claim")
    path = tmp_path / "list.md"
    exporting.export(desk, Scope.of_ids([9]), path, "markdown")
    text = path.read_text()
    assert f"> {quote}" in text
    assert "the key claim" in text


def test_statistics_follow_the_decision_log(desk):
    triage.decide(desk, 1, Decision.KEEP, "Kept")
    triage.decide(desk, 2, Decision.DISCARD)
    triage.decide(desk, 3, Decision.DISCARD)
    editing.set_rating(desk, [4], 5)
    stats = triage.stats(desk)
    assert stats.decisions == 3
    assert stats.found_curve == ((1, 1), (2, 1), (3, 1))
    assert stats.discards_since_keep == 2
    assert stats.undecided == stats.papers - 3
    assert dict(stats.by_status)[Status.DISCARDED.value] == 2
    assert "2 discards in a row since the last keep" in stats.stopping_hint()
    assert sum(count for _, count in stats.per_day) == 3
    json.dumps(stats.summary())  # plain text lines, for `paperdesk stats`


def test_always_highlight_words_are_kept_per_library_and_undone(desk):
    triage.set_highlight_words(desk, ["Regret", "regret", " ", "bandit"])
    assert [w.casefold() for w in triage.highlight_words(desk)] == ["bandit", "regret"]
    history.undo(desk)
    assert triage.highlight_words(desk) == []


def test_not_yet_decided_are_papers_whose_status_is_still_new(desk):
    default = screenings.start(desk)
    assert default.scope == UNDECIDED and default.scope.kind == Kind.STATUS
    triage.decide(desk, 2, Decision.MAYBE)  # decided elsewhere: it leaves the scope
    triage.decide(desk, 3, Decision.DISCARD, screening=default)
    assert screenings.still_pending(desk, default, [1, 2, 3]) == {1}

"""The detail pane's Team section: a team library's average rating and the others'
notes, read-only; nothing of it for a personal library's paper."""

from __future__ import annotations

from datetime import datetime

from paperdesk.core.team_values import MemberNote, TeamValues
from paperdesk.gui.window.detail_pane import DetailPane
from tests.factories import make_paper

TEAM = TeamValues(
    ratings=(("alice", 4), ("bob", 3)),
    notes=(
        MemberNote("alice", "my own note", datetime(2026, 12, 1, 7, 0)),
        MemberNote("bob", "weak <b>ablations</b>\nrerun", datetime(2026, 12, 1, 7, 5)),
    ),
    reader="alice",
)


def test_a_team_papers_average_and_the_others_notes_are_shown(qtbot) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_paper(make_paper(rating=4, note="my own note", team=TEAM), {})
    team = pane.single.team
    assert team.isVisible()
    assert team.summary.text() == "★ 3.5 average of 2 · alice 4, bob 3"
    shown = team.notes.text()
    assert "<b>bob</b> <small>2026-12-01 07:05</small>" in shown
    assert "weak &lt;b&gt;ablations&lt;/b&gt;<br>rerun" in shown  # text, never markup
    assert "my own note" not in shown  # alice's own is in her note editor
    assert pane.notes.editor.toPlainText() == "my own note"
    assert pane.single.stars.rating() == 4


def test_a_personal_librarys_paper_has_no_team_section(qtbot) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_paper(make_paper(team=TEAM), {})
    pane.show_paper(make_paper(), {})
    assert not pane.single.team.isVisible()


def test_a_paper_nobody_rated_says_so(qtbot) -> None:
    pane = DetailPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.show_paper(make_paper(team=TeamValues(reader="alice")), {})
    assert pane.single.team.summary.text() == "not rated yet"
    assert not pane.single.team.notes.isVisible()

"""The conflicts view of a blind team screening (issue 22, "What must hold" 7), in bob's
window on a real PostgreSQL server: hidden until bob finishes, then both members'
decisions, reasons and notes, and a resolution is recorded from it."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidgetItem

from paperdesk.core.models import Status
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.core.triage import Decision
from paperdesk.gui.triage.conflicts_view import ConflictsView
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import double_screening, notes, screenings, tagging, triage
from tests.gui import test_team_window as team_gui
from tests.postgres_server import PostgresServer

# alice's team library with the seeds in it (the window is bob's)
team = team_gui.team

ALICE = {1: Decision.KEEP, 2: Decision.DISCARD, 3: Decision.KEEP}
BOB = {1: Decision.KEEP, 2: Decision.KEEP, 3: Decision.DISCARD}


def screen(desk: Desk, decisions: dict[int, Decision]) -> None:
    screening = screenings.start(desk, "Pairs")
    for paper_id, decision in decisions.items():
        reason = "off topic" if decision == Decision.DISCARD else None
        triage.decide(desk, paper_id, decision, "Kept", screening=screening, reason=reason)


def rows(view: ConflictsView) -> list[list[str]]:
    """Each paper's line and its members' lines, as the tree shows them."""
    found = []
    for index in range(view.tree.topLevelItemCount()):
        paper = view.tree.topLevelItem(index)
        assert isinstance(paper, QTreeWidgetItem)
        found.append([paper.text(0)])
        for child in range(paper.childCount()):
            vote = paper.child(child)
            found.append([vote.text(column) for column in range(4)])
    return found


def test_the_conflicts_view_hides_until_bob_finishes_then_resolves_a_conflict(
    qtbot, team: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    alice = team
    tagging.add_tags(alice, list(ALICE), ["pairs"])
    screenings.start(
        alice, "Pairs", scope=Scope(Kind.TAG, "pairs"), reasons=("off topic",), blind=True
    )
    screen(alice, ALICE)
    double_screening.finish(alice, screenings.named(alice, "Pairs"))
    address = postgres_server.url(team_database, "bob")
    with Desk.open_team(TeamAddress.parse(address)) as bob:
        screen(bob, BOB)
        notes.set_note(bob, 2, "bob: the only method that scales")
    window = team_gui.team_window(qtbot, address, tmp_path)
    conflicts = window.commands.conflicts
    window.menus.conflicts_action.trigger()
    view = conflicts.view
    qtbot.waitUntil(lambda: view.windowTitle() == "Conflicts of Pairs", timeout=30_000)
    # Blind: bob has not finished, so the view shows progress, no decisions of alice's.
    assert rows(view) == []
    assert view.finish_button.isVisible() and not view.settle_button.isEnabled()
    assert "alice: 3 of 3 decided, finished" in view.figures.text()
    assert "shown once you finish" in view.figures.text()
    qtbot.mouseClick(view.finish_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 2, timeout=30_000)
    assert not view.finish_button.isVisible()
    title_2 = alice._library.papers.get(2).title
    assert rows(view)[:3] == [
        [f"2  {title_2}"],
        ["alice", "Discard", "off topic", ""],
        ["bob", "Keep", "", "bob: the only method that scales"],
    ]
    # (1/3 - 5/9) / (1 - 5/9): they agree less than chance would
    assert "alice and bob: agreed on 1 of 3, Cohen's kappa -0.50" in view.figures.text()
    if os.environ.get("PAPERDESK_SHOTS"):  # a look at what bob sees
        view.grab().save(str(Path(os.environ["PAPERDESK_SHOTS"]) / "conflicts.png"))
    # Resolving the first conflict records bob's decision; the view follows.
    assert view.selected_paper() == 2
    qtbot.mouseClick(view.decision_buttons[Decision.KEEP], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.tree.topLevelItemCount() == 1, timeout=30_000)
    assert alice._library.papers.get(2).status == Status.TO_READ
    left = double_screening.conflicts(alice, screenings.named(alice, "Pairs"))
    assert [c.paper_id for c in left] == [3]

"""One user action is one service call and one undo step: every GUI action, counted."""

from __future__ import annotations

import pytest

from paperdesk.core.models import Status
from paperdesk.core.scope import Scope
from paperdesk.core.triage import ANNOTATION_COLOURS
from paperdesk.gui.actions import highlights, papers, shortlists
from paperdesk.services.use_cases import history, searching
from paperdesk.services.use_cases import shortlists as shortlist_service
from tests.gui.test_main_window import WAIT_MS, ScriptedAsker, changes, searched


def undoable_steps(window) -> int:
    return sum(1 for entry in history.recent(window.desk, 500) if not entry.undone)


def test_a_new_shortlist_from_the_selection_is_one_undo_step(qtbot, window):
    ids = window.model.ids()[:3]
    window.table.select_ids(ids, ids[0])
    before = undoable_steps(window)
    window.panes.ask = ScriptedAsker(choice="Fresh list")  # a name no shortlist has
    with changes(qtbot, window):
        window.menus.add_to_shortlist_action.trigger()
    assert searching.shortlist_ids(window.desk, "Fresh list") == ids
    assert undoable_steps(window) == before + 1
    assert window.menus.undo_action.text() == "&Undo Create shortlist Fresh list with 3 papers"
    with changes(qtbot, window):
        window.menus.undo_action.trigger()
    assert window.desk._library.shortlists.all() == []


ACTIONS = {
    "rate": lambda window, ids: window.commands.set_rating(4),
    "status": lambda window, ids: window.commands.set_status(Status.READ),
    "tag": lambda window, ids: window.commands.add_tags(["rnn", "long-context"]),
    "toggle a tag": lambda window, ids: window.commands.toggle_tag("rnn"),
    "title": lambda window, ids: papers.set_title(window.operations, ids[0], "A Title"),
    "note": lambda window, ids: window.save_note(ids[0], "read §3", None),
    "highlight": lambda window, ids: highlights.highlight(
        window.operations, ids[0], 0, 4, "word", next(iter(ANNOTATION_COLOURS.values())), ""
    ),
    "new shortlist with papers": lambda window, ids: shortlists.create(window.operations, "A", ids),
    "add to a new shortlist": lambda window, ids: shortlists.add(window.operations, "B", ids),
    "drop on a tag": lambda window, ids: window.commands.drop_papers("tag", "dropped", ids),
    "delete": lambda window, ids: delete_confirmed(window),
}


def delete_confirmed(window) -> None:
    window.panes.ask = ScriptedAsker(confirm=True)
    window.commands.delete_selected()


@pytest.mark.parametrize("name", ACTIONS)
def test_each_action_on_the_selection_is_one_undo_step(qtbot, window, name):
    ids = window.model.ids()[:2]
    window.table.select_ids(ids, ids[0])
    before = undoable_steps(window)
    with changes(qtbot, window):
        ACTIONS[name](window, ids)
    assert undoable_steps(window) == before + 1


def test_each_sidebar_command_is_one_undo_step(qtbot, window):
    first = window.model.ids()[0]
    window.table.select_ids([first], first)
    steps = [
        ("new-shortlist", "", ScriptedAsker(text="S")),
        ("add-to-shortlist", "S", None),
        ("rename-shortlist", "S", ScriptedAsker(text="T")),
        ("new-tag", "", ScriptedAsker(text="ml/rnn")),
        ("add-tag", "ml/rnn", None),
        ("rename-tag", "ml", ScriptedAsker(text="learning")),
        ("merge-tag", "learning/rnn", ScriptedAsker(choice="kept")),
        ("colour-tag", "kept", ScriptedAsker(colour="#cc3333")),
        ("uncolour-tag", "kept", None),
        ("remove-tag", "kept", None),
        ("delete-tag", "kept", ScriptedAsker(confirm=True)),
        ("delete-shortlist", "T", None),
    ]
    for command, name, asker in steps:
        if asker is not None:
            window.panes.ask = asker
        before = undoable_steps(window)
        with changes(qtbot, window):
            window.commands.run_sidebar_command(command, name)
        assert undoable_steps(window) == before + 1, command
        assert not window.errors.shown, (command, window.errors.shown)


def test_reordering_a_shortlist_by_keys_is_one_undo_step(qtbot, window):
    ids = window.model.ids()[:3]
    with changes(qtbot, window):
        shortlists.create(window.operations, "Order", ids)
    with searched(qtbot, window):
        window.sidebar.select_scope(Scope.of_shortlist("Order"))
    window.table.select_ids([ids[2]], ids[2])
    before = undoable_steps(window)
    with searched(qtbot, window):
        window.menus.move_up_action.trigger()
    qtbot.waitUntil(window.runner.is_idle, timeout=WAIT_MS)
    assert searching.shortlist_ids(window.desk, "Order") == [ids[0], ids[2], ids[1]]
    assert undoable_steps(window) == before + 1


def test_adding_to_a_shortlist_the_window_has_not_seen_yet_adds_to_it(qtbot, window):
    """Create-or-add is decided by the service, in the write's transaction: a shortlist
    another program made a moment ago (not in the window's overview yet) gets the papers,
    where deciding from the overview tried to create it again and failed."""
    ids = window.model.ids()[:2]
    shortlist_service.create(window.desk, "Made elsewhere", ids[:1])
    assert "Made elsewhere" not in window.commands.shortlist_names()
    before = undoable_steps(window)
    with changes(qtbot, window):
        window.commands.add_to_shortlist("made elsewhere", ids)
    assert not window.errors.shown
    assert searching.shortlist_ids(window.desk, "Made elsewhere") == ids
    assert undoable_steps(window) == before + 1

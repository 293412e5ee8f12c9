"""The window on a team library (a real PostgreSQL server, tests/postgres_server.py):
opening it, the password prompt, the Connect dialog, others' changes showing up live,
and the server going away and coming back without losing what was typed."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QInputDialog, QWidget

from paperdesk.core.errors import PasswordNeeded, ServerUnreachable
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.core.triage import Decision
from paperdesk.gui.actions import papers, tags
from paperdesk.gui.dialogs.preferences import recent_libraries
from paperdesk.gui.team.connect import TeamConnectDialog
from paperdesk.gui.team.offline import OFFLINE_TEXT
from paperdesk.gui.window.main_window import MainWindow
from paperdesk.gui.window.paper_table_model import Column
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    demo,
    editing,
    importing,
    note_drafts,
    notes,
    pending_changes,
    reading,
    screenings,
    searching,
    tagging,
    triage,
)
from tests.gui.tcp_proxy import TcpProxy
from tests.postgres_server import PostgresServer, password_of

SHOWN_WITHIN_MS = 3000
# For a state that must come, not a promised delay: what a loaded machine may need (the
# offline test waited 5 s for bob's note after reconnecting and failed 3 of 3 runs at
# load 12 on two cores; the wait costs nothing when the state comes early).
EVENTUALLY_MS = 30_000


@pytest.fixture
def team(
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> Iterator[Desk]:
    """The team library with the seeds in it, open as alice (the window is bob's)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    alice = Desk.open_team(TeamAddress.parse(postgres_server.url(team_database, "alice")))
    report = importing.import_files(alice, demo.seed_files())
    assert not report.failed and report.added > 20, report.summary()
    yield alice
    alice.close()


def new_window(qtbot, address: str, tmp_path: Path) -> MainWindow:
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    window = MainWindow(TeamAddress.parse(address), settings, offer_demo=False)
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    return window


def team_window(qtbot, address: str, tmp_path: Path) -> MainWindow:
    """A window on the team library at `address`, once its papers are listed."""
    window = new_window(qtbot, address, tmp_path)
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        window.show()
    return window


def bobs_address(server: PostgresServer, database: str, port: int | None = None) -> str:
    return server.url(database, "bob").replace(f":{server.port}/", f":{port or server.port}/")


def test_the_window_opens_a_team_library_and_keeps_no_password(
    qtbot, team: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    # bob's password in the address (the window works with it, and keeps it nowhere).
    secret = password_of("bob")
    address = bobs_address(postgres_server, team_database).replace("bob@", f"bob:{secret}@")
    window = team_window(qtbot, address, tmp_path)
    assert window.model.rowCount() == reading.count(team)
    assert window.windowTitle().startswith(f"{team_database} (team library on localhost)")
    recent = recent_libraries(window.settings)
    window.close()
    assert recent[0] == TeamAddress(bobs_address(postgres_server, team_database))
    assert secret not in (tmp_path / "settings.ini").read_text(encoding="utf-8")
    assert secret not in window.windowTitle()


@pytest.fixture
def passworded(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Desk.open_team as a server answers a client without a password file: refused
    without bob's password; returns the passwords tried."""
    real_open = Desk.open_team
    tried: list[str | None] = []

    def open_team(address: TeamAddress, *args, **kwargs) -> Desk:
        tried.append(address.password)
        if address.password != password_of("bob"):
            raise PasswordNeeded(f"the team library {address.masked} needs a password")
        return real_open(address, *args, **kwargs)

    monkeypatch.setattr(Desk, "open_team", open_team)
    return tried


def password_prompt(qtbot, window: MainWindow, asked_before: QInputDialog | None = None):
    def asked() -> None:
        prompt = window.team.password_prompt
        assert prompt is not None and prompt is not asked_before and prompt.isVisible()

    qtbot.waitUntil(asked, timeout=30_000)
    return window.team.password_prompt


def test_a_password_the_server_wants_is_asked_for_in_a_dialog(
    qtbot,
    team: Desk,
    passworded: list[str | None],
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
) -> None:
    window = new_window(qtbot, bobs_address(postgres_server, team_database), tmp_path)
    window.show()
    prompt = password_prompt(qtbot, window)
    assert prompt.labelText().startswith("Password for postgresql://bob@localhost")
    assert window.errors.shown == []  # a question, not an error
    prompt.setTextValue("wrong")
    prompt.accept()
    prompt = password_prompt(qtbot, window, asked_before=prompt)
    assert prompt.labelText().startswith("The server refused the password.")
    prompt.setTextValue(password_of("bob"))
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        prompt.accept()
    assert passworded == [None, "wrong", password_of("bob")]
    assert window.model.rowCount() == reading.count(team)
    window.close()
    assert password_of("bob") not in (tmp_path / "settings.ini").read_text(encoding="utf-8")


def test_declining_the_password_says_the_library_could_not_be_opened(
    qtbot,
    passworded: list[str | None],
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
) -> None:
    window = new_window(qtbot, bobs_address(postgres_server, team_database), tmp_path)
    window.show()
    prompt = password_prompt(qtbot, window)
    with qtbot.waitSignal(window.failed):
        prompt.reject()
    assert "needs a password" in window.errors.shown[-1]
    assert "could not be opened" in window.table.placeholder
    assert passworded == [None]


def test_the_connect_dialog_tests_the_connection_and_gives_the_address(
    qtbot, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    dialog = TeamConnectDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.host.setText("localhost")
    dialog.port.setValue(postgres_server.port)
    dialog.database.setText(team_database)
    dialog.user.setText("carol")
    with qtbot.waitSignal(dialog.tested, timeout=10_000) as tested:
        dialog.test_button.click()
    assert tested.args[1] is True and "Connected to postgresql://carol@localhost" in tested.args[0]
    dialog.password.setText("s3cret")
    assert dialog.address().url.endswith(
        f"carol:s3cret@localhost:{postgres_server.port}/{team_database}"
    )
    dialog.port.setValue(TcpProxy(postgres_server.port).port)  # a port nothing listens on
    with qtbot.waitSignal(dialog.tested, timeout=10_000) as tested:
        dialog.test_button.click()
    assert tested.args[1] is False and "cannot be reached" in tested.args[0]
    assert "s3cret" not in tested.args[0] and "carol:***@" in tested.args[0]
    grab(dialog, tmp_path / "connect.png")
    dialog.database.clear()
    dialog.connect_button.click()
    assert dialog.isVisible() and "names no database" in dialog.status.text()


def test_file_connect_opens_a_window_on_the_team_library(
    qtbot, window: MainWindow, postgres_server: PostgresServer, team_database: str
) -> None:
    window.menus.connect_team_action.trigger()
    dialog = window.team.connect_dialog
    assert isinstance(dialog, TeamConnectDialog) and dialog.isVisible()
    dialog.port.setValue(postgres_server.port)
    dialog.database.setText(team_database)
    dialog.user.setText("dave")
    with qtbot.waitSignal(window.switch_requested) as switched:
        dialog.connect_button.click()
    assert switched.args[0] == TeamAddress.parse(postgres_server.url(team_database, "dave"))


# bob's first change may come before his local index exists: `_sync` warns and rebuilds it
@pytest.mark.logs_warnings
def test_others_changes_show_up_live_keeping_the_selection_and_the_note_being_typed(
    qtbot, team: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    window = team_window(qtbot, bobs_address(postgres_server, team_database), tmp_path)
    qtbot.waitUntil(lambda: window.model.rowCount() == reading.count(team), timeout=10_000)
    ids = window.model.ids()
    selected, other = ids[:1], ids[1]
    window.table.select_ids(selected, selected[0])
    assert window.detail.paper().id == selected[0]
    window.detail.notes.editor.setPlainText("bob is typing")
    tagging.add_tags(team, [selected[0]], ["alice-likes"])
    editing.set_rating(team, [other], 4)

    def shows_alices_changes() -> None:
        assert "alice-likes" in [t.name for t in window.commands.overview.tags]
        assert "alice-likes" in window.detail.paper().tags
        # Ratings are each member's own: alice's shows in bob's team view of the paper.
        shown = window.model.paper_at(window.model.row_of(other))
        assert shown.rating == 0 and shown.team is not None
        assert shown.team.ratings == (("alice", 4),)

    qtbot.waitUntil(shows_alices_changes, timeout=SHOWN_WITHIN_MS)
    assert window.table.selected_ids() == selected
    assert window.detail.notes.editor.toPlainText() == "bob is typing"
    with qtbot.waitSignal(window.search_applied, timeout=10_000):
        window.search_bar.set_text("tag:alice-likes")
    assert window.model.ids() == selected
    assert window.errors.shown == []


def test_the_detail_pane_shows_no_note_of_a_paper_another_decided_blind(
    qtbot, team: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    """bob has not finished the blind screening in which alice decided paper `decided`:
    her note of it would tell him her judgement; her note of another paper shows."""
    decided, other = 1, 2
    tagging.add_tags(team, [decided, other], ["pairs"])
    started = screenings.start(team, "Pairs", scope=Scope(Kind.TAG, "pairs"), blind=True)
    triage.decide(team, decided, Decision.KEEP, screening=started)
    notes.set_note(team, decided, "alice: a keeper")
    notes.set_note(team, other, "alice: not screened yet")
    window = team_window(qtbot, bobs_address(postgres_server, team_database), tmp_path)
    shown = {}
    for paper_id in (decided, other):
        window.table.select_ids([paper_id], paper_id)
        assert window.detail.paper().id == paper_id
        section = window.detail.single.team
        shown[paper_id] = section.notes.text() if section.notes.isVisibleTo(window) else ""
    window.grab().save(str(tmp_path / "blind.png"))
    assert "alice: a keeper" not in shown[decided]
    assert "alice: not screened yet" in shown[other]
    assert window.errors.shown == []


def test_the_windows_undo_takes_back_the_members_own_action_not_a_newer_one_of_another(
    qtbot, team: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    window = team_window(qtbot, bobs_address(postgres_server, team_database), tmp_path)
    mine, theirs = window.model.ids()[:2]
    # (bob's local index is built in the background meanwhile)
    qtbot.waitUntil(lambda: window.desk._index.why_unusable() is None, timeout=60_000)
    window.table.select_ids([mine], mine)
    window.commands.set_rating(4)
    qtbot.waitUntil(lambda: window.desk._library.papers.get(mine).rating == 4, timeout=10_000)
    tagging.add_tags(team, [theirs], ["alice-was-last"])  # newer than bob's rating
    qtbot.waitUntil(
        lambda: window.menus.undo_action.text() == "&Undo Rate 4 stars", timeout=SHOWN_WITHIN_MS
    )
    window.menus.undo_action.trigger()
    qtbot.waitUntil(lambda: window.desk._library.papers.get(mine).rating == 0, timeout=10_000)
    assert "alice-was-last" in team._library.papers.get(theirs).tags
    assert window.errors.shown == []


def cut_off(qtbot, window: MainWindow, proxy: TcpProxy) -> tuple[MainWindow, int, int]:
    """The window with its first paper selected, then its server cut off (the banner
    shown): the window and its first two papers."""
    first, second = window.model.ids()[:2]
    window.table.select_ids([first], first)
    # Listed before the outage: the table has read its rows (painted them). Under load the
    # first paint could come after the cut, and a row never read cannot be shown offline.
    qtbot.waitUntil(lambda: window.model.cached(second) is not None, timeout=EVENTUALLY_MS)
    proxy.stop()
    qtbot.waitUntil(window.read_only_banner.isVisible, timeout=EVENTUALLY_MS)
    return window, first, second


# bob's first change may come before his local index exists: `_sync` warns and rebuilds it
@pytest.mark.logs_warnings
def test_an_unreachable_server_makes_the_window_read_only_and_loses_nothing_typed(
    qtbot,
    team: Desk,
    postgres_server: PostgresServer,
    proxy: TcpProxy,
    team_database: str,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    address = bobs_address(postgres_server, team_database, proxy.port)
    window, first, second = cut_off(qtbot, team_window(qtbot, address, tmp_path), proxy)
    banner = window.read_only_banner
    assert banner.text() == OFFLINE_TEXT and window.desk.offline
    grab(window, tmp_path / "offline.png")
    # Typed while the server is away: kept in the editor, then as the paper's draft
    # once another paper is shown.
    window.detail.notes.editor.setPlainText("typed while offline")
    window.detail.notes.flush()
    qtbot.waitUntil(lambda: window.runner.is_idle(), timeout=EVENTUALLY_MS)
    window.table.select_ids([second], second)
    qtbot.waitUntil(lambda: first in window.detail.notes.drafts(), timeout=EVENTUALLY_MS)
    # A paper listed before the outage, never shown in the detail pane, is readable.
    shown = window.detail.paper()
    assert shown is not None and shown.id == second
    assert shown.abstract == reading.paper(team, second).abstract != ""
    # A rating set meanwhile is kept on this machine, counted in the banner.
    papers.set_rating(window.operations, [second], 4)
    qtbot.waitUntil(lambda: "1 change kept on this machine" in banner.text(), timeout=EVENTUALLY_MS)
    assert window.errors.shown == []
    # It shows as waiting: hollow stars in the table and faint ones in the detail pane.
    stars = window.detail.single.stars
    assert stars.rating() == 4 and "waiting for the server" in stars.toolTip()
    rating_cell = window.model.index(window.model.row_of(second), Column.RATING)
    # (the table hears of the pending change after the banner: wait, do not assume)
    qtbot.waitUntil(lambda: rating_cell.data() == "☆☆☆☆", timeout=EVENTUALLY_MS)
    assert "waiting for the server" in rating_cell.data(Qt.ItemDataRole.ToolTipRole)
    # A tag is kept too.
    tags.add_tags(window.operations, [second], ["read-offline"])
    qtbot.waitUntil(
        lambda: "2 changes kept on this machine" in banner.text(), timeout=EVENTUALLY_MS
    )
    assert window.errors.shown == []
    grab(window, tmp_path / "offline-pending.png")
    # A search cannot run meanwhile: the search bar says why, no error box.
    with qtbot.waitSignal(window.failed, timeout=10_000):
        window.search_bar.set_text("graph")
    assert "cannot be reached" in window.search_bar.message.text()
    assert window.errors.shown == []
    proxy.start()
    qtbot.waitUntil(lambda: not banner.isVisible(), timeout=EVENTUALLY_MS)
    qtbot.waitUntil(lambda: bobs_note(team, first) == "typed while offline", timeout=EVENTUALLY_MS)
    qtbot.waitUntil(lambda: bobs_rating(team, second) == 4, timeout=EVENTUALLY_MS)  # applied now
    assert "read-offline" in reading.paper(team, second).tags
    assert "waiting" not in stars.toolTip()
    assert not window.desk.offline and window.detail.notes.drafts() == {}
    message = window.search_bar.message
    qtbot.waitUntil(lambda: not message.isVisible(), timeout=EVENTUALLY_MS)  # the search ran again
    window.search_bar.set_text("")
    # (a refresh for the drafts just saved may still list the last search first)
    qtbot.waitUntil(lambda: window.model.rowCount() == reading.count(team), timeout=10_000)

    def stars_listed() -> str:
        # Its row now: `rating_cell` was its row before the search ran again, and that
        # listing ("graph") may put another paper there (the test failed 1 of 2 runs).
        row = window.model.row_of(second)
        return "" if row is None else window.model.index(row, Column.RATING).data()

    qtbot.waitUntil(lambda: stars_listed() == "★★★★", timeout=EVENTUALLY_MS)  # stored: solid
    window.table.select_ids([second], second)
    # Writing resumes, and the others' changes made meanwhile arrive.
    notes.set_note(team, second, "alice wrote this")  # hers: in bob's Team section
    qtbot.waitUntil(
        lambda: "alice wrote this" in window.detail.single.team.notes.text(),
        timeout=EVENTUALLY_MS,
    )
    assert window.errors.shown == []
    assert not [r for r in caplog.records if r.levelname in ("ERROR", "CRITICAL") or r.exc_info]
    window.close()
    proxy.stop()
    # bob's note is in bob's index (each member searches their own notes).
    with Desk.open_team(TeamAddress.parse(bobs_address(postgres_server, team_database))) as bob:
        assert searching.listing(bob, Scope(), "typed offline").ids == [first]


# bob's first change may come before his local index exists: `_sync` warns and rebuilds it
@pytest.mark.logs_warnings
def test_a_save_that_fails_just_after_the_server_came_back_is_retried_on_its_next_return(
    qtbot,
    team: Desk,
    postgres_server: PostgresServer,
    proxy: TcpProxy,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Under load the window's probe found the server back, but the note's and the
    # rating's first saves still failed: both stayed kept, and nothing tried again (the
    # note typed offline was never saved; seen in 2 of 7 runs of the test above).
    address = bobs_address(postgres_server, team_database, proxy.port)
    window, first, second = cut_off(qtbot, team_window(qtbot, address, tmp_path), proxy)
    banner = window.read_only_banner
    window.detail.notes.editor.setPlainText("typed while offline")
    window.detail.notes.flush()
    papers.set_rating(window.operations, [second], 3)
    qtbot.waitUntil(lambda: "1 change kept on this machine" in banner.text(), timeout=EVENTUALLY_MS)
    qtbot.waitUntil(lambda: first in window.detail.notes.drafts(), timeout=EVENTUALLY_MS)
    refused = {"note": 0, "rating": 0}

    def once(kind: str, make):  # fails the first time after the server is back
        def wrapped(*args, **kwargs):
            if not refused[kind]:
                refused[kind] = 1
                raise ServerUnreachable("the team library cannot be reached: a dropped link")
            return make(*args, **kwargs)

        return wrapped

    monkeypatch.setattr(notes, "set_note", once("note", notes.set_note))
    monkeypatch.setattr(pending_changes, "apply", once("rating", pending_changes.apply))
    proxy.start()
    qtbot.waitUntil(lambda: bobs_note(team, first) == "typed while offline", timeout=EVENTUALLY_MS)
    qtbot.waitUntil(lambda: bobs_rating(team, second) == 3, timeout=EVENTUALLY_MS)
    assert refused == {"note": 1, "rating": 1}
    qtbot.waitUntil(lambda: not banner.isVisible(), timeout=EVENTUALLY_MS)
    assert window.detail.notes.drafts() == {} and pending_changes.pending(window.desk) == []
    assert window.errors.shown == []
    window.close()
    proxy.stop()


def bobs_note(team: Desk, paper_id: int) -> str:
    """bob's own note of a paper, as everyone's notes show it (notes are per member)."""
    values = reading.paper(team, paper_id).team
    assert values is not None
    return next((n.body for n in values.notes if n.member == "bob"), "")


def grab(window: QWidget, path: Path) -> None:
    if isinstance(window, MainWindow):
        window.resize(1200, 700)
    window.grab().save(str(path))
    shots = os.environ.get("PAPERDESK_TEST_SHOTS")  # to look at it: a folder to copy it to
    if shots:
        shutil.copy(path, Path(shots) / path.name)


# bob's first change may come before his local index exists: `_sync` warns and rebuilds it
@pytest.mark.logs_warnings
def test_connections_the_server_dropped_are_replaced_without_going_offline(
    qtbot, team: Desk, postgres_server: PostgresServer, team_database: str, tmp_path: Path
) -> None:
    window = team_window(qtbot, bobs_address(postgres_server, team_database), tmp_path)
    went_offline: list[str] = []
    window.watch.unreachable.connect(went_offline.append)
    with psycopg.connect(postgres_server.url("postgres", "postgres"), autocommit=True) as admin:
        dropped = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE usename = 'bob' AND datname = %s",
            (team_database,),
        ).fetchall()
    assert dropped  # the window's pooled connections were there
    first = window.model.ids()[0]
    tagging.add_tags(team, [first], ["after-the-drop"])
    qtbot.waitUntil(
        lambda: "after-the-drop" in window.model.paper_at(0).tags, timeout=SHOWN_WITHIN_MS
    )
    window.table.select_ids([first], first)
    window.commands.set_rating(3)
    qtbot.waitUntil(lambda: bobs_rating(team, first) == 3, timeout=5000)
    assert went_offline == [] and window.errors.shown == []


def bobs_rating(team: Desk, paper_id: int) -> int:
    values = reading.paper(team, paper_id).team
    assert values is not None
    return dict(values.ratings).get("bob", 0)


# bob's first change may come before his local index exists: `_sync` warns and rebuilds it
@pytest.mark.logs_warnings
def test_notes_typed_offline_survive_closing_the_window_and_are_saved_by_the_next(
    qtbot,
    team: Desk,
    postgres_server: PostgresServer,
    proxy: TcpProxy,
    team_database: str,
    tmp_path: Path,
) -> None:
    address = bobs_address(postgres_server, team_database, proxy.port)
    window = team_window(qtbot, address, tmp_path)
    first = window.model.ids()[0]
    window.table.select_ids([first], first)
    proxy.stop()
    qtbot.waitUntil(window.read_only_banner.isVisible, timeout=EVENTUALLY_MS)
    window.detail.notes.editor.setPlainText("typed, then the laptop was closed")
    window.close()
    kept = window.library_dir / note_drafts.DRAFTS_FILE
    assert kept.is_file() and bobs_note(team, first) == ""
    proxy.start()
    again = team_window(qtbot, address, tmp_path)
    qtbot.waitUntil(
        lambda: bobs_note(team, first) == "typed, then the laptop was closed",
        timeout=5000,
    )
    assert not kept.exists() and again.errors.shown == []
    again.close()
    proxy.stop()


def test_a_server_that_stops_answering_never_freezes_the_window(
    qtbot,
    team: Desk,
    postgres_server: PostgresServer,
    proxy: TcpProxy,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("paperdesk.store.db.CONNECT_TIMEOUT_S", 2)
    window = team_window(qtbot, bobs_address(postgres_server, team_database, proxy.port), tmp_path)
    ids = window.model.ids()
    proxy.black_hole()
    # The watch's question hangs until the connection times out, off the GUI thread.
    qtbot.waitUntil(window.read_only_banner.isVisible, timeout=10_000)
    slowest = 0.0
    for paper_id in ids[:5]:
        started = time.perf_counter()
        window.table.select_ids([paper_id], paper_id)
        window.model.refresh_papers(ids)
        window.table.viewport().repaint()  # the rows read again
        slowest = max(slowest, time.perf_counter() - started)
    # Selecting and painting take milliseconds; a read waiting on the server would
    # take the whole 2 s timeout. (The bound is loose for a loaded test machine.)
    assert slowest < 1.0, f"the window froze {slowest:.2f} s"
    assert window.errors.shown == []
    window.close()
    proxy.stop()

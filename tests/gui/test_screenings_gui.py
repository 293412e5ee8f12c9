"""Screenings in the window (issue 21): leaving, closing and reopening resume the screening
with its scope, seed query and progress; a query seeds the order without fencing the
scope; the sidebar lists the screenings."""

from __future__ import annotations

import csv
import html
import itertools
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing
from paperdesk.store import triage as store_triage
from tests.gui.conftest import open_window
from tests.gui.test_triage_view import CTRL, SHIFT, WAIT_MS, decided, enter_triage

MOLECULES = Path(__file__).resolve().parents[1] / "data" / "molecules.csv"
QUERY = "diffusion models for molecules"
HITS = {"Diffusion models for molecules", "Equivariant diffusion models for molecules in 3D"}


@pytest.fixture
def molecules(tmp_path: Path) -> Path:
    folder = tmp_path / "molecules"
    with Desk.open(folder) as desk:
        assert not importing.import_files(desk, [MOLECULES]).failed
    return folder


def seed(qtbot, view, query: str, confine: bool = False) -> None:
    """All papers, seeded by `query` (Enter in the query box starts it again)."""
    header = view.header
    header.scope.setCurrentIndex(header.scope.findText("All papers"))
    header.confine.blockSignals(True)
    header.confine.setChecked(confine)
    header.confine.blockSignals(False)
    header.query.setText(query)
    with qtbot.waitSignal(view.session.paper_shown, timeout=WAIT_MS):
        header.query.returnPressed.emit()


def reenter(qtbot, window):
    """Ctrl+Shift+T from the table."""
    view = window.triage.view
    with qtbot.waitSignal(view.session.paper_shown, timeout=WAIT_MS):
        qtbot.keyClick(window.table, Qt.Key.Key_T, CTRL | SHIFT)
    return view


def test_a_query_seeds_the_screening_and_it_reaches_papers_outside_the_hits(
    qtbot, molecules: Path, tmp_path: Path
) -> None:
    window = open_window(qtbot, molecules, tmp_path / "settings.ini")
    view = enter_triage(qtbot, window)
    seed(qtbot, view, QUERY)
    assert view.session.paper.title in HITS
    assert view.progress_line.text().startswith("0 of 12 decided")
    decided(qtbot, window, view, Qt.Key.Key_S)
    assert view.session.paper.title in HITS
    decided(qtbot, window, view, Qt.Key.Key_S)
    # Past the hits the screening goes on through the library: a relevant paper that
    # misses a query word comes next (file order), where a fence would have ended it.
    assert view.session.paper.title == "Score-based generation of molecular conformers"

    seed(qtbot, view, QUERY, confine=True)  # confining is a choice, and is said
    assert "10 papers of the scope left out" in view.progress_line.text()


def test_leaving_and_entering_again_resumes_the_screening(qtbot, window) -> None:
    view = enter_triage(qtbot, window)
    seed(qtbot, view, "learning")
    decided(qtbot, window, view, Qt.Key.Key_X)
    decided(qtbot, window, view, Qt.Key.Key_X)
    decided_ids = {e.paper_id for e in window.desk._library.triage.log()}
    total = view.progress_line.text().split(" decided")[0]
    assert total.startswith("2 of ")
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not window.triage.active
    view = reenter(qtbot, window)
    assert view.header.scope.currentText() == "All papers"
    assert view.header.query.text() == "learning"
    assert view.progress_line.text().split(" decided")[0] == total
    assert view.session.paper.id not in decided_ids


def test_a_screening_resumes_after_closing_and_reopening_the_window(
    qtbot, seeded_library: Path, tmp_path: Path
) -> None:
    window = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    view = enter_triage(qtbot, window)
    view.header.screening.setCurrentText("Robots")
    seed(qtbot, view, "robot")
    decided(qtbot, window, view, Qt.Key.Key_X)
    first = {e.paper_id for e in window.desk._library.triage.log()}
    total = view.progress_line.text().split(" decided")[0]
    window.close()

    again = open_window(qtbot, seeded_library, tmp_path / "settings.ini")
    names = [
        again.sidebar.model_.index(r, 0).data() for r in range(again.sidebar.model_.rowCount())
    ]
    assert "Screenings" in names
    view = reenter(qtbot, again)
    assert view.header.screening.currentText() == "Robots"
    assert (view.header.scope.currentText(), view.header.query.text()) == ("All papers", "robot")
    assert view.progress_line.text().split(" decided")[0] == total
    assert view.session.paper.id not in first


def test_the_sidebar_lists_screenings_and_choosing_one_resumes_it(qtbot, window) -> None:
    view = enter_triage(qtbot, window)
    view.header.screening.setCurrentText("Robots")
    seed(qtbot, view, "robot")
    decided(qtbot, window, view, Qt.Key.Key_X)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    sidebar = window.sidebar
    qtbot.waitUntil(lambda: sidebar._index_of_entry("screening", "Robots") is not None)
    entry = sidebar._index_of_entry("screening", "Robots")
    assert entry.siblingAtColumn(1).data() == "1"
    with qtbot.waitSignal(view.session.paper_shown, timeout=WAIT_MS):
        sidebar.setCurrentIndex(entry)
    assert window.triage.active and view.header.query.text() == "robot"
    assert view.progress_line.text().startswith("1 of ")


def test_the_triage_view_and_the_statistics_say_the_same_time_left(
    qtbot, window, monkeypatch
) -> None:
    """Both read the screening's own decisions (it said 37 min in one, 7 h 25 min in the
    other, the statistics reading the whole library's log)."""
    # Decisions are stored to the second: a pace needs them apart, a minute each here.
    start = datetime.now().replace(microsecond=0) - timedelta(minutes=10)
    stamps = (start + timedelta(minutes=n) for n in itertools.count())
    monkeypatch.setattr(store_triage, "now", lambda: next(stamps))
    view = enter_triage(qtbot, window)
    for key in (Qt.Key.Key_X, Qt.Key.Key_M, Qt.Key.Key_X, Qt.Key.Key_X):
        decided(qtbot, window, view, key)
    qtbot.waitUntil(lambda: "left at this pace" in view.progress_line.text(), timeout=WAIT_MS)
    qtbot.keyClick(view, Qt.Key.Key_G, CTRL | SHIFT)
    stats_view = window.commands.stats_view
    qtbot.waitUntil(lambda: "left at that pace" in stats_view.figures.text(), timeout=WAIT_MS)

    def left(text: str, marker: str) -> str:
        return text.split(marker)[0].rsplit(";", 1)[-1].rsplit("·", 1)[-1].strip()

    shown = left(view.progress_line.text(), " left at this pace")
    assert shown == left(stats_view.figures.text(), " left at that pace")
    assert "Screening 'Triage'" in html.unescape(stats_view.figures.text())
    assert "records screened: 4" in stats_view.prisma.text()
    stats_view.close()


def test_a_discard_carries_a_reason_picked_by_key_or_typed_new(qtbot, window) -> None:
    from paperdesk.services.use_cases import screenings

    view = enter_triage(qtbot, window)
    first = view.session.paper.id
    with qtbot.waitSignal(view.session.paper_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_X, SHIFT)  # no reasons yet: Shift+X asks
        assert view.reason_bar.isVisible()
        qtbot.keyClicks(view.reason_bar.input, "off topic")
        qtbot.keyClick(view.reason_bar.input, Qt.Key.Key_Return)
    second = view.session.paper.id
    with qtbot.waitSignal(view.session.paper_shown, timeout=WAIT_MS):
        qtbot.keyClick(view, Qt.Key.Key_X)  # now the screening lists one: X asks
        assert "off topic" in view.reason_bar.listing.text()
        qtbot.keyClick(view.reason_bar.input, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: len(window.desk._library.triage.log()) == 2, timeout=WAIT_MS)
    log = {e.paper_id: e.reason for e in window.desk._library.triage.log()}
    assert log == {first: "off topic", second: "off topic"}
    stored = screenings.named(window.desk, "Triage")
    assert stored.reasons == ("off topic",)
    assert screenings.prisma(window.desk, stored).excluded_by_reason == (("off topic", 2),)


def test_a_screening_exports_and_imports_a_labelled_dataset_from_the_sidebar(
    qtbot, window, tmp_path, monkeypatch
) -> None:
    """Issue 21 item 10 in the window: the sidebar's Screenings entries export a
    screening's decisions as an ASReview-style labelled dataset and import one into a
    new screening (it was CLI only), off the GUI thread."""
    view = enter_triage(qtbot, window)
    view.header.screening.setCurrentText("Robots")
    seed(qtbot, view, "robot")
    kept = view.session.paper.id
    decided(qtbot, window, view, Qt.Key.Key_S)
    discarded = view.session.paper.id
    decided(qtbot, window, view, Qt.Key.Key_X)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    sidebar = window.sidebar
    offered = [a.text() for a in sidebar.menu_for("screening", "Robots").actions()]
    assert "Export Labelled Dataset…" in offered and "Import Labelled Dataset…" in offered

    target = tmp_path / "robots.csv"
    monkeypatch.setattr(window.commands.panes.ask, "save_path", lambda *_: target)
    export = next(
        a for a in sidebar.menu_for("screening", "Robots").actions() if "Export" in a.text()
    )
    export.trigger()
    qtbot.waitUntil(lambda: "written to robots.csv" in window.statusBar().currentMessage())
    with target.open(encoding="utf-8", newline="") as stream:
        rows = list(csv.DictReader(stream))
    labels = {row["title"]: row["label_included"] for row in rows}
    papers = window.desk._library.papers
    assert labels[papers.get(kept).title] == "1"
    assert labels[papers.get(discarded).title] == "0"

    monkeypatch.setattr(window.commands.panes.ask, "text", lambda *_: "Robots again")
    monkeypatch.setattr(window.commands.panes.ask, "open_path", lambda *_: target)
    section = sidebar.menu_for("section", "screening").actions()
    with qtbot.waitSignal(window.changes_applied, timeout=60_000):  # an import, slow loaded
        next(a for a in section if "Import" in a.text()).trigger()
    qtbot.waitUntil(lambda: sidebar._index_of_entry("screening", "Robots again") is not None)
    entry = sidebar._index_of_entry("screening", "Robots again")
    assert entry.siblingAtColumn(1).data() == "2"
    assert "2 labels from robots.csv recorded in Robots again" in (
        window.statusBar().currentMessage()
    )

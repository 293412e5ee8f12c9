"""GUI test helpers: papers without a database, and settings kept out of the user's config."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings

from paperdesk.core.models import Identifiers, Paper, Status


def make_paper(paper_id: int, **fields) -> Paper:
    values = dict(
        id=paper_id,
        title=f"Paper number {paper_id}",
        title_is_derived=False,
        authors=(f"Author {paper_id}", "Second Author"),
        venue="ICML",
        year=2025,
        abstract=f"Abstract of paper {paper_id}.",
        ids=Identifiers(),
        status=Status.NEW,
        rating=0,
        added=datetime(2025, 7, 1, 12, 0),
        updated=datetime(2025, 7, 1, 12, 0),
        fingerprint=f"fp{paper_id}",
    )
    values.update(fields)
    return Paper(**values)


class FakeLibrary:
    """Just enough of `Library.papers` for the table model, counting the calls."""

    def __init__(self, papers: list[Paper]) -> None:
        self.by_id = {paper.id: paper for paper in papers}
        self.calls: list[list[int]] = []

    def papers(self, ids):
        self.calls.append(list(ids))
        return [self.by_id[i] for i in ids if i in self.by_id]


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path, monkeypatch):
    """Any QSettings a test creates by default lands in tmp_path, not ~/.config."""
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return tmp_path / "cfg"


# --- a real library from the bundled seeds, for the window tests ------------------------
@pytest.fixture(scope="session")
def seeded_library_template(tmp_path_factory) -> Path:
    """Import the seeds once per session; each test gets its own copy of the folder."""
    from paperdesk.services.runtime.desk import Desk
    from paperdesk.services.use_cases import demo, importing

    folder = tmp_path_factory.mktemp("gui-seeded") / "library"
    with Desk.open(folder) as desk:
        report = importing.import_files(desk, demo.seed_files())
        assert not report.failed and report.added > 20, report.summary()
    return folder


@pytest.fixture
def seeded_library(seeded_library_template: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    shutil.copytree(seeded_library_template, folder)
    return folder


def open_window(qtbot, folder: Path, settings_file: Path, offer_demo: bool = False):
    """A main window on `folder`, waited for until its library is open and listed."""
    from paperdesk.gui.window.main_window import MainWindow

    settings = QSettings(str(settings_file), QSettings.Format.IniFormat)
    window = MainWindow(folder, settings, offer_demo=offer_demo)
    qtbot.addWidget(window, before_close_func=lambda w: w.close())
    with qtbot.waitSignal(window.search_applied, timeout=60_000):
        window.show()
    return window


@pytest.fixture
def window(qtbot, seeded_library: Path, tmp_path: Path):
    return open_window(qtbot, seeded_library, tmp_path / "settings.ini")

"""GUI test helpers: papers without a database, and settings kept out of the user's config."""

from __future__ import annotations

from datetime import datetime

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

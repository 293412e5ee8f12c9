"""Two windows on one library at once (issue 26, item 8): both edit, at the same
moment; each shows the other's change within the library watch's poll; nothing is lost.

Each window has its own writer thread, and the write lock is per thread, so the two
exclude each other as two programs would (services/runtime/write_lock.py)."""

from __future__ import annotations

from pathlib import Path

from paperdesk.core.models import Status
from tests.gui.conftest import open_window

WAIT_MS = 15_000


def shown(window, paper_id: int):  # type: ignore[no-untyped-def]
    """The paper as the window's table shows it (its cached page, not the database)."""
    row = window.model.row_of(paper_id)
    return None if row is None else window.model.paper_at(row)


def test_two_windows_edit_at_once_and_each_sees_the_other(
    qtbot, seeded_library: Path, tmp_path: Path
) -> None:
    first = open_window(qtbot, seeded_library, tmp_path / "first.ini")
    second = open_window(qtbot, seeded_library, tmp_path / "second.ini")
    ids = first.model.ids()
    rated, tagged = ids[0], ids[1]
    assert shown(second, rated).rating == 0 and "from-second" not in shown(first, tagged).tags

    first.table.select_ids([rated], rated)
    second.table.select_ids([tagged], tagged)
    with (
        qtbot.waitSignal(first.changes_applied, timeout=WAIT_MS),
        qtbot.waitSignal(second.changes_applied, timeout=WAIT_MS),
    ):
        first.commands.set_rating(5)  # both writes are under way at once
        second.commands.add_tags(["from-second"])
        second.commands.set_status(Status.TO_READ)

    qtbot.waitUntil(lambda: shown(second, rated).rating == 5, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "from-second" in shown(first, tagged).tags, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: shown(first, tagged).status == Status.TO_READ, timeout=WAIT_MS)
    library = first.desk._library
    assert library.papers.get(rated).rating == 5
    paper = library.papers.get(tagged)
    assert "from-second" in paper.tags and paper.status == Status.TO_READ
    # Three actions, one undo step each, whatever order the lock gave them.
    recent = [e.action for e in library.history.recent()][:3]
    assert sorted(recent) == ["Add tag from-second", "Rate 5 stars", "Set status to-read"]

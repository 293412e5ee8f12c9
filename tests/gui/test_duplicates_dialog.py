"""Issue 9: pairs an import kept apart are offered in the window too, to merge or keep apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import duplicates, importing
from tests.gui.conftest import open_window
from tests.gui.test_main_window import WAIT_MS

# The same title, kept apart on import: no author in common, and two years apart.
PAIRS = """
@article{c1, author={A. One}, title={Letters}, journal={TUGboat}, year=1990}
@article{c2, author={B. Two}, title={Letters}, journal={TUGboat}, year=1993}
@techreport{t1, author={E. Five}, title={Fast sorting of things}, institution={MIT}, year=2001}
@article{t2, author={E. Five}, title={Fast sorting of things}, journal={JACM}, year=2004}
"""


@pytest.fixture
def window(qtbot, seeded_library: Path, tmp_path: Path):
    source = tmp_path / "pairs.bib"
    source.write_text(PAIRS, encoding="utf-8")
    with Desk.open(seeded_library) as desk:
        report = importing.import_files(desk, [source])
        assert report.files[0].added == 4, report.summary()
    return open_window(qtbot, seeded_library, tmp_path / "settings.ini")


def groups(dialog) -> list[list[str]]:
    """Each group's paper titles, as listed."""
    tree = dialog.groups
    return [
        [tree.topLevelItem(g).child(c).text(0) for c in range(tree.topLevelItem(g).childCount())]
        for g in range(tree.topLevelItemCount())
    ]


def test_kept_apart_pairs_are_offered_and_merge_or_keep_apart_decides(qtbot, window):
    total = window.desk._library.papers.count()
    window.menus.duplicates_action.trigger()
    dialog = window.commands.duplicates_dialog
    qtbot.waitUntil(lambda: dialog.groups.topLevelItemCount() > 0, timeout=WAIT_MS)
    offered = groups(dialog)
    assert ["Letters", "Letters"] in offered
    assert ["Fast sorting of things", "Fast sorting of things"] in offered
    reasons = [dialog.groups.topLevelItem(g).text(0) for g in range(len(offered))]
    assert any("no author in common" in reason for reason in reasons), reasons

    def choose(title: str) -> None:
        tree = dialog.groups
        for g in range(tree.topLevelItemCount()):
            if tree.topLevelItem(g).child(0).text(0) == title:
                tree.setCurrentItem(tree.topLevelItem(g).child(1))  # a paper's row: its group
                return
        raise AssertionError(f"{title} is not offered")

    choose("Letters")
    dialog.apart_button.click()
    qtbot.waitUntil(lambda: ["Letters", "Letters"] not in groups(dialog), timeout=WAIT_MS)
    assert window.desk._library.papers.count() == total

    choose("Fast sorting of things")
    dialog.merge_button.click()
    qtbot.waitUntil(lambda: window.desk._library.papers.count() == total - 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: ["Fast sorting of things"] * 2 not in groups(dialog), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "Merge" in window.menus.undo_action.text(), timeout=WAIT_MS)
    # Kept apart for good: not offered again, not even to a new search.
    letters = {
        p.id
        for p in window.desk._library.papers.get_many(range(1, total + 1))
        if p.title == "Letters"
    }
    assert all(set(c.paper_ids) != letters for c in duplicates.find_clusters(window.desk))

"""The read services the GUI and the CLI use: papers, the overview, the undo labels."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import NotFoundError
from paperdesk.core.models import Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, history, reading, shortlists, stats, tagging
from tests.services.conftest import SEEDS


def test_papers_are_read_one_or_a_page_at_a_time(desk: Desk) -> None:
    assert reading.count(desk) == 38
    page = reading.papers(desk, [12, 3, 99, 12])
    assert [p.id for p in page] == [12, 3]
    assert reading.paper(desk, 12) == page[0]
    with pytest.raises(NotFoundError, match="no paper with id 99"):
        reading.paper(desk, 99)


def test_the_overview_is_what_the_sidebar_and_stats_show(desk: Desk) -> None:
    editing.set_status(desk, [1, 2, 3], Status.TO_READ)
    tagging.add_tags(desk, [1], ["rnn"])
    shortlists.create(desk, "Group", [2, 1])
    overview = stats.overview(desk)
    assert overview.papers == 38 and dict(overview.by_status)["to-read"] == 3
    assert [s.name for s in overview.shortlists] == ["Group"] and overview.shortlists[0].count == 2
    assert [t.name for t in overview.tags] == ["rnn"] and len(overview.imports) == 2
    figures = stats.library_stats(desk)
    assert (figures.papers, figures.by_status) == (overview.papers, overview.by_status)
    assert (figures.tags, figures.shortlists, figures.imports) == (1, 1, 2)


def test_undo_labels_are_one_read(desk: Desk) -> None:
    last_import = f"Import {SEEDS[-1].name}"
    assert history.labels(desk).undo == last_import  # an import is one undo step
    editing.set_rating(desk, [4], 2)
    assert history.labels(desk).undo == "Rate 2 stars"
    history.undo(desk)
    assert (history.labels(desk).undo, history.labels(desk).redo) == (last_import, "Rate 2 stars")

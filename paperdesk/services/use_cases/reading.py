"""Reading papers: one in full, a page of them, how many there are."""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.models import Paper
from paperdesk.services.runtime.desk import Desk


def paper(desk: Desk, paper_id: int) -> Paper:
    """One paper with its tags, shortlists and note (NotFoundError when there is none)."""
    return desk._library.papers.get(paper_id)


def papers(desk: Desk, ids: Sequence[int]) -> list[Paper]:
    """Papers in the order of `ids`, unknown ids left out: a page of the table, a listing."""
    return desk._library.papers.get_many(ids)


def count(desk: Desk) -> int:
    return desk._library.papers.count()


def generation(desk: Desk) -> int:
    """A number every committed change raises, this program's or another's: a window
    compares it over time to notice changes made elsewhere."""
    return desk._library.generation()

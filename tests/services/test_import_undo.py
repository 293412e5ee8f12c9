"""An import is one undo step: undo removes what it added and un-merges what it merged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from paperdesk.config import DB_FILE
from paperdesk.core.models import Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, history, importing, searching
from tests.services.conftest import paper_with

FIXTURES = Path(__file__).parent / "fixtures"
TTT_START = "Self-attention performs well in long context"


def test_undoing_an_import_unmerges_the_papers_it_merged_into(desk: Desk) -> None:
    ttt = paper_with(desk, TTT_START)
    seed_paper = desk._library.papers.get(ttt)
    editing.set_status(desk, [ttt], Status.TO_READ)
    report = importing.import_files(desk, [FIXTURES / "icml2025_pmlr.bib"])
    assert report.files[0].merged == 2 and not desk._library.papers.get(ttt).title_is_derived
    assert history.labels(desk).undo == "Import icml2025_pmlr.bib"

    changes = history.undo(desk)

    assert changes is not None and ttt in changes.paper_ids
    paper = desk._library.papers.get(ttt)
    assert (paper.title, paper.title_is_derived, paper.authors) == (seed_paper.title, True, ())
    assert paper.citation_key is None and paper.status is Status.TO_READ  # the edit before stays
    assert [b.file_name for b in desk._library.imports.batches()][-1] != "icml2025_pmlr.bib"
    assert searching.find_ids(desk, "author:Guestrin").ids == []
    assert history.labels(desk).undo == "Set status to-read"


def test_undoing_an_import_removes_what_it_added_and_redo_brings_it_back(
    desk: Desk,
) -> None:
    before = desk._library.papers.count()
    report = importing.import_files(desk, [FIXTURES / "journal_columns.bib"]).files[0]
    added = report.added_ids
    assert desk._library.papers.count() == before + 10
    assert searching.find_ids(desk, '"Fast Typesetting"').ids

    history.undo(desk)
    assert desk._library.papers.count() == before
    assert desk._library.papers.get_many(added) == []
    assert searching.find_ids(desk, '"Fast Typesetting"').ids == []
    assert history.labels(desk).redo == "Import journal_columns.bib"

    history.redo(desk)
    assert [p.id for p in desk._library.papers.get_many(added)] == added
    assert desk._library.imports.batches()[-1].file_name == "journal_columns.bib"
    assert len(searching.find_ids(desk, '"Fast Typesetting"').ids) == 2
    history.undo(desk)  # and again, now from the ordinary journal the first undo wrote
    assert desk._library.papers.count() == before


def test_the_journal_of_a_large_import_holds_no_copy_of_its_new_papers(
    empty_desk: Desk, tmp_path: Path
) -> None:
    lines = [f"@article{{k{n}, title = {{Paper number {n}}}, year = {{2020}}}}" for n in range(300)]
    many = tmp_path / "many.bib"
    many.write_text("\n".join(lines), encoding="utf-8")
    importing.import_files(empty_desk, [many])
    with sqlite3.connect(empty_desk.folder / DB_FILE) as database:
        (payload_size,) = database.execute("SELECT length(payload) FROM history").fetchone()
    assert payload_size < 2_000  # the id range and the batch row, not 300 papers
    history.undo(empty_desk)
    assert empty_desk._library.papers.count() == 0

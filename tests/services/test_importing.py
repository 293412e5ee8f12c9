"""Importing the real seed lists: derived titles, idempotence, atomicity, bad files."""

from __future__ import annotations

from pathlib import Path

from paperdesk.services import importing, searching
from paperdesk.services.desk import Desk
from tests.services.conftest import SEEDS, paper_with


def test_seeds_import_as_38_icml_2025_papers_with_derived_titles(desk: Desk) -> None:
    papers = [p for batch in desk.library.papers.iter_all() for p in batch]
    assert len(papers) == 38
    assert all(p.venue == "ICML" and p.year == 2025 for p in papers)
    assert all(p.title.strip() and p.title_is_derived for p in papers)
    batches = desk.library.imports.batches()
    assert [(b.format, b.added) for b in batches] == [("seedlist", 19), ("seedlist", 19)]
    assert batches[0].label == "ICML 2025 论文列表" and len(batches[0].sha256) == 64


def test_importing_the_same_file_again_adds_nothing_and_says_so(desk: Desk) -> None:
    report = importing.import_files(desk, SEEDS[:1])
    (file_report,) = report.files
    assert (file_report.added, file_report.unchanged, file_report.missing) == (0, 19, 0)
    assert "nothing new" in file_report.summary()
    assert desk.library.papers.count() == 38


def test_test_time_training_ranks_the_ttt_abstract_first(desk: Desk) -> None:
    ttt = paper_with(desk, "Self-attention performs well in long context")
    assert searching.find_ids(desk, "test-time training").ids[0] == ttt


def test_an_empty_file_is_refused_and_changes_nothing(desk: Desk, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    generation = desk.library.generation()
    report = importing.import_files(desk, [empty])
    assert report.failed and "empty" in report.files[0].error
    assert desk.library.papers.count() == 38 and desk.library.generation() == generation


def test_a_header_without_abstracts_is_refused(desk: Desk, tmp_path: Path) -> None:
    header_only = tmp_path / "list.txt"
    header_only.write_text("ICML 2025 论文列表\n\n", encoding="utf-8")
    report = importing.import_files(desk, [header_only])
    assert report.failed and report.files[0].error
    assert desk.library.papers.count() == 38


def test_a_missing_file_is_reported_by_name(desk: Desk, tmp_path: Path) -> None:
    report = importing.import_files(desk, [tmp_path / "nope.bib"])
    assert report.failed and "cannot read" in report.files[0].error
    assert "nope.bib" in report.summary()


def test_a_cancelled_import_leaves_the_library_as_it_was(empty_desk: Desk) -> None:
    report = importing.import_files(empty_desk, SEEDS[:1], cancelled=lambda: True)
    assert "cancelled" in report.files[0].error
    assert empty_desk.library.papers.count() == 0 and empty_desk.library.imports.batches() == []


def test_a_crash_mid_import_rolls_the_whole_file_back(empty_desk: Desk, monkeypatch) -> None:
    from paperdesk.store import imports

    def explode(*_args: object, **_kwargs: object) -> int:
        raise RuntimeError("power cut")

    monkeypatch.setattr(imports, "record_batch", explode)
    try:
        importing.import_files(empty_desk, SEEDS[:1])
    except RuntimeError:
        pass
    assert empty_desk.library.papers.count() == 0

"""Importing the real seed lists: derived titles, idempotence, atomicity, bad files."""

from __future__ import annotations

from pathlib import Path

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing, searching
from tests.services.conftest import SEEDS, paper_with


def test_seeds_import_as_38_icml_2025_papers_with_derived_titles(desk: Desk) -> None:
    papers = [p for batch in desk._library.papers.iter_all() for p in batch]
    assert len(papers) == 38
    assert all(p.venue == "ICML" and p.year == 2025 for p in papers)
    assert all(p.title.strip() and p.title_is_derived for p in papers)
    batches = desk._library.imports.batches()
    assert [(b.format, b.added) for b in batches] == [("seedlist", 19), ("seedlist", 19)]
    assert batches[0].label == "ICML 2025 论文列表" and len(batches[0].sha256) == 64


def test_importing_the_same_file_again_adds_nothing_and_says_so(desk: Desk) -> None:
    report = importing.import_files(desk, SEEDS[:1])
    (file_report,) = report.files
    assert (file_report.added, file_report.unchanged, file_report.missing) == (0, 19, 0)
    assert "nothing new" in file_report.summary()
    assert desk._library.papers.count() == 38


def test_test_time_training_ranks_the_ttt_abstract_first(desk: Desk) -> None:
    ttt = paper_with(desk, "Self-attention performs well in long context")
    assert searching.find_ids(desk, "test-time training").ids[0] == ttt


def test_an_empty_file_is_refused_and_changes_nothing(desk: Desk, tmp_path: Path) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    generation = desk._library.generation()
    report = importing.import_files(desk, [empty])
    assert report.failed and "empty" in report.files[0].error
    assert desk._library.papers.count() == 38 and desk._library.generation() == generation


def test_a_header_without_abstracts_is_refused(desk: Desk, tmp_path: Path) -> None:
    header_only = tmp_path / "list.txt"
    header_only.write_text("ICML 2025 论文列表\n\n", encoding="utf-8")
    report = importing.import_files(desk, [header_only])
    assert report.failed and report.files[0].error
    assert desk._library.papers.count() == 38


def test_a_missing_file_is_reported_by_name(desk: Desk, tmp_path: Path) -> None:
    report = importing.import_files(desk, [tmp_path / "nope.bib"])
    assert report.failed and "cannot read" in report.files[0].error
    assert "nope.bib" in report.summary()


def test_a_cancelled_import_leaves_the_library_as_it_was(empty_desk: Desk) -> None:
    report = importing.import_files(empty_desk, SEEDS[:1], cancelled=lambda: True)
    assert "cancelled" in report.files[0].error
    assert empty_desk._library.papers.count() == 0 and empty_desk._library.imports.batches() == []


def test_a_crash_mid_import_rolls_the_whole_file_back(empty_desk: Desk, monkeypatch) -> None:
    from paperdesk.store import imports

    def explode(*_args: object, **_kwargs: object) -> int:
        raise RuntimeError("power cut")

    monkeypatch.setattr(imports, "record_batch", explode)
    try:
        importing.import_files(empty_desk, SEEDS[:1])
    except RuntimeError:
        pass
    assert empty_desk._library.papers.count() == 0


# --- one import session for the command line and the window -------------------------
def test_a_cancel_while_indexing_withdraws_the_file_already_written(empty_desk: Desk) -> None:
    """The command line's import is the window's session: a cancel that comes once the
    file is written takes it back (it used to stay, reported as not imported)."""
    indexing: list[str] = []

    def progress(_done: int, _total: int, text: str) -> None:
        if text.startswith("Indexing"):
            indexing.append(text)

    report = importing.import_files(
        empty_desk, SEEDS[:2], progress=progress, cancelled=lambda: bool(indexing)
    )
    assert indexing  # the cancel came while the first file was being indexed
    assert [f.error for f in report.files] == ["cancelled; nothing from this file was imported"]
    assert empty_desk._library.papers.count() == 0
    assert empty_desk._library.imports.batches() == []


def test_a_file_the_library_keeps_changing_under_is_reported_and_the_next_imported(
    empty_desk: Desk, monkeypatch
) -> None:
    from paperdesk.core.errors import StalePlanError

    real_commit = importing.commit
    attempts: list[str] = []

    def stale_for_the_first_file(desk, plan, *args, **kwargs):
        if plan.path == SEEDS[0]:
            attempts.append(plan.path.name)
            raise StalePlanError("a paper it merges into changed")
        return real_commit(desk, plan, *args, **kwargs)

    monkeypatch.setattr(importing, "commit", stale_for_the_first_file)
    report = importing.import_files(empty_desk, SEEDS[:2])
    assert len(attempts) == importing.PLAN_ATTEMPTS
    first, second = report.files
    assert first.error.startswith("the library kept changing")
    assert second.added == 19 and not second.error
    assert empty_desk._library.papers.count() == 19

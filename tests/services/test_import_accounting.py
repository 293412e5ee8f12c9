"""Every entry accounted for, merges only on evidence, citation keys kept (issue 9).

The fixture is a journal bibliography in miniature: regular columns ("Editorial
comments", "Letters", "Calendar") under one title in every issue, a 2001 technical
report and its 2004 journal article, a key used twice, an entry listed twice.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import duplicates, importing, reading
from tests.conftest import BIB_FILES
from tests.services.conftest import SEEDS

JOURNAL = Path(__file__).parent / "fixtures" / "journal_columns.bib"
PMLR_BIB = Path(__file__).parent / "fixtures" / "icml2025_pmlr.bib"


def import_one(desk: Desk, path: Path) -> importing.FileReport:
    (report,) = importing.import_files(desk, [path]).files
    assert report.error is None, report.summary()
    return report


def keys_by_title(desk: Desk) -> dict[str, list[str | None]]:
    found: dict[str, list[str | None]] = {}
    for paper in reading.papers(desk, list(range(1, 100))):
        found.setdefault(paper.title, []).append(paper.citation_key)
    return found


def test_every_entry_read_is_added_merged_or_skipped(empty_desk: Desk) -> None:
    report = import_one(empty_desk, JOURNAL)
    assert (report.read, report.added, report.merged, report.skipped) == (12, 10, 1, 1)
    assert report.read == report.accounted
    assert empty_desk._library.papers.count() == 10
    assert report.problems == [f"{JOURNAL}:81: no title"]
    (match,) = report.matches
    article = report.added_ids[7]  # the eighth entry added: the 2004 article
    assert (match.line, match.paper_id, match.evidence) == (68, article, "same title")


def test_regular_columns_and_a_report_with_its_article_stay_apart(empty_desk: Desk) -> None:
    report = import_one(empty_desk, JOURNAL)
    titles = [p.title for p in reading.papers(empty_desk, report.added_ids)]
    assert titles.count("Editorial comments") == 2
    assert titles.count("Letters") == 2 and titles.count("Calendar") == 2
    assert titles.count("Fast Typesetting of Mathematics") == 2  # the 2001 report, the article
    kept_apart = [w for w in report.warnings if "kept apart" in w]
    assert f"{JOURNAL}:53: kept apart from the entry on line 47 (same title, but years " in (
        "".join(kept_apart)
    )
    assert any("issues 2 and 1, pages 52 and 10" in w for w in kept_apart)


def test_pairs_kept_apart_are_offered_as_duplicates_but_never_merged_by_merge_all(
    empty_desk: Desk,
) -> None:
    import_one(empty_desk, JOURNAL)
    clusters = duplicates.find_clusters(empty_desk)
    letters = [c for c in clusters if "contradicted" in " ".join(c.reasons)]
    assert letters, [c.reasons for c in clusters]
    assert all(c.confidence < duplicates.AUTO_MERGE_CONFIDENCE for c in letters)
    before = empty_desk._library.papers.count()
    duplicates.merge_all(empty_desk)
    assert empty_desk._library.papers.count() == before


def test_a_key_used_twice_in_a_file_keeps_both_papers_and_suffixes_the_second(
    empty_desk: Desk,
) -> None:
    report = import_one(empty_desk, JOURNAL)
    keys = keys_by_title(empty_desk)
    assert keys["Editorial comments"][0] == "Welland:TB1-1-2"
    assert keys["A different paper under a key used above"] == ["Welland:TB1-1-2a"]
    assert (
        f"{JOURNAL}:62: citation key 'Welland:TB1-1-2' is already used by the entry on "
        "line 3; this paper's key is 'Welland:TB1-1-2a'"
    ) in report.warnings


def test_imported_keys_are_stored_and_listed_and_a_bad_one_is_not(empty_desk: Desk) -> None:
    report = import_one(empty_desk, JOURNAL)
    keys = keys_by_title(empty_desk)
    assert keys["Fast Typesetting of Mathematics"] == ["Knuth:2001:report", "Knuth:2004:article"]
    assert keys["No Title Field Here Is Missing"] == [None]
    assert any("'nokey:bad key' cannot be cited" in w for w in report.warnings)


def test_a_key_arriving_with_a_merge_fills_a_paper_without_one(desk: Desk) -> None:
    report = import_one(desk, PMLR_BIB)
    assert report.merged == 2
    keys = {m.paper_id: reading.papers(desk, [m.paper_id])[0].citation_key for m in report.matches}
    assert sorted(keys.values()) == ["pmlr-v267-bian25b", "pmlr-v267-sun25h"]


def test_cli_json_and_text_give_the_accounting(empty_desk: Desk, tmp_path, capsys) -> None:
    from paperdesk.cli import main

    folder = empty_desk.folder
    empty_desk.close()
    assert main(["--library", str(folder), "import", "--json", str(JOURNAL)]) == 0
    (report,) = json.loads(capsys.readouterr().out)
    assert (report["read"], report["added"], report["merged"], report["skipped"]) == (12, 10, 1, 1)
    assert report["matches"][0]["line"] == 68 and report["matches"][0]["outcome"] == "merged"
    assert main(["--library", str(folder), "import", str(SEEDS[0])]) == 0
    out = capsys.readouterr().out
    assert "19 entries read: 19 added, 0 merged, 0 already present" in out


@pytest.mark.slow
# The hostile files warn on purpose (a UTF-8 header over Windows-1252 bytes, ...).
@pytest.mark.logs_warnings
def test_every_shared_bibliography_accounts_for_each_entry(tmp_path) -> None:
    files = sorted(p for p in BIB_FILES.rglob("*") if p.suffix in (".bib", ".ris"))
    assert len(files) > 40
    for number, path in enumerate(files):
        with Desk.open(tmp_path / str(number)) as desk:
            (report,) = importing.import_files(desk, [path]).files
            stored = desk._library.papers.count()
        if report.error is None:
            assert report.read == report.accounted, (path, report.summary())
            assert stored == report.added, path
        else:  # a file with nothing to import says why, and imports nothing
            assert stored == 0 and report.error, path


def test_a_file_whose_every_entry_is_skipped_still_counts_them(
    empty_desk: Desk, tmp_path: Path
) -> None:
    """Issue 24: such a file reported `read: 0, skipped: 0`, hiding its entries."""
    broken = tmp_path / "untitled.bib"
    broken.write_text("@article{a, author = {X}}\n@article{b, year = {2020}}\n", encoding="utf-8")
    (report,) = importing.import_files(empty_desk, [broken]).files
    assert report.error is not None and "no entries found" in report.error
    assert (report.read, report.skipped) == (2, 2)
    assert report.problems == [f"{broken}:1: no title", f"{broken}:2: no title"]

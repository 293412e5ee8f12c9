"""How an import stores its papers: nothing kept twice, rows packed, memory bounded."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime
from pathlib import Path

import pytest

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled
from paperdesk.core.models import Identifiers, PaperRecord, Status, UserData
from paperdesk.core.team_values import MemberNote, TeamValues
from paperdesk.services.runtime import indexing
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, import_spool, importing, searching, tagging
from paperdesk.services.use_cases.import_spool import NewPaperSpool
from paperdesk.store import imports as store_imports
from paperdesk.store.imports import NewPaper
from tests.services.conftest import paper_with


def _jsonl(path: Path, items: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def test_the_abstract_ids_and_authors_are_stored_once_and_the_other_source_fields_stay(
    empty_desk: Desk, tmp_path: Path
) -> None:
    abstract = "We study bandits with long abstracts. " * 20 + "The end."
    url = "https://openreview.net/forum?id=B1QRgziT-"
    item = {
        "title": "Bandits",
        "abstract": abstract,
        "authors": ["Ada Lovelace", "Émile Borel"],
        "url": url,
        "track": "main",
        "pages": "1-9",
    }
    report = importing.import_files(empty_desk, [_jsonl(tmp_path / "list.jsonl", [item])])
    (paper_id,) = report.files[0].added_ids
    paper = empty_desk._library.papers.get(paper_id)
    assert (paper.abstract, paper.ids.url) == (abstract, url)
    assert paper.authors == ("Ada Lovelace", "Émile Borel")
    assert dict(paper.raw_fields) == {"title": "Bandits", "track": "main", "pages": "1-9"}


def test_a_raw_abstract_that_differs_from_the_stored_one_is_kept(
    empty_desk: Desk, tmp_path: Path
) -> None:
    source = _jsonl(tmp_path / "list.jsonl", [{"title": "Bandits", "abstract": "  Padded.  "}])
    report = importing.import_files(empty_desk, [source])
    paper = empty_desk._library.papers.get(report.files[0].added_ids[0])
    assert paper.abstract == "Padded."
    assert dict(paper.raw_fields)["abstract"] == "  Padded.  "


def test_a_new_library_has_16_kib_pages(empty_desk: Desk) -> None:
    with sqlite3.connect(empty_desk.db_path) as connection:
        assert connection.execute("PRAGMA page_size").fetchone()[0] == 16384


def _indexes(desk: Desk) -> list[tuple[str, str]]:
    with sqlite3.connect(desk.db_path) as connection:
        query = "SELECT name, sql FROM sqlite_master WHERE type = 'index' ORDER BY name"
        return connection.execute(query).fetchall()


def test_a_large_import_builds_its_tables_indexes_after_the_rows_as_they_were(
    empty_desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_imports, "DEFERRED_INDEXES_FROM", 3)
    before = _indexes(empty_desk)
    entries = [{"title": f"Paper {n}", "doi": f"10.1/{n}"} for n in range(5)]
    report = importing.import_files(empty_desk, [_jsonl(tmp_path / "list.jsonl", entries)])
    assert report.files[0].added == 5
    assert _indexes(empty_desk) == before
    with sqlite3.connect(empty_desk.db_path) as connection:
        plan = connection.execute("EXPLAIN QUERY PLAN SELECT id FROM papers WHERE doi = '10.1/3'")
        assert "INDEX ix_papers_doi" in " ".join(str(row) for row in plan)
    # A second file finds the first one's papers through those indexes.
    again = importing.import_files(empty_desk, [_jsonl(tmp_path / "again.jsonl", entries[:3])])
    assert (again.files[0].added, again.files[0].unchanged) == (0, 3)


def test_a_large_import_cancelled_while_writing_leaves_the_indexes_as_they_were(
    empty_desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_imports, "DEFERRED_INDEXES_FROM", 3)
    monkeypatch.setattr(import_spool, "CHUNK", 2)
    before = _indexes(empty_desk)
    entries = [{"title": f"Paper {n}"} for n in range(5)]
    plan = importing.plan_file(empty_desk, _jsonl(tmp_path / "list.jsonl", entries))
    chunks = iter(range(10))
    with pytest.raises(Cancelled):  # after the first chunk of rows went in
        importing.commit(empty_desk, plan, cancelled=lambda: next(chunks) > 0, index=False)
    assert _indexes(empty_desk) == before
    assert empty_desk._library.papers.count() == 0


def test_a_large_import_into_a_larger_library_cancelled_leaves_the_cache_as_it_was(
    empty_desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_imports, "DEFERRED_INDEXES_FROM", 3)
    monkeypatch.setattr(import_spool, "CHUNK", 2)
    held = [{"title": f"Paper {n}"} for n in range(5)]
    importing.import_files(empty_desk, [_jsonl(tmp_path / "held.jsonl", held)])
    entries = [{"title": f"Another paper {n}"} for n in range(4)]
    plan = importing.plan_file(empty_desk, _jsonl(tmp_path / "list.jsonl", entries))
    chunks = iter(range(10))
    with pytest.raises(Cancelled):
        importing.commit(empty_desk, plan, cancelled=lambda: next(chunks) > 0, index=False)
    assert empty_desk._library.papers.count() == 5
    with empty_desk._library._db.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA cache_size").scalar() == -2000


def test_the_spool_gives_back_every_paper_in_order_by_chunk_and_by_place() -> None:
    papers = [
        NewPaper(
            PaperRecord(
                f"Paper {n}",
                authors=("A. Author",),
                ids=Identifiers(doi=f"10.1/{n}"),
                raw_fields=(("pages", str(n)),),
                line=n,
                user=UserData(
                    tags=("rl",),
                    status=Status.TO_READ,
                    shortlists=("Reading group",),
                    shortlist_places=(("Reading group", n),),
                    # a team library's export: everyone's values come back too
                    team=TeamValues(
                        (("alice", 4),), (MemberNote("bob", "why", datetime(2025, 1, n + 1)),)
                    ),
                )
                if n % 2
                else UserData(),
            ),
            {"fingerprint": f"f{n}"},
            f"key{n}" if n % 3 else None,
        )
        for n in range(7)
    ]
    spool = NewPaperSpool(chunk=3)
    for paper in papers:
        spool.append(paper)
    assert len(spool) == 7
    assert [paper for chunk in spool.chunks() for paper in chunk] == papers
    assert [len(chunk) for chunk in spool.chunks()] == [3, 3, 1]
    assert [spool[n] for n in (0, 4, 6, -7, -1)] == [papers[n] for n in (0, 4, 6, 0, 6)]


def test_an_entry_merges_into_an_earlier_one_already_written_to_the_spool(
    empty_desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(import_spool, "CHUNK", 2)
    entries: list[dict[str, object]] = [
        {"title": f"Paper number {n}", "abstract": f"Abstract {n}.", "citation_key": "same"}
        for n in range(5)
    ]
    entries.append({"title": "Paper number 0", "venue": "ICML", "year": 2020})
    report = importing.import_files(empty_desk, [_jsonl(tmp_path / "list.jsonl", entries)])
    (file,) = report.files
    assert (file.read, file.added, file.merged) == (6, 5, 1)
    first = empty_desk._library.papers.get(file.added_ids[0])
    assert (first.title, first.venue, first.year) == ("Paper number 0", "ICML", 2020)
    keys = [empty_desk._library.papers.get(i).citation_key for i in file.added_ids]
    assert keys == ["same", "samea", "sameb", "samec", "samed"]
    assert "list.jsonl:2: citation key 'same' is already used by the entry on line 1" in "\n".join(
        file.warnings
    )


def test_a_withdrawn_import_leaves_the_library_as_before_and_no_history(
    desk: Desk, tmp_path: Path
) -> None:
    seed = desk._library.papers.get(paper_with(desk, "Self-attention performs well"))
    entries: list[dict[str, object]] = [
        {"title": "A real title", "abstract": seed.abstract, "doi": "10.1/x", "tags": ["fresh"]},
        *({"title": f"New paper {n}", "abstract": f"Zebras gallop {n}.", "tags": ["fresh"]}
          for n in range(3)),
    ]  # fmt: skip
    before = (desk._library.papers.count(), desk._library.history.recent(3), seed)
    report = importing.import_files(desk, [_jsonl(tmp_path / "list.jsonl", entries)])
    assert (report.files[0].added, report.files[0].merged) == (3, 1)
    assert searching.find_ids(desk, "zebras").ids

    withdrawn = importing.withdraw(desk, report.changes)

    assert withdrawn is not None and withdrawn.papers_added_or_removed
    after = (desk._library.papers.count(), desk._library.history.recent(3))
    assert (*after, desk._library.papers.get(seed.id)) == before
    assert "fresh" not in [tag.name for tag in desk._library.tags.all()]
    assert desk._library.imports.batches()[-1].file_name != "list.jsonl"
    assert searching.find_ids(desk, "zebras").ids == []


def test_an_import_stays_once_something_else_was_done(desk: Desk, tmp_path: Path) -> None:
    source = _jsonl(tmp_path / "list.jsonl", [{"title": "Zebras", "abstract": "Zebras run."}])
    report = importing.import_files(desk, [source])
    tagging.add_tags(desk, report.files[0].added_ids, ["kept"])
    assert importing.withdraw(desk, report.changes) is None
    assert desk._library.papers.count() == 39


def _zebras(tmp_path: Path, count: int = 3) -> Path:
    entries = [{"title": f"Zebra {n}", "abstract": f"Zebras gallop {n}."} for n in range(count)]
    return _jsonl(tmp_path / "zebras.jsonl", entries)


def _stored(desk: Desk, source: Path) -> tuple[importing.FileReport, Changes]:
    return importing.commit(desk, importing.plan_file(desk, source), index=False)


def test_searches_say_the_index_is_behind_while_an_import_is_indexed(
    desk: Desk, tmp_path: Path
) -> None:
    report, changes = _stored(desk, _zebras(tmp_path))
    behind_seen: list[int] = []

    def progress(_done: int, _total: int, _message: str) -> None:
        behind_seen.append(searching.find_ids(desk, "zebras").index_behind)

    importing.index_import(desk, report, changes, progress)
    assert max(behind_seen) == 3
    assert searching.find_ids(desk, "zebras").index_behind == 0
    assert len(searching.find_ids(desk, "zebras").ids) == 3
    assert desk._index.why_stale(desk._library.generation()) is None


def test_an_interrupted_indexing_resumes_at_the_next_open_without_a_rebuild(
    desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    report, changes = _stored(desk, _zebras(tmp_path))
    with pytest.raises(Cancelled):  # as if the program were killed while indexing
        importing.index_import(desk, report, changes, cancelled=lambda: True)
    desk.close(catch_up=False)

    def no_rebuild(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the whole library was indexed again")

    monkeypatch.setattr(indexing, "rebuild", no_rebuild)
    peek = Desk.open(desk.folder, ensure_index=False)
    assert peek.papers_behind() == len(report.added_ids)
    peek.close(catch_up=False)
    with Desk.open(desk.folder) as again:
        assert again.papers_behind() == 0
        assert len(searching.find_ids(again, "zebras").ids) == 3
        assert again._index.why_stale(again._library.generation()) is None


def test_papers_left_to_index_are_forgotten_once_the_library_changed(
    desk: Desk, tmp_path: Path
) -> None:
    report, _changes = _stored(desk, _zebras(tmp_path))
    editing.set_rating(desk, [report.added_ids[0]], 4)  # the library changed since
    desk.close(catch_up=False)
    with Desk.open(desk.folder) as again:
        assert again.papers_behind() == 0
        assert len(searching.find_ids(again, "zebras").ids) == 3  # rebuilt


def test_an_import_into_an_empty_library_looks_nothing_up_there_but_matches_its_own_entries(
    empty_desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def looked_up(*_args: object) -> None:
        raise AssertionError("the empty library was searched for match keys")

    monkeypatch.setattr(empty_desk._library.papers, "holders", looked_up)
    entries = [{"title": "Deep Sets", "year": 2017}, {"title": "Deep Sets", "venue": "NeurIPS"}]
    report = importing.import_files(empty_desk, [_jsonl(tmp_path / "list.jsonl", entries)])
    (file,) = report.files
    assert (file.error, file.added, file.merged) == (None, 1, 1)
    monkeypatch.undo()
    again = importing.import_files(empty_desk, [_jsonl(tmp_path / "again.jsonl", entries[:1])])
    assert (again.files[0].added, again.files[0].unchanged) == (0, 1)

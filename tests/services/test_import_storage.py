"""How an import stores its papers: nothing kept twice, rows packed, memory bounded."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from paperdesk.services import importing
from paperdesk.services.desk import Desk


def _jsonl(path: Path, items: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    return path


def test_the_abstract_is_stored_once_and_the_other_source_fields_stay(
    empty_desk: Desk, tmp_path: Path
) -> None:
    abstract = "We study bandits with long abstracts. " * 20 + "The end."
    source = _jsonl(
        tmp_path / "list.jsonl",
        [{"title": "Bandits", "abstract": abstract, "track": "main", "pages": "1-9"}],
    )
    report = importing.import_files(empty_desk, [source])
    (paper_id,) = report.files[0].added_ids
    paper = empty_desk.library.papers.get(paper_id)
    assert paper.abstract == abstract
    assert dict(paper.raw_fields) == {"title": "Bandits", "track": "main", "pages": "1-9"}


def test_a_raw_abstract_that_differs_from_the_stored_one_is_kept(
    empty_desk: Desk, tmp_path: Path
) -> None:
    source = _jsonl(tmp_path / "list.jsonl", [{"title": "Bandits", "abstract": "  Padded.  "}])
    report = importing.import_files(empty_desk, [source])
    paper = empty_desk.library.papers.get(report.files[0].added_ids[0])
    assert paper.abstract == "Padded."
    assert dict(paper.raw_fields)["abstract"] == "  Padded.  "


def test_a_new_library_has_16_kib_pages(empty_desk: Desk) -> None:
    with sqlite3.connect(empty_desk.db_path) as connection:
        assert connection.execute("PRAGMA page_size").fetchone()[0] == 16384

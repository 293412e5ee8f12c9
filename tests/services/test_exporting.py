"""Exports that real tools accept: BibTeX parsed by bibtexparser and pybtex, CSV read back,
stored citation keys, and files that appear whole or not at all."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import bibtexparser
import pybtex.database
import pytest

from paperdesk.core.errors import Cancelled, InvalidValueError, PaperdeskError
from paperdesk.core.models import Paper, Status
from paperdesk.core.scope import Scope
from paperdesk.formats.bibtex_writer import write_bibtex
from paperdesk.formats.csv_reader import read_csv
from paperdesk.formats.json_reader import read_json
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    editing,
    exporting,
    history,
    notes,
    searching,
    shortlists,
    tagging,
)
from tests.conftest import lines_of

HOSTILE_NOTES = [
    "Closing brace } first",
    "100% sure; see \\cite{x} and #3 & co",
    "unbalanced { open brace",
    "trailing backslash \\",
    "@misc{injected, title={x}}",
    '=HYPERLINK("http://evil")',
]


def assert_parses_everywhere(text: str, expected: int) -> None:
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == [], [b.error for b in library.failed_blocks]
    assert len(library.entries) == expected
    assert len(pybtex.database.parse_string(text, "bibtex").entries) == expected


@pytest.fixture
def hostile_shortlist(desk: Desk) -> list[int]:
    ids = [36, 7, 1, 2, 3, 4]
    shortlists.create(desk, "Hostile")
    shortlists.add(desk, "Hostile", ids)
    for paper_id, note in zip(ids, HOSTILE_NOTES, strict=True):
        notes.set_note(desk, paper_id, note)
    tagging.add_tags(desk, ids, ["c++", "50%"])
    editing.set_rating(desk, [36], 5)
    editing.set_title(desk, 7, "WildChat-50M: A Deep Dive into {Synthetic} Data & $\\alpha$ Models")
    return ids


def test_seed_library_exports_to_bibtex_both_parsers_accept(desk: Desk, tmp_path: Path) -> None:
    for flavour in ("bibtex", "biblatex"):
        target = tmp_path / f"seeds-{flavour}.bib"
        result = exporting.export(desk, Scope(), target, options=exporting.Options(flavour=flavour))
        assert result.count == 38
        text = target.read_text(encoding="utf-8")
        assert_parses_everywhere(text, 38)
        if flavour == "bibtex":
            assert text.isascii()


def test_hostile_shortlist_exports_in_order_and_parses(
    desk: Desk, hostile_shortlist: list[int], tmp_path: Path
) -> None:
    target = tmp_path / "hostile.bib"
    exporting.export(desk, Scope.of_shortlist("Hostile"), target)
    text = target.read_text(encoding="utf-8")
    assert_parses_everywhere(text, 6)
    entries = bibtexparser.parse_string(text).entries
    keys = exporting.citation_keys(desk)
    assert [e.key for e in entries] == [keys[i] for i in hostile_shortlist]
    assert entries[0]["x-paperdesk-rating"] == "5"
    assert "c++" in entries[0]["keywords"]


def test_an_export_changes_nothing_in_the_library(desk: Desk, tmp_path: Path) -> None:
    """Issue 26: one export stored 2,000 keys in the database, outside history."""
    generation, undo = desk._library.generation(), history.labels(desk).undo
    exporting.export(desk, Scope(), tmp_path / "all.bib")
    exporting.export(desk, Scope(), tmp_path / "all.csv")
    assert desk._library.generation() == generation
    assert history.labels(desk).undo == undo
    assert all(p.citation_key is None for batch in desk._library.papers.iter_all() for p in batch)


def test_a_paper_gets_the_same_key_in_every_export(desk: Desk, tmp_path: Path) -> None:
    def keys_in(name: str) -> list[str]:
        text = (tmp_path / name).read_text(encoding="utf-8")
        return [entry.key for entry in bibtexparser.parse_string(text).entries]

    keys = exporting.citation_keys(desk)
    exporting.export(desk, Scope.of_ids((36,)), tmp_path / "one.bib")
    exporting.export(desk, Scope.of_ids((1, 36)), tmp_path / "two.bib")
    exporting.export(desk, Scope(), tmp_path / "all.bib")
    assert keys_in("one.bib") == [keys[36]]
    assert keys_in("two.bib") == [keys[1], keys[36]]
    assert sorted(keys_in("all.bib")) == sorted(keys.values())
    assert len(set(keys.values())) == 38
    assert exporting.citation_keys(desk) == keys


def test_an_export_is_no_undo_step_and_undo_still_undoes_the_last_action(
    desk: Desk, tmp_path: Path
) -> None:
    """Issue 13: `rate; export; undo` undid the keys the export stored, not the rating."""
    editing.set_rating(desk, [36], 4)
    exporting.export(desk, Scope(), tmp_path / "all.bib")
    assert history.labels(desk).undo == "Rate 4 stars"
    history.undo(desk)
    assert desk._library.papers.get(36).rating == 0


def test_pinned_keys_survive_edits_and_undo_takes_them_back(desk: Desk, tmp_path: Path) -> None:
    first = exporting.citation_keys(desk)[36]
    assert first.startswith("anon2025")
    changes = exporting.pin_keys(desk, Scope.of_ids((36, 1)))
    assert changes.paper_ids == {36, 1} and history.labels(desk).undo == "Pin 2 citation keys"
    editing.set_title(
        desk, 36, "Learning to (Learn at Test Time): RNNs with Expressive Hidden States"
    )
    exporting.export(desk, Scope.of_ids((36,)), tmp_path / "b.bib")
    assert f"@inproceedings{{{first}," in (tmp_path / "b.bib").read_text(encoding="utf-8")
    history.undo(desk)  # the title
    history.undo(desk)  # the keys
    assert desk._library.papers.get(36).citation_key is None


def test_a_failed_or_cancelled_export_stores_no_keys(desk: Desk, tmp_path: Path) -> None:
    with pytest.raises(PaperdeskError):
        exporting.export(desk, Scope(), tmp_path / "no-such-folder" / "all.bib")
    with pytest.raises(Cancelled):
        exporting.export(desk, Scope(), tmp_path / "all.bib", cancelled=lambda: True)
    assert all(p.citation_key is None for p in desk._library.papers.get_many([36, 1, 2]))
    assert history.labels(desk).undo != "Assign citation keys"


def test_csv_reads_back_with_csv_module_and_our_reader(
    desk: Desk, hostile_shortlist: list[int], tmp_path: Path
) -> None:
    target = tmp_path / "list.csv"
    exporting.export(
        desk,
        Scope.of_shortlist("Hostile"),
        target,
        options=exporting.Options(excel_bom=True),
    )
    raw = target.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert len(rows) == 6
    assert rows[5]["note"] == '\'=HYPERLINK("http://evil")'  # neutralised formula
    assert rows[0]["note"] == HOSTILE_NOTES[0]
    assert rows[0]["tags"] == "50%; c++"
    assert rows[0]["rating"] == "5"
    records = read_csv(raw.decode("utf-8-sig"), "list.csv").records
    papers = desk._library.papers.get_many(hostile_shortlist)
    assert [r.title for r in records] == [p.title for p in papers]
    assert [r.abstract for r in records] == [p.abstract for p in papers]


def test_markdown_ris_and_jsonl_exports(desk: Desk, tmp_path: Path) -> None:
    for name in ("list.md", "list.ris", "list.jsonl"):
        result = exporting.export(desk, Scope.of_query("graph"), tmp_path / name)
        assert result.count == len(searching.scope_ids(desk, Scope.of_query("graph")))
    assert (tmp_path / "list.md").read_text(encoding="utf-8").startswith("1. ")
    assert (tmp_path / "list.ris").read_text(encoding="utf-8").count("ER  -") == result.count


def test_json_backup_only_for_the_whole_library(desk: Desk, tmp_path: Path) -> None:
    with pytest.raises(InvalidValueError, match="whole library"):
        exporting.export(desk, Scope.of_shortlist("x"), tmp_path / "b.json")
    assert exporting.export(desk, Scope(), tmp_path / "b.json").count == 38


def test_unknown_format_and_extension_are_explained(desk: Desk, tmp_path: Path) -> None:
    with pytest.raises(InvalidValueError, match="cannot tell the format"):
        exporting.export(desk, Scope(), tmp_path / "out.docx")
    with pytest.raises(InvalidValueError, match="unknown export format"):
        exporting.export(desk, Scope(), tmp_path / "out.bib", format="word")


def test_unwritable_target_leaves_nothing(desk: Desk, tmp_path: Path) -> None:
    with pytest.raises(PaperdeskError, match="does not exist"):
        exporting.export(desk, Scope(), tmp_path / "missing" / "out.bib")
    folder_as_target = tmp_path / "a-folder.bib"
    folder_as_target.mkdir()
    with pytest.raises(PaperdeskError):
        exporting.export(desk, Scope(), folder_as_target)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-folder.bib", "library"]


def test_cancelled_export_leaves_the_old_file_and_no_temp(desk: Desk, tmp_path: Path) -> None:
    target = tmp_path / "out.bib"
    target.write_text("old content", encoding="utf-8")
    with pytest.raises(Cancelled):
        exporting.export(desk, Scope(), target, cancelled=lambda: True, overwrite=True)
    assert target.read_text(encoding="utf-8") == "old content"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_preview_shows_the_first_entries(desk: Desk) -> None:
    text = exporting.preview(desk, Scope(), "bibtex", limit=2)
    assert text.count("@inproceedings{") == 2


def test_corpus_bibtex_parses_with_both_parsers(corpus_file: Path) -> None:
    records = read_json(corpus_file.read_text(encoding="utf-8"), "corpus").records
    from datetime import datetime

    from paperdesk.core.models import Identifiers

    stamp = datetime(2025, 1, 1)
    papers = [
        Paper(
            id=n,
            title=r.title,
            title_is_derived=False,
            authors=r.authors,
            venue=r.venue,
            year=r.year,
            abstract=r.abstract,
            ids=r.ids or Identifiers(),
            status=Status.NEW,
            rating=0,
            added=stamp,
            updated=stamp,
            fingerprint="",
            raw_fields=r.raw_fields,
        )
        for n, r in enumerate(records, start=1)
    ]
    stream = io.StringIO()
    write_bibtex(papers, stream)
    assert_parses_everywhere(stream.getvalue(), len(records))
    assert len(records) == lines_of(corpus_file)

"""Picking the reader: extension first, content when the extension is wrong or missing."""

from __future__ import annotations

import io
import json
from dataclasses import fields, replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.errors import FormatError
from paperdesk.core.models import BibtexDefinitions
from paperdesk.formats.registry import (
    BACKUP,
    EXTENSIONS,
    FORMATS,
    READERS,
    WRITERS,
    BackupFileError,
    WriteOptions,
    WriterFormat,
    detect_format,
    is_backup,
    read_file,
)
from tests.factories import make_paper

BIBTEX = "@article{k,\n  title = {Attention Is All You Need},\n  year = 2017\n}\n"
RIS = "TY  - JOUR\nTI  - Attention Is All You Need\nPY  - 2017\nER  - \n"
CSV = "title,year\nAttention Is All You Need,2017\n"
TSV = "Title\tPublication Year\nAttention Is All You Need\t2017\n"
JSONL = '{"title": "Attention Is All You Need", "year": 2017}\n{"title": "Second"}\n'
JSON_ARRAY = '[\n  {"title": "Attention Is All You Need", "year": 2017}\n]\n'
BACKUP_TEXT = json.dumps({"papers": [], "paperdesk_backup": {"version": 1}})


def test_formats_are_named() -> None:
    assert FORMATS == ("bibtex", "ris", "csv", "json", "seedlist")


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("refs.bib", BIBTEX, "bibtex"),
        ("refs.BIBTEX", BIBTEX, "bibtex"),
        ("export.ris", RIS, "ris"),
        ("sheet.csv", CSV, "csv"),
        ("sheet.tsv", TSV, "csv"),
        ("papers.json", JSON_ARRAY, "json"),
        ("papers.jsonl", JSONL, "json"),
        ("papers.ndjson", JSONL, "json"),
        # misleading extensions: the content is unmistakable
        ("refs.txt", BIBTEX, "bibtex"),
        ("export.bib", RIS, "ris"),
        ("papers.csv", JSON_ARRAY, "json"),
        ("sheet.txt", TSV, "csv"),
        # no extension or an unknown one
        ("download", BIBTEX, "bibtex"),
        ("download.dat", JSONL, "json"),
        ("download.export", RIS, "ris"),
        ("table.xyz", CSV, "csv"),
        # the content says nothing: the extension decides and the reader explains
        ("empty.bib", "", "bibtex"),
        ("broken.ris", "JF  - Journal\nT1  - Title\nER  -\n", "ris"),
        ("odd.csv", "name,colour\nx,red\n", "csv"),
        ("backup.json", BACKUP_TEXT, BACKUP),
        ("backup.dat", BACKUP_TEXT, BACKUP),
    ],
)
def test_detect_format(name: str, text: str, expected: str) -> None:
    assert detect_format(Path(name), text) == expected


def test_unknown_content_without_a_known_extension_is_a_format_error() -> None:
    with pytest.raises(FormatError) as caught:
        detect_format(Path("notes.md"), "")
    assert str(caught.value).startswith("notes.md: unknown file format")


def test_seed_lists_are_detected(seed_files: list[Path]) -> None:
    assert seed_files, "the project ships seed lists"
    for path in seed_files:
        assert detect_format(path, path.read_text(encoding="utf-8")) == "seedlist"
        assert detect_format(path.with_suffix(""), path.read_text(encoding="utf-8")) == "seedlist"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (BACKUP_TEXT, True),
        ("\ufeff  " + BACKUP_TEXT, True),
        (json.dumps({"papers": [], "meta": {"paperdesk_backup": 1}}), False),
        (json.dumps([{"paperdesk_backup": 1}]), False),
        ('{"paperdesk_backup": 1', False),
        (json.dumps({"title": "paperdesk_backup"}), False),
        (JSONL, False),
        ("", False),
    ],
)
def test_is_backup(text: str, expected: bool) -> None:
    assert is_backup(text) is expected


def test_read_file_decodes_detects_and_reads(tmp_path: Path) -> None:
    path = tmp_path / "jabref.bib"
    path.write_bytes("@article{k, author = {Zoë Saldaña}, title = {Façade}}\n".encode("cp1252"))
    result = read_file(path)
    assert (result.format, result.label) == ("bibtex", "jabref.bib")
    (record,) = result.records
    assert (record.title, record.authors) == ("Façade", ("Zoë Saldaña",))


def test_read_file_obeys_a_declared_encoding(tmp_path: Path) -> None:
    path = tmp_path / "prices.csv"
    path.write_bytes("title\nPrix 5 €\n".encode("iso8859_15"))
    assert read_file(path, encoding="iso8859_15").records[0].title == "Prix 5 €"


def test_problems_name_the_file_as_given(tmp_path: Path) -> None:
    path = tmp_path / "mixed.jsonl"
    path.write_text('{"title": "Good"}\nnot json\n', encoding="utf-8")
    (problem,) = read_file(path).problems
    assert str(problem).startswith(f"{path}:2: not valid JSON")


def test_a_backup_is_refused_so_the_caller_can_restore_it(tmp_path: Path) -> None:
    path = tmp_path / "library-backup.json"
    path.write_text(BACKUP_TEXT, encoding="utf-8")
    with pytest.raises(BackupFileError, match="restore it instead of importing"):
        read_file(path)


@pytest.mark.parametrize("make", ["missing", "directory"])
def test_unreadable_paths_are_format_errors(tmp_path: Path, make: str) -> None:
    path = tmp_path / "refs.bib"
    if make == "directory":
        path.mkdir()
    with pytest.raises(FormatError) as caught:
        read_file(path)
    assert str(caught.value).startswith(f"{path}: cannot read the file")


# Fragments of every format, so random text often looks nearly right: the cases where
# a parser's assumptions break.
FRAGMENTS = [
    "@article{",
    "@string{",
    "@comment{",
    "@set{",
    "title = ",
    "author = ",
    " and ",
    "others",
    "crossref = {",
    "{",
    "}",
    '"',
    "#",
    ",",
    "=",
    "\n",
    '\\"a',
    "$x$",
    "%",
    "\\url{",
    "TY  - ",
    "TI  - ",
    "AU  - ",
    "ER  - ",
    "TY - ",
    "[",
    "]",
    '{"title": ',
    '"x"',
    "null",
    "title,authors\n",
    "\t",
    ";",
    "2020",
    "Last, First",
    "https://arxiv.org/abs/2401.01234",
    "\ufeff",
    "\r",
    "\n\n",
]


@settings(max_examples=150, deadline=None)
@given(
    format=st.sampled_from(FORMATS),
    text=st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=40).map("".join),
)
def test_any_text_gives_records_or_a_format_error(format: str, text: str) -> None:
    try:
        result = READERS[format].read(text, "fuzz.txt")
    except FormatError as error:
        assert error.file == "fuzz.txt"
    else:
        assert result.records
        assert all(record.title for record in result.records)


# --- the registries themselves --------------------------------------------------------


def test_every_extension_names_one_reader() -> None:
    assert EXTENSIONS == {
        ".bib": "bibtex",
        ".bibtex": "bibtex",
        ".ris": "ris",
        ".csv": "csv",
        ".tsv": "csv",
        ".json": "json",
        ".jsonl": "json",
        ".ndjson": "json",
        ".txt": "seedlist",
    }


def test_the_unknown_format_message_names_every_reader_and_extension() -> None:
    with pytest.raises(FormatError) as caught:
        detect_format(Path("notes.md"), "")
    message = str(caught.value)
    for reader in READERS.values():
        assert reader.label in message
        for extension in reader.extensions:
            assert extension in message


def test_writers_are_named_with_the_extension_a_new_file_gets() -> None:
    assert {name: w.extensions[0] for name, w in WRITERS.items()} == {
        "bibtex": ".bib",
        "csv": ".csv",
        "markdown": ".md",
        "ris": ".ris",
        "jsonl": ".jsonl",
    }
    assert all(w.label for w in WRITERS.values())


_PAPERS = [
    make_paper(title="Über Graphen", authors=("Jörg Müller",), tags=("graphs",)),
    make_paper(id=2, title="Sparse *bold* graphs", citation_key=None),
]
# A value for every option that changes what some writer writes.
_CHANGED = WriteOptions(
    flavour="biblatex",
    excel_bom=True,
    key_pattern="{auth}",
    heading="My list",
    tag_colours=(("graphs", "#ff8800"),),
    definitions=BibtexDefinitions(("\\providecommand{\\GF}{graph flow}",), (("jmlr", "JMLR"),)),
)


def _written(writer: WriterFormat, options: WriteOptions) -> str:
    stream = io.StringIO()
    assert writer.write(_PAPERS, stream, options) == len(_PAPERS)
    return stream.getvalue()


@pytest.mark.parametrize("writer", WRITERS.values(), ids=list(WRITERS))
def test_a_writer_reads_exactly_the_options_it_lists(writer: WriterFormat) -> None:
    plain = _written(writer, WriteOptions())
    for option in fields(WriteOptions):
        changed = _written(
            writer, replace(WriteOptions(), **{option.name: getattr(_CHANGED, option.name)})
        )
        if option.name in writer.options:
            assert changed != plain, option.name
        else:
            assert changed == plain, option.name

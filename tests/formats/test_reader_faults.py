"""Readers under hostile input (issue 26, items 4 and 6): no traceback, and every value
dropped or altered is named in a warning for its entry."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.formats import base, streaming
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.csv_reader import looks_like_csv
from paperdesk.formats.field_values import MAX_TITLE_CHARS
from paperdesk.formats.registry import read_file
from paperdesk.formats.streaming import open_records


def test_a_repeated_string_macro_keeps_the_last_definition_with_a_warning() -> None:
    text = (
        "@string{jn = {Journal A}}\n"
        "@article{a, title = {First}, journal = jn}\n"
        "@string{JN = {Journal B}}\n"
        "@article{b, title = {Second}, journal = jn}\n"
    )
    result = read_bibtex(text, "joined.bib")
    assert [r.venue for r in result.records] == ["Journal B", "Journal B"]
    (warning,) = result.warnings
    assert str(warning) == "joined.bib:3: @string JN is defined again: its last definition is used"
    assert result.problems == ()


def test_a_50_mb_line_without_entries_is_refused_in_one_line(tmp_path: Path) -> None:
    for name in ("junk.txt", "junk.csv", "junk.dat"):
        path = tmp_path / name
        path.write_text("x" * 50_000_000 + "\n", encoding="utf-8")
        with pytest.raises(FormatError) as error:
            read_file(path)
        assert "\n" not in str(error.value)


def test_a_csv_cell_over_the_csv_module_s_limit_is_named(tmp_path: Path) -> None:
    path = tmp_path / "big.csv"
    path.write_text("title,abstract\nKept,short\nLost," + "b" * 200_000 + "\n", encoding="utf-8")
    result = read_file(path)
    assert [r.title for r in result.records] == ["Kept"]
    (problem,) = result.problems
    assert problem.line == 3
    assert "a cell in it holds more than 131,072 characters" in problem.reason


# --- item 6: every value dropped or altered is named ----------------------------------


def test_years_that_are_no_years_are_named(tmp_path: Path) -> None:
    table = tmp_path / "years.csv"
    table.write_text(f"title,year\nA,{'1' * 20}\nB,{'2' * 5000}\nC,2020\n", encoding="utf-8")
    lines = tmp_path / "years.jsonl"
    lines.write_text(
        '{"title": "A", "year": 1e308}\n{"title": "B", "year": NaN}\n'
        '{"title": "C", "year": [2020]}\n{"title": "D", "year": 2021}\n',
        encoding="utf-8",
    )
    csv_result, json_result = read_file(table), read_file(lines)
    assert [r.year for r in csv_result.records] == [None, None, 2020]
    assert [str(w) for w in csv_result.warnings] == [
        f"{table}:2: year: '11111111111111111111' is not a year: left out",
        f"{table}:3: year: '222222222222222222222222222222'... (5,000 characters) "
        "is not a year: left out",
    ]
    assert [r.year for r in json_result.records] == [None, None, None, 2021]
    assert [(w.line, w.reason) for w in json_result.warnings] == [
        (1, "year: '1e+308' is not a year: left out"),
        (2, "year: 'nan' is not a year: left out"),
        (3, "year: '[2020]' is not a year: left out"),
    ]


def test_a_two_million_character_title_is_cut_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    path.write_text('{"title": "' + "x" * 2_000_001 + '", "abstract": "A."}\n', encoding="utf-8")
    stream = open_records(path)
    (record,) = [r for chunk in stream.chunks for r in chunk]
    assert len(record.title) == MAX_TITLE_CHARS
    assert [w.reason for w in stream.warnings] == [
        "title: 2,000,001 characters, cut to the first 1,000",
        "title: longer than 100,000 characters: not kept for export",
    ]


def test_text_that_is_not_utf8_is_read_by_a_stated_rule_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "latin.csv"
    path.write_bytes("title,abstract\nGood,fine\nCafé au lait,ok\n".encode("cp1252"))
    result = read_file(path)
    assert [r.title for r in result.records] == ["Good", "Café au lait"]
    (warning,) = result.warnings
    assert warning.line == 3
    assert warning.reason.startswith("not UTF-8 (byte 0xe9 on this line): the file was read as cp")
    assert "save it as UTF-8" in warning.reason


def random_words_seed_list(path: Path, paragraphs: int = 300) -> Path:
    rng = random.Random(6)
    words = [
        "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(3, 9))) for _ in range(5000)
    ]
    body = "\n\n".join(
        " ".join(rng.choices(words, k=rng.randint(25, 200))) for _ in range(paragraphs)
    )
    path.write_text("Some list of papers\n\n" + body + "\n", encoding="utf-8")
    return path


def test_a_seed_list_of_random_words_is_in_doubt(tmp_path: Path, seed_files: list[Path]) -> None:
    result = read_file(random_words_seed_list(tmp_path / "noise.txt"))
    assert result.doubt == (
        "only 0 of its 300 paragraphs hold a sentence: the text may be noise rather than abstracts"
    )
    assert all(read_file(seed).doubt is None for seed in seed_files)


def test_a_block_cut_short_after_its_opening_is_one_line() -> None:
    """Found by the fuzzing: the reason quoted `@misc(` with the line break after it."""
    with pytest.raises(FormatError) as error:
        read_bibtex("@misc(\n0", "cut.bib")
    assert str(error.value) == (
        "cut.bib: no entries found; 1 skipped: line 1: cannot read this @misc: "
        "Unexpectedly reached end of file."
    )


# --- item 2: memory bounded whatever the file -------------------------------------------


@pytest.mark.parametrize(
    ("name", "entry"),
    [
        ("many.bib", "@misc{{k{n}, title={{t{n}}}}}\n"),
        ("many.ris", "TY  - JOUR\nTI  - t{n}\nER  - \n"),
        ("many.json", '{{"title": "t{n}"}},\n'),
        ("many.csv", "t{n}\n"),
        ("many.jsonl", '{{"title": "t{n}"}}\n'),
    ],
)
def test_a_file_over_the_entry_limit_is_refused_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, entry: str
) -> None:
    monkeypatch.setattr(base, "MAX_ENTRIES", 50)
    path = tmp_path / name

    def write(count: int) -> None:
        body = "".join(entry.format(n=n) for n in range(count))
        if name.endswith(".json"):
            body = "[" + body.rstrip(",\n") + "]"
        if name.endswith(".csv"):
            body = "title\n" + body
        path.write_text(body, encoding="utf-8")

    write(50)
    assert sum(len(chunk) for chunk in open_records(path).chunks) == 50
    write(51)
    with pytest.raises(FormatError) as error:
        for _chunk in open_records(path).chunks:
            pass
    assert str(error.value) == (
        f"{path}: more than 50 entries: paperdesk imports up to 50 per file; split it"
    )


def test_a_file_read_whole_is_bounded_in_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(streaming, "WHOLE_FILE_MAX_BYTES", 2_000_000)
    path = tmp_path / "big.bib"
    path.write_text("@misc{k, title={t}, note={" + "x" * 3_000_000 + "}}\n", encoding="utf-8")
    with pytest.raises(FormatError, match="3 MB: BibTeX, RIS, CSV, JSON arrays and seed lists"):
        open_records(path)


def test_a_lone_carriage_return_is_no_traceback(tmp_path: Path) -> None:
    """Found by the fuzzing: `\x00\r\x00` in a .bib raised _csv.Error from the
    entry count's look at the file's format."""
    path = tmp_path / "odd.bib"
    path.write_bytes(b"\x00\r\x00")
    with pytest.raises(FormatError):
        read_file(path)
    assert looks_like_csv("title\rabstract") is False

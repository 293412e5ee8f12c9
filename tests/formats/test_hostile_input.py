"""Hostile input read with bounded memory and time and a one-line message (issue 13,
items 5, 8 and 9): macro bombs, endless devices, huge files, deep nesting, absurd
years, file names that are not UTF-8, junk taken for a seed list, NUL bytes."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.formats import registry
from paperdesk.formats.bibtex_reader import MAX_EXPANSION_CHARS, read_bibtex
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.registry import read_file
from paperdesk.formats.seedlist import read_seedlist
from paperdesk.text import to_html, to_plain

ABSTRACT = (
    "We propose a method for learning sparse graphs from data, and show that it "
    "recovers the true structure with high probability under mild assumptions."
)


def doubling_bomb(levels: int) -> str:
    lines = ['@string{s0 = "xxxxxxxxxx"}']
    lines += [f"@string{{s{n} = s{n - 1} # s{n - 1}}}" for n in range(1, levels + 1)]
    lines.append(f"@article{{boom, title = {{Boom}}, note = s{levels}}}")
    return "\n".join(lines)


def test_a_string_doubling_bomb_is_stopped_quickly() -> None:
    started = time.monotonic()
    result = read_bibtex(doubling_bomb(39), "bomb.bib")
    assert time.monotonic() - started < 10
    # the first macro over a million characters is refused; the next one, built on it,
    # uses an undefined macro, so what follows is empty, as bibtex would leave it
    (problem,) = result.problems
    assert str(problem) == "bomb.bib:18: @string s17: longer than 1,000,000 characters"
    (warning,) = result.warnings
    assert (warning.line, warning.reason[:20]) == (19, "@string 's17' is not")
    (record,) = result.records
    assert dict(record.raw_fields)["note"] == ""


def test_macros_used_over_and_over_are_stopped_at_the_file_s_limit() -> None:
    entries = "\n".join(f"@misc{{k{n}, title = {{T}}, note = s16}}" for n in range(40))
    started = time.monotonic()
    with pytest.raises(FormatError, match="@string macros expand to more than") as error:
        read_bibtex(doubling_bomb(16) + "\n" + entries, "many.bib")
    assert time.monotonic() - started < 10
    assert f"{MAX_EXPANSION_CHARS:,}" in str(error.value)


def test_a_small_doubling_is_only_a_long_value() -> None:
    result = read_bibtex(doubling_bomb(12), "ok.bib")  # 40,960 characters: a long note
    (record,) = result.records
    assert len(dict(record.raw_fields)["note"]) == 10 * 2**12


def test_an_undefined_macro_leaves_its_field_empty_with_a_warning() -> None:
    result = read_bibtex("@article{k, title = {T}, journal = dam, year = 1999}", "d.bib")
    (record,) = result.records
    assert record.venue is None  # not the venue "dam"
    (warning,) = result.warnings
    assert (warning.line, warning.reason) == (
        1,
        "@string 'dam' is not defined: its field is left empty, as bibtex does",
    )


def test_a_device_is_refused_without_reading_it() -> None:
    with pytest.raises(FormatError, match="it is a device, not a file"):
        read_file(Path("/dev/zero"))


def test_a_file_over_the_limit_is_refused(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(registry, "MAX_FILE_BYTES", 1_000)
    big = tmp_path / "big.bib"
    big.write_text("@misc{k, title = {T}}\n" + "%" * 2_000, encoding="utf-8")
    with pytest.raises(FormatError, match="too large: paperdesk imports files up to"):
        read_file(big)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_an_endless_pipe_is_read_only_up_to_the_limit(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(registry, "MAX_FILE_BYTES", 100_000)
    pipe = tmp_path / "endless.bib"
    os.mkfifo(pipe)
    stop = threading.Event()

    def feed() -> None:
        try:
            with open(pipe, "wb") as stream:
                while not stop.is_set():
                    stream.write(b"x" * 65_536)
        except BrokenPipeError:
            pass

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    try:
        with pytest.raises(FormatError, match="more than 100,000 bytes"):
            read_file(pipe)
    finally:
        stop.set()
        feeder.join(timeout=5)


def test_json_nested_too_deeply_is_a_problem_for_its_line_only() -> None:
    text = '{"title": "Fine"}\n' + "[" * 100_000 + "]" * 100_000 + "\n"
    result = read_json(text, "deep.jsonl")
    assert [r.title for r in result.records] == ["Fine"]
    (problem,) = result.problems
    assert (problem.line, problem.reason) == (
        2,
        "not readable: arrays or objects nested too deeply",
    )
    with pytest.raises(FormatError, match="nested too deeply"):
        read_json("[" * 100_000, "deep.json")


@pytest.mark.parametrize(
    ("year", "warning"),
    [
        ("12345678901234567890", "year: 12345678901234567890 is not a year a paper can have"),
        ("9" * 5_000, "year: a 5,000-digit number is not a year a paper can have"),
        ("-3", "year: -3 is not a year a paper can have"),
    ],
)
def test_an_absurd_year_is_left_out_with_a_warning(year: str, warning: str) -> None:
    result = read_json(f'{{"title": "T", "year": {year}}}\n', "years.jsonl")
    (record,) = result.records
    assert record.year is None
    assert result.warnings[0].reason.startswith(warning)


def test_a_file_name_that_is_not_utf8_is_shown_and_kept(tmp_path: Path) -> None:
    name = os.fsdecode(b"refs-\xff.bib")
    path = tmp_path / name
    path.write_text("@misc{k, title = {T}}\n@misc{j}\n", encoding="utf-8")
    result = read_file(path)
    assert result.records[0].title == "T"
    (problem,) = result.problems
    shown = str(problem)
    assert "refs-\ufffd.bib:2: no title" in shown
    shown.encode("utf-8")  # printable and storable: no lone surrogate left


def test_an_entry_with_nested_math_imports_and_shows_without_an_error() -> None:
    title = "$" + "x^{" * 2_000 + "y" + "}" * 2_000 + "$ and more"
    (record,) = read_bibtex(f"@misc{{k, title = {{{title}}}}}", "math.bib").records
    assert record.title.endswith("and more")
    assert to_plain(record.title) and to_html(record.title)  # errors would fail the test


JUNK = "\n\n".join(f"{n:08x} " + "deadbeef" * 12 + " " + "cafebabe" * 9 for n in range(400))


def test_junk_called_txt_is_not_taken_for_a_seed_list(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("Some header\n\n" + JUNK, encoding="utf-8")
    with pytest.raises(FormatError, match="does not look like a seed list: 400 of 400"):
        read_file(path)


def test_prose_that_is_not_a_seed_list_is_refused_too() -> None:
    chapter = "Chapter one\nIt was a dark and stormy night; the rain fell in torrents.\n"
    with pytest.raises(FormatError, match="header line naming the list"):
        read_seedlist(chapter + "\n" + ABSTRACT, "novel.txt")
    short_lines = "Shopping\n\n" + "\n\n".join(["eggs", "milk", "bread", ABSTRACT])
    with pytest.raises(FormatError, match="3 of 4 paragraphs do not read as abstracts"):
        read_seedlist(short_lines, "shopping.txt")


def test_a_seed_list_with_one_stray_paragraph_skips_just_that_one() -> None:
    text = "My picks 2025\n\n" + "\n\n".join([ABSTRACT, "TODO: more", ABSTRACT + " Again."])
    result = read_seedlist(text, "picks.txt")
    assert len(result.records) == 2
    (problem,) = result.problems
    assert (problem.line, problem.reason) == (
        5,
        "not imported: too short for an abstract (2 words)",
    )


def test_a_nul_byte_costs_a_warning_for_its_line_not_the_file(tmp_path: Path) -> None:
    path = tmp_path / "refs.bib"
    path.write_bytes(b"@misc{a, title = {First}}\n@misc{b, title = {Sec\x00ond}}\n")
    result = read_file(path)
    assert [r.title for r in result.records] == ["First", "Second"]
    (warning,) = result.warnings
    assert warning.line == 2 and "NUL byte" in warning.reason


def test_utf16_without_a_byte_order_mark_is_still_utf16(tmp_path: Path) -> None:
    path = tmp_path / "wide.bib"
    path.write_bytes("@misc{a, title = {Wide Text}}\n".encode("utf-16-le"))
    assert read_file(path).records[0].title == "Wide Text"


def test_an_unclosed_csv_quote_is_reported_with_its_line_and_nothing_merged() -> None:
    text = 'title,abstract\nOne,"never closed\nTwo,b\nThree,"c"\n'
    result = registry.READERS["csv"].read(text, "list.csv")
    assert [r.title for r in result.records] == ["Two", "Three"]
    (problem,) = result.problems
    assert problem.line == 2 and "quote" in problem.reason

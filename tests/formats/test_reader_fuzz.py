"""Every reader fuzzed (issue 26, item 4): whatever the bytes, a reader returns records
with per-entry problems or raises FormatError with one line, never another exception.

Text is drawn near each format's grammar (its markers, delimiters and escapes mixed
with any characters), and as raw bytes through the registry (decoding, format
detection). A short run is part of the normal tests; `-m slow` runs each for minutes.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.errors import FormatError
from paperdesk.formats.base import ReadResult
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.csv_reader import read_csv
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.registry import read_data
from paperdesk.formats.ris_reader import read_ris
from paperdesk.formats.seedlist import read_seedlist

# Pieces of each format's grammar, to be shuffled with arbitrary text.
PIECES = {
    "bibtex": [
        "@article{",
        "@string{",
        "@preamble{",
        "@comment{",
        "@misc(",
        "}",
        "{",
        ",",
        "=",
        '"',
        "#",
        "title",
        "author",
        "year",
        "journal",
        "crossref",
        "and",
        "\\",
        "\\'e",
        "$",
        "%",
        "\n",
        " ",
        "k1",
        "jan",
        "2020",
        "@",
    ],
    "ris": [
        "TY  - ",
        "JOUR",
        "TI  - ",
        "AU  - ",
        "PY  - ",
        "AB  - ",
        "DO  - ",
        "ER  - ",
        "KW  - ",
        "\n",
        "\r\n",
        " ",
        "-",
        "2020",
        "///",
        "ID  - ",
    ],
    "csv": [
        "title",
        "abstract",
        "year",
        "authors",
        "doi",
        "tags",
        "rating",
        ",",
        ";",
        "\t",
        '"',
        '""',
        "\n",
        "\r\n",
        "2020",
        "99999999999999999999",
        "x",
        " ",
    ],
    "json": [
        "[",
        "]",
        "{",
        "}",
        ":",
        ",",
        '"title"',
        '"abstract"',
        '"year"',
        '"authors"',
        '"x"',
        "1e308",
        "NaN",
        "-Infinity",
        "null",
        "true",
        "2020",
        "[2020]",
        "\n",
        " ",
        '"\\u00e9"',
        '"\\ud800"',
        "1" * 30,
    ],
    "seedlist": ["ICML 2025 papers\n", "\n\n", "\n", " ", ".", "We propose ", "a", "x" * 50],
}
READERS: dict[str, Callable[[str, str], ReadResult]] = {
    "bibtex": read_bibtex,
    "ris": read_ris,
    "csv": read_csv,
    "json": read_json,
    "seedlist": read_seedlist,
}


def near(format: str) -> st.SearchStrategy[str]:
    piece = st.sampled_from(PIECES[format]) | st.text(max_size=12)
    return st.lists(piece, max_size=60).map("".join)


def check_reader(format: str, text: str) -> None:
    try:
        result = READERS[format](text, f"fuzz.{format}")
    except FormatError as error:
        assert "\n" not in str(error).strip()
        return
    assert isinstance(result, ReadResult)
    for record in result.records:
        assert record.title.strip()


def check_bytes(data: bytes, suffix: str, tmp_path: Path) -> None:
    try:
        read_data(tmp_path / f"fuzz{suffix}", data)
    except FormatError:
        pass


SUFFIXES = st.sampled_from([".bib", ".ris", ".csv", ".json", ".jsonl", ".txt", ".dat"])
SHORT = settings(max_examples=40, deadline=None)
#: About a minute per format on a busy 2-core machine (6 x 5,000 cases in all).
LONG = settings(max_examples=5_000, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("format", sorted(READERS))
def test_a_reader_gives_records_or_one_message(format: str) -> None:
    @SHORT
    @given(near(format))
    def run(text: str) -> None:
        check_reader(format, text)

    run()


@SHORT
@given(data=st.binary(max_size=400) | near("bibtex").map(str.encode), suffix=SUFFIXES)
def test_any_bytes_give_records_or_one_message(data: bytes, suffix: str) -> None:
    check_bytes(data, suffix, Path("/nonexistent"))


@pytest.mark.slow
@pytest.mark.parametrize("format", sorted(READERS))
def test_a_reader_fuzzed_for_long(format: str) -> None:
    @LONG
    @given(near(format))
    def run(text: str) -> None:
        check_reader(format, text)

    run()


@pytest.mark.slow
@LONG
@given(data=st.binary(max_size=2_000) | near("json").map(str.encode), suffix=SUFFIXES)
def test_any_bytes_fuzzed_for_long(data: bytes, suffix: str) -> None:
    check_bytes(data, suffix, Path("/nonexistent"))

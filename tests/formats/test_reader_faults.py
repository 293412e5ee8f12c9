"""Readers under hostile input (issue 26, items 4 and 6): no traceback, and every value
dropped or altered is named in a warning for its entry."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.registry import read_file


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

"""Cells a spreadsheet would run as formulas, neutralised on writing and restored on reading.

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return would run as a
formula in Excel or LibreOffice (CSV injection), so csv_writer gives it a leading
apostrophe, which spreadsheets hide and treat as "this is text" (the OWASP rule).
csv_reader drops that apostrophe again. So that the two stay exact inverses, a cell
that already starts with apostrophes before such a character gets one more.
"""

from __future__ import annotations

import re

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_NEUTRALISED = re.compile(r"'*[=+\-@\t\r]")


def neutralise(cell: str) -> str:
    """The cell with a leading apostrophe if a spreadsheet would run it as a formula."""
    return "'" + cell if _NEUTRALISED.match(cell) else cell


def restore(cell: str) -> str:
    """The cell as it was before `neutralise`."""
    return cell[1:] if cell.startswith("'") and _NEUTRALISED.match(cell, 1) else cell

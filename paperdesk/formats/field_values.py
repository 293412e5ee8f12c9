"""Values every reader reads the same way, and names when it cannot: the year, and
the per-entry limits on a record's length.

A value a reader drops or alters is named in a warning for its entry (issue 26): a
year cell of 20 digits, `1e308`, `NaN` or `[2020]` is no year, and the user hears so
rather than finding the year silently empty.
"""

from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Any

from paperdesk.core.models import PaperRecord
from paperdesk.formats.user_data import Warn

# Four digits; a minus at the start of a word makes a year before the common era, as
# biblatex writes it (`-0197`, astronomical numbering), never a range's (`2019-2020`).
_YEAR = re.compile(r"(?:(?<![\w-])(-))?\b(\d{4})\b")
#: How much of a value a warning quotes.
_SHOWN_CHARS = 30


def year_from_text(text: str, warn: Warn) -> int | None:
    """The first four-digit number in `text` (`2020`, `2020-05-01`, `May 2020`, BCE
    `-0197` as -197), None when it is empty; a warning when it holds something else."""
    text = text.strip()
    if not text:
        return None
    match = _YEAR.search(text)
    if match:
        return int(match.group(1) + match.group(2)) if match.group(1) else int(match.group(2))
    warn(f"year: {shown(text)} is not a year: left out")
    return None


def year_from_number(value: Any, warn: Warn) -> int | None:
    """A year given as a JSON number (a whole one); a warning for anything else that is
    not text (`1e308`, `NaN`, `2020.5`, `[2020]`, `{}`), None for null."""
    if value is None:
        return None
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        if 1000 <= value < 3000 or -9999 <= value < 0:  # BCE years are negative
            return int(value)
    warn(f"year: {shown(str(value))} is not a year: left out")
    return None


def shown(text: str) -> str:
    """A value as a warning quotes it: whole when short, else its start and length."""
    if len(text) <= _SHOWN_CHARS:
        return repr(text)
    return f"{text[:_SHOWN_CHARS]!r}... ({len(text):,} characters)"


#: Per-entry limits, far above any real paper's (the longest titles run to ~300
#: characters, abstracts to ~5,000): a value beyond them is junk, or a file read as
#: the wrong format, and would cost memory and screen space for every view of it.
MAX_TITLE_CHARS = 1_000
MAX_TEXT_CHARS = 100_000  # an abstract, or any other field of the source


def within_limits(record: PaperRecord, warn: Warn) -> PaperRecord:
    """The record with its title and abstract cut to the limits above, and source fields
    beyond them left out, each named in a warning."""
    changes: dict[str, Any] = {}
    if len(record.title) > MAX_TITLE_CHARS:
        warn(f"title: {len(record.title):,} characters, cut to the first {MAX_TITLE_CHARS:,}")
        changes["title"] = record.title[:MAX_TITLE_CHARS].rstrip()
    if len(record.abstract) > MAX_TEXT_CHARS:
        warn(f"abstract: {len(record.abstract):,} characters, cut to the first {MAX_TEXT_CHARS:,}")
        changes["abstract"] = record.abstract[:MAX_TEXT_CHARS]
    long_fields = [name for name, value in record.raw_fields if len(value) > MAX_TEXT_CHARS]
    if long_fields:
        for name in long_fields:
            warn(f"{name}: longer than {MAX_TEXT_CHARS:,} characters: not kept for export")
        changes["raw_fields"] = tuple(
            (name, value) for name, value in record.raw_fields if len(value) <= MAX_TEXT_CHARS
        )
    return replace(record, **changes) if changes else record

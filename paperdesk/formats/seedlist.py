"""Reading seed lists: a header line naming the list, then one abstract per paragraph.

The ICML lists this product ships (`seeds/*.txt`) look like this: `ICML 2025 论文列表`,
a blank line, then abstracts separated by blank lines, with no titles, authors or ids.
Every paragraph becomes a record whose title is derived from its abstract; the header
labels the import batch and, when it names a known venue and a year, dates every record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperdesk.core.errors import FormatError
from paperdesk.core.models import PaperRecord
from paperdesk.core.text import collapse_whitespace
from paperdesk.core.venues import find_venue
from paperdesk.formats.base import ReadResult
from paperdesk.text import derive_title

FORMAT = "seedlist"

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_WORD = re.compile(r"[A-Za-z]+")
_WORKSHOP = re.compile(r"\bworkshops?\b", re.IGNORECASE)

# Sniffing: a header is a name, not a sentence; an abstract runs to dozens of words.
_SNIFF_ZONE = 100_000
_MAX_HEADER_CHARS = 120
_MIN_ABSTRACT_WORDS = 20
_SNIFFED_PARAGRAPHS = 5
_OTHER_FORMAT_LINE = re.compile(r"^[ \t]*(?:@[A-Za-z]+[ \t]*[{(]|TY[ \t]*-[ \t])", re.MULTILINE)


@dataclass(frozen=True)
class _Paragraph:
    line: int  # 1-based line where the paragraph starts
    text: str


def read_seedlist(text: str, file_name: str) -> ReadResult:
    """One record per abstract paragraph; FormatError when there is no header or no abstract."""
    lines = text.removeprefix("\ufeff").splitlines()
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        raise FormatError(file_name, "the file is empty")
    header = lines[header_index].strip()
    paragraphs = _paragraphs(lines, header_index + 1)
    if not paragraphs:
        raise FormatError(file_name, "no abstracts found after the header line")
    venue, year = _venue_and_year(header)
    records = tuple(
        PaperRecord(
            title=derive_title(paragraph.text),
            abstract=paragraph.text,
            venue=venue,
            year=year,
            title_is_derived=True,
            line=paragraph.line,
        )
        for paragraph in paragraphs
    )
    return ReadResult(FORMAT, header, records)


def _venue_and_year(header: str) -> tuple[str | None, int | None]:
    """('ICML', 2025) for 'ICML 2025 论文列表'; (None, None) unless both are there.

    A year alone says when the list was made, not when its papers appeared, and a
    workshop is not its host conference's proceedings, so neither dates the records.
    """
    year = _YEAR.search(header)
    if year is None or _WORKSHOP.search(header):
        return None, None
    for word in _WORD.findall(header):
        venue = find_venue(word)
        # "ICML", "NeurIPS", "NIPS" - not an ordinary word that happens to match ("alt").
        if venue is not None and (word == venue.short_name or word.isupper()):
            return venue.short_name, int(year.group())
    return None, None


def looks_like_seedlist(text: str) -> bool:
    """Whether the text is a short header followed by blank-line separated abstracts."""
    head = text.removeprefix("\ufeff")[:_SNIFF_ZONE]
    lines = head.splitlines()
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        return False
    header = lines[header_index].strip()
    if (
        len(header) > _MAX_HEADER_CHARS
        or header[0] in "[{"
        or "\t" in header
        or _OTHER_FORMAT_LINE.search(head)
    ):
        return False
    # A table or a wrapped text runs on from its first line; a seed list pauses.
    after_header = lines[header_index + 1 : header_index + 2]
    if after_header and after_header[0].strip():
        return False
    sample = _paragraphs(lines, header_index + 1)[:_SNIFFED_PARAGRAPHS]
    long_ones = sum(len(p.text.split()) >= _MIN_ABSTRACT_WORDS for p in sample)
    return bool(sample) and 2 * long_ones >= len(sample)


def _paragraphs(lines: list[str], first: int) -> list[_Paragraph]:
    """Runs of non-blank lines from `first` on; a line of only whitespace separates them."""
    paragraphs: list[_Paragraph] = []
    start: int | None = None
    for index in range(first, len(lines) + 1):
        blank = index == len(lines) or not lines[index].strip()
        if blank and start is not None:
            text = collapse_whitespace(" ".join(lines[start:index]))
            paragraphs.append(_Paragraph(start + 1, text))
            start = None
        elif not blank and start is None:
            start = index
    return paragraphs

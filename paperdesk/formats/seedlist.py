"""Reading seed lists: a header line naming the list, then one abstract per paragraph.

The ICML lists this product ships (`seeds/*.txt`) look like this: `ICML 2025 论文列表`,
a blank line, then abstracts separated by blank lines, with no titles, authors or ids.
Every paragraph becomes a record whose title is derived from its abstract; the header
labels the import batch and, when it names a known venue and a year, dates every record.

Any text file can be called `.txt`, so a file must look like a seed list to be read as
one: a short header line, a blank line, and paragraphs that read as abstracts (tens to
hundreds of words of prose, mostly letters).
A paragraph that does not is skipped with its line and why; a file where more than a
few do is refused as a whole, so 50 MB of something else never becomes 60,000 papers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperdesk.core.errors import FormatError
from paperdesk.core.models import PaperRecord
from paperdesk.core.text import collapse_whitespace
from paperdesk.core.venues import find_venue
from paperdesk.formats.base import Problem, ReadResult
from paperdesk.text import derive_title

FORMAT = "seedlist"

_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")
_WORD = re.compile(r"[A-Za-z]+")
_WORKSHOP = re.compile(r"\bworkshops?\b", re.IGNORECASE)

# Sniffing: a header is a name, not a sentence; an abstract runs to dozens of words.
_SNIFF_ZONE = 100_000
_MAX_HEADER_CHARS = 120
_MIN_ABSTRACT_WORDS = 20
_MAX_ABSTRACT_WORDS = 2_000
# Words of prose average 4-6 letters; 13,417 real abstracts, math and all, at most 9.
_MAX_MEAN_WORD_CHARS = 15
_MIN_LETTER_SHARE = 0.6
_SNIFFED_PARAGRAPHS = 5
# A file is refused when more of its paragraphs than this do not read as abstracts.
_TOLERATED_SHARE = 0.1
_TOLERATED_COUNT = 2
# A file is doubted (the import asks first) when fewer than half of its paragraphs hold
# a sentence (a full stop, question or exclamation mark, Western or CJK, then a blank or
# the end), or none is abstract-like in length; every real abstract passes both.
_SENTENCE_END = re.compile(r"[.!?](?:\s|$)|[。！？]")
_MIN_SENTENCE_SHARE = 0.5
_ABSTRACT_LIKE_WORDS = 50
_OTHER_FORMAT_LINE = re.compile(r"^[ \t]*(?:@[A-Za-z]+[ \t]*[{(]|TY[ \t]*-[ \t])", re.MULTILINE)


@dataclass(frozen=True)
class _Paragraph:
    line: int  # 1-based line where the paragraph starts
    text: str


def read_seedlist(text: str, file_name: str) -> ReadResult:
    """One record per abstract paragraph; FormatError when there is no header or no abstract,
    or when the file does not look like a seed list."""
    lines = text.removeprefix("\ufeff").splitlines()
    header_index = next((i for i, line in enumerate(lines) if line.strip()), None)
    if header_index is None:
        raise FormatError(file_name, "the file is empty")
    header = lines[header_index].strip()
    paragraphs = _paragraphs(lines, header_index + 1)
    if not paragraphs:
        raise FormatError(file_name, "no abstracts found after the header line")
    if not _is_header(lines, header_index):
        raise FormatError(
            file_name,
            "this does not look like a seed list: it starts with a header line naming the "
            "list (a short line), then a blank line, then one abstract per paragraph",
            line=header_index + 1,
        )
    problems = [
        Problem(file_name, p.line, f"not imported: {why}")
        for p in paragraphs
        if (why := _not_an_abstract(p.text))
    ]
    if len(problems) > max(_TOLERATED_COUNT, _TOLERATED_SHARE * len(paragraphs)):
        shown = "; ".join(
            f"line {p.line}: {p.reason.removeprefix('not imported: ')}" for p in problems[:3]
        )
        raise FormatError(
            file_name,
            f"this does not look like a seed list: {len(problems):,} of {len(paragraphs):,} "
            f"paragraphs do not read as abstracts ({shown})",
        )
    skipped = {p.line for p in problems}
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
        if paragraph.line not in skipped
    )
    if not records:
        raise FormatError(file_name, f"no abstracts found after the header line ({problems[0]})")
    return ReadResult(FORMAT, header, records, tuple(problems), doubt=_doubt(records))


def _doubt(records: tuple[PaperRecord, ...]) -> str | None:
    """Why the abstracts may be noise: most paragraphs hold no sentence (random words,
    a word list, a wrapped table), or none is as long as an abstract. None for prose."""
    sentences = sum(1 for record in records if _SENTENCE_END.search(record.abstract))
    if sentences < _MIN_SENTENCE_SHARE * len(records):
        return (
            f"only {sentences:,} of its {len(records):,} paragraphs hold a sentence: "
            "the text may be noise rather than abstracts"
        )
    if all(len(record.abstract.split()) < _ABSTRACT_LIKE_WORDS for record in records):
        return (
            f"none of its {len(records):,} paragraphs is as long as an abstract "
            f"({_ABSTRACT_LIKE_WORDS} words)"
        )
    return None


def _not_an_abstract(text: str) -> str | None:
    """Why a paragraph does not read as an abstract, or None when it does."""
    words = text.split()
    # Chinese or Japanese abstracts run on without blanks: count two characters a word.
    count = max(len(words), sum(1 for char in text if "\u3040" <= char <= "\u9fff") // 2)
    if count < _MIN_ABSTRACT_WORDS:
        return f"too short for an abstract ({count} words)"
    if count > _MAX_ABSTRACT_WORDS:
        return f"too long for an abstract ({count:,} words)"
    visible = [char for char in text if not char.isspace()]
    if sum(char.isalpha() for char in visible) < _MIN_LETTER_SHARE * len(visible):
        return "mostly not letters"
    mean = len(visible) / len(words)
    if len(words) == count and mean > _MAX_MEAN_WORD_CHARS:
        return f"not prose (its words are {mean:.0f} characters long on average)"
    return None


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
    if _OTHER_FORMAT_LINE.search(head) or not _is_header(lines, header_index):
        return False
    sample = _paragraphs(lines, header_index + 1)[:_SNIFFED_PARAGRAPHS]
    long_ones = sum(len(p.text.split()) >= _MIN_ABSTRACT_WORDS for p in sample)
    return bool(sample) and 2 * long_ones >= len(sample)


def _is_header(lines: list[str], index: int) -> bool:
    """A short line naming the list, followed by a blank line (a table or a wrapped text
    runs on from its first line; a seed list pauses)."""
    header = lines[index].strip()
    if len(header) > _MAX_HEADER_CHARS or header[0] in "[{" or "\t" in header:
        return False
    after_header = lines[index + 1 : index + 2]
    return not (after_header and after_header[0].strip())


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

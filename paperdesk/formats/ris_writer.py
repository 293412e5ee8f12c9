"""Writing papers as RIS, for reference managers (Zotero, EndNote, Mendeley) and back.

rispy writes the lines; this module decides what goes in them:
- TY: the paper's own RIS type when it came from RIS, else its BibTeX or Zotero type
  mapped to RIS, else its venue's (a known conference is `CPAPER`, a journal `JOUR`),
  else `GEN`.
- TI title and AU authors as a reader sees them (the library's display text, escaped
  only where it would read as markup: see paperdesk.text.protect_markup), authors as
  `Last, First` the way RIS wants them; T2 the venue, PY the year, AB the abstract
  as stored (with its LaTeX/Markdown, as the sources give abstracts), DO the DOI,
  UR the URL, ID the citation key, KW the tags, SP and EP the first and last page.
- RIS has no field for arXiv or OpenReview ids: they go into N1 notes as Zotero writes
  them (`arXiv:2401.01234`, an OpenReview forum URL), which formats.ris_reader and
  other tools recognise.
- the user's data: KW one line per tag, RN (research notes) one line per line of the
  note, and `C8` custom lines (`C8  - paperdesk-status: to-read`; also `-rating`,
  `-shortlist` one line per shortlist, `-shortlist-place: shortlist=3` the paper's
  place in it, `-tag-colour: tag=#rrggbb`, `-derived-title: yes`), which other tools
  keep as custom fields and formats.ris_reader reads back.
- UR only for http and https links (see core.links): reference managers open it.

RIS is a line format: a line break inside a value would start a line that readers
(ours included) may take for a tag, so every value is written on one line, its line
breaks turned into spaces; only the note keeps its lines, one RN line each. rispy
splits UR values at `;`, so a `;` in a URL is written percent-encoded (`%3B`, the same
URL to a web server). A display name holding a comma
cannot be told from `Last, First` by any RIS reader; it is written as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import TextIO

from rispy import RisWriter
from rispy.config import LIST_TYPE_TAGS, TYPE_OF_REFERENCE_MAPPING

from paperdesk.core.fields import pages
from paperdesk.core.links import safe_url
from paperdesk.core.models import Paper, PaperRecord
from paperdesk.core.venues import find_venue
from paperdesk.formats.user_data import colour_pairs, place_pairs
from paperdesk.text import protect_markup

#: The prefix of the custom (`C8`) lines that carry the user's data.
USER_PREFIX = "paperdesk-"
USER_TAG = "C8"
NOTE_TAG = "RN"

# BibTeX entry types (core.venues speaks these) and Zotero item types (a Zotero CSV's
# "Item Type") as RIS reference types.
_RIS_TYPES = {
    "article": "JOUR",
    "journalarticle": "JOUR",
    "inproceedings": "CPAPER",
    "conference": "CPAPER",
    "conferencepaper": "CPAPER",
    "proceedings": "CONF",
    "book": "BOOK",
    "incollection": "CHAP",
    "inbook": "CHAP",
    "booksection": "CHAP",
    "phdthesis": "THES",
    "mastersthesis": "THES",
    "thesis": "THES",
    "techreport": "RPRT",
    "report": "RPRT",
    "unpublished": "UNPB",
    "manuscript": "MANSCPT",
    "online": "ELEC",
    "webpage": "ELEC",
    "software": "COMP",
    "computerprogram": "COMP",
    "dataset": "DATA",
}
_DEFAULT_TYPE = "GEN"


class _Writer(RisWriter):
    """rispy's writer without the `1.`, `2.` line it puts before each record."""

    def set_header(self, count: int) -> str:
        return ""


def write_ris(
    papers: Iterable[Paper | PaperRecord],
    stream: TextIO,
    tag_colours: Sequence[tuple[str, str]] = (),
) -> int:
    """Write `papers` in order as RIS records; return how many were written."""
    references = [_reference(paper, tag_colours) for paper in papers]
    _Writer(list_tags=[*LIST_TYPE_TAGS, NOTE_TAG, USER_TAG]).format_lines(stream, references)
    return len(references)


def _user_lines(paper: Paper, tag_colours: Sequence[tuple[str, str]]) -> list[str]:
    """The `C8` values for the paper's user data, each `paperdesk-<what>: <value>`."""
    pairs = [("status", paper.status.value)]
    if paper.rating:
        pairs.append(("rating", str(paper.rating)))
    pairs += [("shortlist", name) for name in paper.shortlists]
    pairs += [("shortlist-place", pair) for pair in place_pairs(paper)]
    pairs += [("tag-colour", pair) for pair in colour_pairs(paper, tag_colours)]
    if paper.title_is_derived:
        pairs.append(("derived-title", "yes"))
    return [f"{USER_PREFIX}{what}: {_one_line(value)}" for what, value in pairs]


def _reference(
    paper: Paper | PaperRecord, tag_colours: Sequence[tuple[str, str]]
) -> dict[str, object]:
    """rispy's dict for one paper (its keys name the tags, in the order written)."""
    ids = paper.ids
    notes = []
    if ids.arxiv:
        notes.append(f"arXiv:{ids.arxiv}")
    if ids.openreview:
        notes.append(f"https://openreview.net/forum?id={ids.openreview}")
    tags = paper.tags if isinstance(paper, Paper) else ()
    note = paper.note.strip() if isinstance(paper, Paper) else ""
    fields: dict[str, object] = {
        "type_of_reference": _ris_type(paper),
        "id": _one_line(paper.citation_key or ""),
        "title": protect_markup(paper.title),
        "authors": [_last_first(protect_markup(name)) for name in paper.authors if name.strip()],
        "secondary_title": protect_markup(paper.venue or ""),
        "year": str(paper.year) if paper.year is not None else "",
        "abstract": _one_line(paper.abstract),
        "doi": _one_line(ids.doi or ""),
        **_page_range(paper),
        "urls": [_one_line(url).replace(";", "%3B")] if (url := safe_url(ids.url)) else [],
        "notes": notes,
        "keywords": [_one_line(tag) for tag in tags],
        "research_notes": note.split("\n") if note else [],
        "custom8": _user_lines(paper, tag_colours) if isinstance(paper, Paper) else [],
    }
    return {key: value for key, value in fields.items() if value}


# `12--34`, `12-34`, `12–34`: BibTeX's range and the dashes sources type for it.
_RANGE_DASH = re.compile(r"\s*(?:--?|[–—])\s*")


def _page_range(paper: Paper | PaperRecord) -> dict[str, str]:
    """SP and EP (rispy's `start_page`, `end_page`) from the paper's pages; a single
    page or an article number is the start page alone."""
    first, _, last = _RANGE_DASH.sub("\x00", _one_line(pages(paper)), count=1).partition("\x00")
    return {"start_page": first, "end_page": last}


def _ris_type(paper: Paper | PaperRecord) -> str:
    own = (paper.entry_type or "").strip()
    if own.upper() in TYPE_OF_REFERENCE_MAPPING:
        return own.upper()
    mapped = _RIS_TYPES.get(own.lower())
    if mapped:
        return mapped
    venue = find_venue(paper.venue)
    return _RIS_TYPES[venue.entry_type] if venue else _DEFAULT_TYPE


def _one_line(text: str) -> str:
    # splitlines knows every line break (`\r`, `\u2028`...); ~10x faster than a regex.
    return " ".join(line for part in text.splitlines() if (line := part.strip()))


def _last_first(name: str) -> str:
    """`Ludwig van Beethoven` -> `van Beethoven, Ludwig`; one word or a comma: as it is.

    The surname is the last word with the lower-case particles before it (`van der`,
    `de la`); at least one word stays the given name.
    """
    words = name.split()
    if len(words) < 2 or "," in name:
        return name
    split = len(words) - 1
    while split > 1 and words[split - 1][:1].islower():
        split -= 1
    return f"{' '.join(words[split:])}, {' '.join(words[:split])}"

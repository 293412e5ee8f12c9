"""Evidence that two bibliographic records are, or are not, one work.

An identifier (DOI, arXiv id, OpenReview id) names one work: matching on one is enough,
whatever else differs. A title or an abstract is weaker evidence. "Letters",
"Editorial comments" and "Calendar" head a journal's columns in every issue, and a
journal version may share its title with the technical report it grew from. So a
title or abstract match counts only when nothing below contradicts it; anything
weaker is left for the user to decide (`paperdesk duplicates`).

Contrary evidence, each only when both records state it:
- years further apart than PREPRINT_GAP. A preprint (arXiv, a technical report) may
  precede the version a venue published by one year (posted in 2017, ICML 2018); a
  larger gap is a different version of the work, kept as its own paper (a 2001
  report and its 2004 journal article are two entries of a bibliography);
- author lists with no family name in common;
- venues that differ: two known venues by short name (`ICLR` vs `ICML`); two names
  paperdesk does not know when neither's words hold the other's (years and numbers
  aside, so `Advances in NeurIPS 31` is `Advances in NeurIPS`). A known venue and an
  unknown spelling are no evidence (`ICML` vs `Proceedings of the 42nd International
  Conference on Machine Learning`), nor is a preprint server (arXiv, CoRR);
- entry types of different kinds (article, paper in proceedings, report, thesis, book,
  chapter); `misc`, `unpublished` and unknown types are no evidence;
- a different volume, issue or first page: two issues' columns of one journal.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from paperdesk.core.citekeys import surname
from paperdesk.core.text import normalise_for_matching
from paperdesk.core.venues import find_venue

#: A preprint may precede its published version by this many years (see module doc).
PREPRINT_GAP = 1

# BibTeX, biblatex, RIS and CSL entry types by the kind of work they name; a type not
# listed (misc, unpublished, online, GEN, ...) is no evidence either way.
_KINDS = {
    "article": ("article", "jour", "journal-article", "mgzn", "magazine-article", "ejour"),
    "proceedings paper": ("inproceedings", "conference", "conf", "cpaper", "paper-conference"),
    "report": ("techreport", "report", "rprt"),
    "thesis": ("phdthesis", "mastersthesis", "thesis", "thes"),
    "book": ("book", "mvbook", "booklet", "collection", "proceedings", "edbook"),
    "chapter": ("inbook", "incollection", "bookinbook", "chap", "chapter"),
}
_KIND_OF_TYPE = {entry_type: kind for kind, types in _KINDS.items() for entry_type in types}
# Words of a venue that name a preprint server, not a venue that published the work.
_PREPRINT_WORDS = frozenset({"arxiv", "corr", "preprint", "biorxiv", "medrxiv", "ssrn"})
# Source field names (BibTeX, RIS, CSV, JSON) holding the volume, the issue, the pages.
_VOLUME_FIELDS = ("volume", "vl")
_ISSUE_FIELDS = ("number", "issue", "is")
_PAGE_FIELDS = ("pages", "sp", "page")
_FIRST_NUMBER = re.compile(r"[0-9]+")


@dataclass(frozen=True)
class Evidence:
    """What a record says about the work it describes, normalised for comparing."""

    year: int | None = None
    family_names: frozenset[str] = frozenset()
    venue: str = ""  # a known venue's short name, else its words; "" when none
    venue_known: bool = False
    kind: str = ""  # see _KINDS; "" when the type says nothing
    volume: str = ""
    issue: str = ""
    first_page: str = ""


def evidence_of(
    year: int | None,
    authors: Iterable[str],
    venue: str | None,
    entry_type: str | None,
    raw_fields: Iterable[tuple[str, str]] = (),
) -> Evidence:
    """The evidence of a record or a stored paper, from its fields."""
    raw: dict[str, str] = {}
    for name, value in raw_fields:
        raw.setdefault(name.strip().lower(), value)
    known = find_venue(venue)
    return Evidence(
        year=year,
        family_names=frozenset(
            folded for name in authors if (folded := normalise_for_matching(surname(name)))
        ),
        venue=known.short_name if known else _venue_words(venue or ""),
        venue_known=known is not None,
        kind=_KIND_OF_TYPE.get((entry_type or "").strip().lower(), ""),
        volume=_first_number(raw, _VOLUME_FIELDS),
        issue=_first_number(raw, _ISSUE_FIELDS),
        first_page=_first_number(raw, _PAGE_FIELDS),
    )


def contradictions(first: Evidence, second: Evidence) -> tuple[str, ...]:
    """Why two records cannot be one work (empty: nothing contradicts a weak match)."""
    reasons: list[str] = []
    if first.year and second.year and abs(first.year - second.year) > PREPRINT_GAP:
        reasons.append(f"years {first.year} and {second.year}")
    if first.family_names and second.family_names:
        if not first.family_names & second.family_names:
            reasons.append("no author in common")
    if _venues_differ(first, second):
        reasons.append(f"venues {first.venue!r} and {second.venue!r}")
    if first.kind and second.kind and first.kind != second.kind:
        reasons.append(f"{_with_article(first.kind)} and {_with_article(second.kind)}")
    for what, ours, theirs in (
        ("volumes", first.volume, second.volume),
        ("issues", first.issue, second.issue),
        ("pages", first.first_page, second.first_page),
    ):
        if ours and theirs and ours != theirs:
            reasons.append(f"{what} {ours} and {theirs}")
    return tuple(reasons)


def _with_article(kind: str) -> str:
    return f"an {kind}" if kind[0] in "aeiou" else f"a {kind}"


def _venues_differ(first: Evidence, second: Evidence) -> bool:
    if not first.venue or not second.venue or first.venue_known != second.venue_known:
        return False
    if first.venue_known:
        return first.venue != second.venue
    ours, theirs = set(first.venue.split()), set(second.venue.split())
    return not (ours <= theirs or theirs <= ours)


def _venue_words(venue: str) -> str:
    """A venue's words without numbers (years, editions), or "" for a preprint server."""
    words = [w for w in normalise_for_matching(venue).split() if not any(c.isdigit() for c in w)]
    if _PREPRINT_WORDS & set(words):
        return ""
    return " ".join(sorted(set(words)))


def _first_number(raw: Mapping[str, str], names: tuple[str, ...]) -> str:
    """The first number in the first of these fields present (`12--15` gives `12`),
    or its words when it has no digits (`xii`, `e-first`)."""
    for name in names:
        value = raw.get(name)
        if value:
            found = _FIRST_NUMBER.search(value)
            return found.group(0).lstrip("0") or "0" if found else normalise_for_matching(value)
    return ""


# How similar two abstracts must be (near_duplicates) and how sure a cluster must be
# (duplicates): here in core because `paperdesk duplicates --help` states them too.
#: Import merges a record into a paper at or above this similarity.
MATCH_THRESHOLD = 0.95
#: `paperdesk duplicates` offers pairs at or above this similarity, with their score.
SUGGEST_THRESHOLD = 0.85
#: `merge_all` merges clusters at least this sure unless told otherwise.
AUTO_MERGE_CONFIDENCE = 0.95

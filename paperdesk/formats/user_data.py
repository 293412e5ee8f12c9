"""The user's own data (tags, colours, note, rating, status, shortlists) in files.

Every writer puts it into fields or columns of its format and the matching reader
builds a `UserData` from them (see the README's table of what each format carries).
This module holds what they share: reading a status, a rating, a list of names and
tag colours from text, and writing them back the same way, so that the formats agree
on `to-read`, `4`, `Reading group; Thesis` and `rl/offline=#ff8800`.

A value that makes no sense (`rating = 7`, status `perhaps`, colour `red`) is dropped
with a warning naming the field; the rest of the entry is still read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import MAX_RATING, Paper, Status, UserData
from paperdesk.core.rules import SHORTLIST, TAG, clean_name
from paperdesk.core.team_values import TeamValues

#: What joins names in one cell or field: tag names may not hold a comma, shortlist
#: names hold anything but this.
LIST_SEPARATOR = "; "
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
_TRUE = frozenset({"yes", "true", "1", "y"})

Warn = Callable[[str], None]


def parse_status(text: str, field: str, warn: Warn) -> Status | None:
    """A triage status, None when empty; a warning when it is not one."""
    if not text.strip():
        return None
    try:
        return Status.parse(text)
    except ValueError as error:
        warn(f"{field}: {error}")
        return None


@lru_cache(maxsize=64)  # paper lists repeat a handful of decisions 100,000 times
def triage_status(text: str) -> Status | None:
    """A triage status, or None for anything else.

    For a column that paper lists also use for the venue's decision (`Poster`,
    `Reject`): those are no triage status, and no reason to warn either.
    """
    try:
        return Status.parse(text) if text.strip() else None
    except ValueError:
        return None


def parse_rating(text: str, field: str, warn: Warn) -> int | None:
    """0-5, None when empty; a warning when it is something else."""
    text = text.strip()
    if not text:
        return None
    if text.isdigit() and len(text) == 1 and int(text) <= MAX_RATING:
        return int(text)
    warn(f"{field}: {text[:20]!r} is not a whole number from 0 to {MAX_RATING}")
    return None


def split_names(text: str, separator: str = ";") -> tuple[str, ...]:
    """`a; b;; c ` -> ("a", "b", "c"): names without blanks around them, in order."""
    names = (name.strip() for name in text.split(separator))
    return tuple(dict.fromkeys(name for name in names if name))


def parse_colours(pairs: Iterable[str], field: str, warn: Warn) -> tuple[tuple[str, str], ...]:
    """`tag=#rrggbb` pairs as (tag, "#rrggbb"); malformed pairs are warned about."""
    colours = []
    for pair in pairs:
        name, equals, colour = pair.rpartition("=")
        name, colour = name.strip(), colour.strip()
        if equals and name and _COLOUR.fullmatch(colour):
            colours.append((name, colour.lower()))
        elif pair.strip():
            warn(f"{field}: {pair.strip()[:40]!r} is not tag=#rrggbb")
    return tuple(colours)


def colour_pairs(paper: Paper, colours: Sequence[tuple[str, str]]) -> list[str]:
    """`tag=#rrggbb` for each of the paper's tags that has a colour."""
    table = dict(colours)
    return [f"{tag}={table[tag]}" for tag in paper.tags if tag in table]


def place_pairs(paper: Paper) -> list[str]:
    """`shortlist=3` for each of the paper's shortlists: its place there, 1 the first."""
    return [
        f"{name}={place}"
        for name, place in zip(paper.shortlists, paper.shortlist_places, strict=False)
    ]


def parse_places(pairs: Iterable[str], field: str, warn: Warn) -> tuple[tuple[str, int], ...]:
    """`shortlist=3` pairs as (shortlist, 3); malformed pairs are warned about."""
    places = []
    for pair in pairs:
        name, equals, place = pair.rpartition("=")
        name, place = name.strip(), place.strip()
        if equals and name and place.isdigit() and int(place) > 0:
            places.append((name, int(place)))
        elif pair.strip():
            warn(f"{field}: {pair.strip()[:40]!r} is not shortlist=place")
    return tuple(places)


def is_true(text: str) -> bool:
    return text.strip().lower() in _TRUE


def user_data(
    warn: Warn,
    *,
    tags: Sequence[str] = (),
    tag_colours: Sequence[tuple[str, str]] = (),
    note: str = "",
    rating: int | None = None,
    status: Status | None = None,
    shortlists: Sequence[str] = (),
    shortlist_places: Sequence[tuple[str, int]] = (),
    team: TeamValues | None = None,
) -> UserData:
    """A UserData with the note trimmed and names as the library keeps them (blanks
    trimmed around each `/` level, repeats dropped); a name the library would refuse
    (a tag with a comma, `a//b`) is left out with a warning.

    Only the colours of tags the entry has are kept: a colour says how a tag of this
    paper looks, not which tags it has; so with the places in shortlists.
    """
    clean_tags = _valid_names(tags, TAG, warn)
    clean_shortlists = _valid_names(shortlists, SHORTLIST, warn)
    listed = {name.casefold(): name for name in clean_shortlists}
    return UserData(
        tags=clean_tags,
        tag_colours=tuple((name, colour) for name, colour in tag_colours if name in clean_tags),
        note=note.strip(),
        rating=rating,
        status=status,
        shortlists=clean_shortlists,
        shortlist_places=tuple(
            (listed[key], place)
            for name, place in shortlist_places
            if (key := _clean_or_none(name, SHORTLIST)) in listed
        ),
        team=team,
    )


def _clean_or_none(name: str, kind: str) -> str | None:
    try:
        return clean_name(name, kind).casefold()
    except InvalidValueError:
        return None


def _valid_names(names: Sequence[str], kind: str, warn: Warn) -> tuple[str, ...]:
    valid = []
    for name in names:
        if not name.strip():
            continue
        try:
            valid.append(clean_name(name, kind))
        except InvalidValueError as error:
            warn(f"{error}: left out")
    return tuple(dict.fromkeys(valid))

"""The user's data in BibTeX fields, written by bibtex_writer and read by bibtex_reader.

    keywords                    tags, `graphs, rl/offline` (what JabRef, Zotero and
                                Mendeley write; a file separating them by `;` is read too)
    annote                      the note
    x-paperdesk-status          new, skimmed, to-read, read or discarded
    x-paperdesk-rating          1-5 (unrated papers have none)
    x-paperdesk-shortlists      `Reading group; Thesis`
    x-paperdesk-shortlist-places `Reading group=3; Thesis=1`: the paper's place in each
    x-paperdesk-tag-colours     `graphs=#3366ff, rl/offline=#ff8800`
    x-paperdesk-derived-title   `true` when the title was derived from the abstract

Values are plain text, escaped for LaTeX by formats.bibtex_values (PLAIN) and read back
by `text.latex_escape.read_plain_value`. Styles ignore fields they do not know, so the
`x-paperdesk-` ones cost nothing in a bibliography.
"""

from __future__ import annotations

from collections.abc import Sequence

from paperdesk.core.models import Paper, UserData
from paperdesk.formats.user_data import (
    LIST_SEPARATOR,
    Warn,
    colour_pairs,
    is_true,
    parse_colours,
    parse_places,
    parse_rating,
    parse_status,
    place_pairs,
    split_names,
    user_data,
)
from paperdesk.text.latex_escape import read_plain_value

TAGS = "keywords"
NOTE = "annote"
STATUS = "x-paperdesk-status"
RATING = "x-paperdesk-rating"
SHORTLISTS = "x-paperdesk-shortlists"
SHORTLIST_PLACES = "x-paperdesk-shortlist-places"
TAG_COLOURS = "x-paperdesk-tag-colours"
DERIVED_TITLE = "x-paperdesk-derived-title"


def user_fields(paper: Paper, tag_colours: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(field, plain text) for the paper's user data; empty values are left out later."""
    return [
        (TAGS, ", ".join(paper.tags)),
        (NOTE, paper.note),
        (STATUS, paper.status.value),
        (RATING, str(paper.rating) if paper.rating else ""),
        (SHORTLISTS, LIST_SEPARATOR.join(paper.shortlists)),
        (SHORTLIST_PLACES, LIST_SEPARATOR.join(place_pairs(paper))),
        (TAG_COLOURS, ", ".join(colour_pairs(paper, tag_colours))),
        (DERIVED_TITLE, "true" if paper.title_is_derived else ""),
    ]


def read_user_data(fields: dict[str, str], warn: Warn) -> tuple[UserData, bool]:
    """The user data in an entry's fields (names lower-case), and the derived-title flag."""

    def value(name: str) -> str:
        return read_plain_value(fields.get(name, ""))

    keywords = value(TAGS)
    # Ours are always `,`-separated (a tag may hold a `;`); other tools' use either.
    ours = any(name.startswith("x-paperdesk-") for name in fields)
    separator = "," if ours or "," in keywords or ";" not in keywords else ";"
    data = user_data(
        warn,
        tags=split_names(keywords, separator),
        tag_colours=parse_colours(value(TAG_COLOURS).split(","), TAG_COLOURS, warn),
        note=value(NOTE),
        rating=parse_rating(value(RATING), RATING, warn),
        status=parse_status(value(STATUS), STATUS, warn),
        shortlists=split_names(value(SHORTLISTS)),
        shortlist_places=parse_places(split_names(value(SHORTLIST_PLACES)), SHORTLIST_PLACES, warn),
    )
    return data, is_true(value(DERIVED_TITLE))

"""Writing papers as a JSON array or JSON Lines in the keys of the shared corpus.

This is the interchange format for scripts and other tools (`venue, year, title,
authors, abstract, url, openreview, doi, arxiv`; the corpus's `openreview_id` is read
as `openreview`), followed by the paper's key and
the user's data (`citation_key, title_is_derived, status, rating, tags, tag_colours,
shortlists, shortlist_places, note`), which json_reader reads back; a team library's
papers add `team`, every member's rating and note (formats/team_json.py), `rating`
and `note` being the exporting member's own. It is not the backup of a whole library
(see formats.backup): saved searches, history and import batches are not in
it. Every object has every key, `null` (or an empty list) where a paper has no value,
as in `corpus.jsonl`. Titles, authors and venues are written as a reader sees them (the
library's display text, escaped only where it would read as markup: see
paperdesk.text.protect_markup); the abstract as stored, with its LaTeX/Markdown, as the
corpus has it.

A JSON array is written one object per line between its brackets, so a large export
is still a file one can read, diff and grep; JSON Lines is one object per line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from paperdesk.core.models import Paper, PaperRecord
from paperdesk.formats.team_json import team_json
from paperdesk.text import protect_markup

# One encoder for all: json.dumps with options builds one per call (see json_reader).
_encode = json.JSONEncoder(ensure_ascii=False).encode
# Line breaks JSON leaves raw but str.splitlines() (and so many a JSON Lines reader)
# splits on; they only ever occur inside strings, where the escape means the same.
_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def write_json_records(
    papers: Iterable[Paper | PaperRecord],
    stream: TextIO,
    lines: bool = False,
    tag_colours: Sequence[tuple[str, str]] = (),
) -> int:
    """Write `papers` in order as a JSON array (or JSON Lines); return how many.

    `tag_colours` pairs tags with their `#rrggbb` colours (a record's own are used).
    """
    count = 0
    if not lines:
        stream.write("[")
    for paper in papers:
        if not lines:
            stream.write("\n" if count == 0 else ",\n")
        stream.write(_one_line_json(json_record(paper, tag_colours)))
        if lines:
            stream.write("\n")
        count += 1
    if not lines:
        stream.write("\n]\n" if count else "]\n")
    return count


def _one_line_json(value: dict[str, Any]) -> str:
    text = _encode(value)
    for separator, escape in _LINE_SEPARATORS.items():
        text = text.replace(separator, escape)
    return text


def json_record(
    paper: Paper | PaperRecord, tag_colours: Sequence[tuple[str, str]] = ()
) -> dict[str, Any]:
    """One paper as a corpus-style object, its user data after the corpus's keys."""
    ids = paper.ids
    status: str | None
    if isinstance(paper, Paper):
        status, rating, note = paper.status.value, paper.rating or None, paper.note
        tags, shortlists, colours = paper.tags, paper.shortlists, dict(tag_colours)
        places = dict(zip(paper.shortlists, paper.shortlist_places, strict=False))
        team = paper.team
    else:
        user = paper.user
        status = user.status.value if user.status else None
        rating, note = user.rating, user.note
        tags, shortlists, colours = user.tags, user.shortlists, dict(user.tag_colours)
        places = dict(user.shortlist_places)
        team = user.team
    record = {
        "venue": protect_markup(paper.venue) if paper.venue else None,
        "year": paper.year,
        "title": protect_markup(paper.title),
        "authors": [protect_markup(name) for name in paper.authors],
        "abstract": paper.abstract,
        "url": ids.url,
        "openreview": ids.openreview,
        "doi": ids.doi,
        "arxiv": ids.arxiv,
        "citation_key": paper.citation_key,
        "title_is_derived": paper.title_is_derived,
        "status": status,
        "rating": rating,
        "tags": list(tags),
        "tag_colours": {tag: colours[tag] for tag in tags if tag in colours},
        "shortlists": list(shortlists),
        "shortlist_places": places,
        "note": note or None,
    }
    if team is not None:
        record["team"] = team_json(team)
    return record

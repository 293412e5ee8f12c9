"""Writing papers as a JSON array or JSON Lines in the keys of the shared corpus.

This is the interchange format for scripts and other tools (`venue, year, title,
authors, abstract, url, openreview_id, doi, arxiv`), not the lossless backup (see
formats.backup): the user's tags, notes and ratings are not in it. Every object has
every key, `null` where a paper has no value, as in `corpus.jsonl`. Titles, authors
and venues are written as a reader sees them (the library's display text, escaped only
where it would read as markup: see paperdesk.text.protect_markup); the abstract as stored,
with its LaTeX/Markdown, as the corpus has it.

A JSON array is written one object per line between its brackets, so a large export
is still a file one can read, diff and grep; JSON Lines is one object per line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, TextIO

from paperdesk.core.models import Paper, PaperRecord
from paperdesk.text import protect_markup

# One encoder for all: json.dumps with options builds one per call (see json_reader).
_encode = json.JSONEncoder(ensure_ascii=False).encode
# Line breaks JSON leaves raw but str.splitlines() (and so many a JSON Lines reader)
# splits on; they only ever occur inside strings, where the escape means the same.
_LINE_SEPARATORS = {"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"}


def write_json_records(
    papers: Iterable[Paper | PaperRecord], stream: TextIO, lines: bool = False
) -> int:
    """Write `papers` in order as a JSON array (or JSON Lines); return how many."""
    count = 0
    if not lines:
        stream.write("[")
    for paper in papers:
        if not lines:
            stream.write("\n" if count == 0 else ",\n")
        stream.write(_one_line_json(json_record(paper)))
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


def json_record(paper: Paper | PaperRecord) -> dict[str, Any]:
    """One paper as a corpus-style object."""
    ids = paper.ids
    return {
        "venue": protect_markup(paper.venue) if paper.venue else None,
        "year": paper.year,
        "title": protect_markup(paper.title),
        "authors": [protect_markup(name) for name in paper.authors],
        "abstract": paper.abstract,
        "url": ids.url,
        "openreview_id": ids.openreview,
        "doi": ids.doi,
        "arxiv": ids.arxiv,
    }

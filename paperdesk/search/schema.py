"""The whoosh schema and the plain-text document the index is fed.

One combined `text` field (title, abstract, authors, note, tags, venue) serves bare
words: DESIGN §4 measured it ~1.35x faster to index and ~2x faster to search than
separate fields. Small fields exist only where a field filter needs them. Only `text`
keeps word positions: a phrase in another field (`title:"graph neural"`) is asked of
`text`'s positions and that field's words (query.py), which saves a third of the cost
of indexing (bench/bench_index_floor.py, README Performance).
The fields, their types and aliases come from the field table (core/fields.py). Bump
SCHEMA_VERSION whenever the schema or the document changes, here or there: an index
with another version is rebuilt on open.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from whoosh.fields import ID, KEYWORD, NUMERIC, FieldType, Schema

from paperdesk.core import fields
from paperdesk.core.fields import Field
from paperdesk.core.fields import FieldType as Type
from paperdesk.search.analysis import FoldedStemmingAnalyzer, WordsField

SCHEMA_VERSION = 3
#: The one field whose postings keep word positions (for phrases).
POSITIONAL_FIELD = "text"


def _schema_field(field: Field) -> FieldType:
    """The whoosh field a paper field's type asks for."""
    match field.type:
        case Type.TEXT:
            phrase = field.name == POSITIONAL_FIELD
            return WordsField(analyzer=FoldedStemmingAnalyzer(), phrase=phrase)
        case Type.KEYWORD:
            return KEYWORD(commas=field.multiple, lowercase=True)
        case Type.NUMBER:
            # One term per value (shift_step=bits): years and ratings have a few dozen
            # values, so whoosh's eight "tier" terms per number only cost indexing time.
            return NUMERIC(int, bits=32, shift_step=32)
        case Type.STATUS:
            return ID
    raise ValueError(f"the {field.name} field's type {field.type} cannot be searched")


def build_schema() -> Schema:
    """One schema field per queryable field of the field table, and the paper's id."""
    return Schema(
        id=ID(stored=True, unique=True),
        **{field.name: _schema_field(field) for field in fields.query_fields()},
    )


@dataclass(frozen=True)
class IndexDocument:
    """What the index knows of one paper: plain text only, already free of markup."""

    id: int
    title: str
    abstract: str
    authors: tuple[str, ...]
    note: str
    tags: tuple[str, ...]
    venue: str | None
    year: int | None
    status: str
    rating: int
    shortlists: tuple[str, ...]
    # Marked passages with their comments, one per line (the `annotation:` field only:
    # the passages are in the abstract already).
    annotations: str = ""

    def fields(self) -> dict[str, object]:
        """The document whoosh is given: the id and a value for each schema field."""
        document: dict[str, object] = {"id": str(self.id)}
        for name, value_of in _VALUES.items():
            value = value_of(self)
            if value is not None:  # a missing year is left out, never indexed as 0
                document[name] = value
        return document


def _combined_text(document: IndexDocument) -> str:
    parts = (
        document.title,
        document.abstract,
        " ; ".join(document.authors),
        document.note,
        " ".join(document.tags),
        document.venue or "",
    )
    return "\n".join(part for part in parts if part)


#: How each queryable field of the field table is read from a document.
_VALUES: dict[str, Callable[[IndexDocument], object]] = {
    "text": _combined_text,
    "title": lambda d: d.title,
    "author": lambda d: " ; ".join(d.authors),
    "note": lambda d: d.note,
    "tag": lambda d: ",".join(_with_ancestors(d.tags)),
    "venue": lambda d: d.venue or "",
    "year": lambda d: d.year,
    "status": lambda d: d.status,
    "rating": lambda d: d.rating,
    "shortlist": lambda d: ",".join(d.shortlists),
    "annotation": lambda d: d.annotations,
}


def _with_ancestors(tags: tuple[str, ...]) -> list[str]:
    """`ml/rnn` is indexed as `ml/rnn` and `ml`, so `tag:ml` finds the whole branch."""
    names: dict[str, None] = {}
    for tag in tags:
        parts = tag.split("/")
        for depth in range(1, len(parts) + 1):
            names["/".join(parts[:depth])] = None
    return list(names)

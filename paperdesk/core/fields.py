"""The paper fields, each named once: its type, how it sorts, how it is queried and shown.

Every layer that names a field reads it here (compare beets' `dbcore/types.py`): the
store's sort keys, the search schema and the query parser's fields and aliases, the
index document, the CLI's `--sort` choices and the GUI table's columns. A field added
here appears in all of them, or a test names the layer that forgot it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from paperdesk.core import field_values as values
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Paper, PaperRecord
from paperdesk.core.rules import clean_title


class FieldType(StrEnum):
    """What a value is, which decides how it is indexed, matched and sorted."""

    TEXT = "text"  # words, stemmed and accent-folded; phrases; sorts without case
    KEYWORD = "keyword"  # whole values compared without case (a venue, a tag)
    NUMBER = "number"  # an integer: `year:2024..2025`, `rating:>=4`; sorts by value
    STATUS = "status"  # one word of core.models.Status, matched exactly
    DATE = "date"  # a timestamp: sorts only


#: The order that needs no field: best match first, or import order without a query.
RELEVANCE = "relevance"
#: Most promising first, by the model learnt from the user's decisions (issue 10).
PROMISE = "promise"


@dataclass(frozen=True)
class Field:
    """One paper field.

    `sort_key` is the name users sort by (None: not sortable); `query` says whether the
    index has a field of this name that `name:value` searches, with `aliases` users may
    type instead; `multiple` marks a comma-separated list of values (tags); `label` is
    the table column's heading (None: not a column).
    """

    name: str
    type: FieldType
    sort_key: str | None = None
    query: bool = False
    aliases: tuple[str, ...] = ()
    multiple: bool = False
    label: str | None = None

    @property
    def numeric(self) -> bool:
        return self.type == FieldType.NUMBER

    @property
    def query_names(self) -> tuple[str, ...]:
        """What a user may type before the colon to search this field."""
        return (self.name, *self.aliases) if self.query else ()


FIELDS: tuple[Field, ...] = (
    Field("title", FieldType.TEXT, sort_key="title", query=True, label="Title"),
    Field(
        "author",
        FieldType.TEXT,
        sort_key="first_author",
        query=True,
        aliases=("authors", "by"),
        label="First author",
    ),
    Field("venue", FieldType.KEYWORD, sort_key="venue", query=True, label="Venue"),
    Field("year", FieldType.NUMBER, sort_key="year", query=True, label="Year"),
    Field("status", FieldType.STATUS, sort_key="status", query=True, label="Status"),
    Field("rating", FieldType.NUMBER, sort_key="rating", query=True, label="Rating"),
    Field(
        "tag",
        FieldType.KEYWORD,
        sort_key="tags",
        query=True,
        aliases=("tags",),
        multiple=True,
        label="Tags",
    ),
    Field(
        "shortlist",
        FieldType.KEYWORD,
        query=True,
        aliases=("in", "shortlists"),
        multiple=True,
    ),
    Field("note", FieldType.TEXT, query=True),
    # Passages marked in the abstract and their comments (triage, issue 10).
    Field("annotation", FieldType.TEXT, query=True, aliases=("annotations", "highlight")),
    # Every word a reader sees (title, abstract, authors, note, tags, venue): bare words
    # search it. One combined field indexes ~1.35x and searches ~2x faster than several.
    Field("text", FieldType.TEXT, query=True, aliases=("all", "abstract")),
    Field("added", FieldType.DATE, sort_key="added", label="Added"),
    Field("updated", FieldType.DATE, sort_key="updated"),
)

BY_NAME: dict[str, Field] = {field.name: field for field in FIELDS}
BY_SORT_KEY: dict[str, Field] = {f.sort_key: f for f in FIELDS if f.sort_key is not None}
#: The index field bare words search.
DEFAULT_QUERY_FIELD = "text"


#: Names earlier versions wrote for a paper's data, by the one name `--json`, CSV, JSON
#: and the backup now all use; a file in the old form is read by them unchanged.
FORMER_NAMES: dict[str, str] = {"openreview_id": "openreview", "derived_title": "title_is_derived"}


def current_names(item: dict[str, object]) -> dict[str, object]:
    """A file's object with each former name read as its field's name (a name the
    object also holds under the new name keeps the new one's value)."""
    renamed = dict(item)
    # A loop over the two former names, not a comprehension over every key: this runs
    # once per entry of a JSON file.
    for former, name in FORMER_NAMES.items():
        if former in renamed:
            renamed.setdefault(name, renamed.pop(former))
    return renamed


def sort_keys() -> tuple[str, ...]:
    """Every way to order papers, relevance first (the CLI's `--sort` choices)."""
    return (RELEVANCE, PROMISE, *BY_SORT_KEY)


def query_fields() -> tuple[Field, ...]:
    return tuple(field for field in FIELDS if field.query)


def query_aliases() -> dict[str, list[str]]:
    """Index field name -> the other names users may type for it."""
    return {field.name: list(field.aliases) for field in query_fields() if field.aliases}


def query_names() -> set[str]:
    """Every field name a query may use, aliases included."""
    return {name for field in query_fields() for name in field.query_names}


def numeric_query_names() -> set[str]:
    return {name for field in query_fields() if field.numeric for name in field.query_names}


@dataclass(frozen=True)
class EditableField:
    """A field the user edits by hand, in the detail pane or with `paperdesk edit`.

    `parse` reads what the user typed into the value the store keeps (None empties the
    field) or raises InvalidValueError naming the field; `format` gives the stored value
    back as the user edits it, so parsing what it shows changes nothing.
    """

    name: str
    label: str
    parse: Callable[[str], object]
    format: Callable[[Paper], str]
    aliases: tuple[str, ...] = ()
    multiline: bool = False


def raw_value(paper: Paper | PaperRecord, name: str) -> str:
    """A source field kept verbatim (`pages`), as the paper's first one of that name."""
    return next((value for key, value in paper.raw_fields if key.lower() == name), "")


def pages(paper: Paper | PaperRecord) -> str:
    """The paper's pages as BibTeX writes them (`12--34`): its `pages` field, else the
    start and end pages a RIS file gave (SP, EP), so a paper read from RIS has pages."""
    if given := raw_value(paper, "pages"):
        return given
    start, end = raw_value(paper, "sp"), raw_value(paper, "ep")
    return f"{start}--{end}" if start and end and start != end else start or end


EDITABLE_FIELDS: tuple[EditableField, ...] = (
    EditableField("title", "Title", clean_title, lambda p: p.title),
    EditableField(
        "authors",
        "Authors",
        values.parse_authors,
        lambda p: values.format_authors(p.authors),
        aliases=("author",),
        multiline=True,
    ),
    EditableField("venue", "Venue", values.parse_optional_text, lambda p: p.venue or ""),
    EditableField("year", "Year", values.parse_year, lambda p: str(p.year or "")),
    EditableField(
        "type",
        "Entry type",
        values.parse_entry_type,
        lambda p: p.entry_type or "",
        aliases=("entry_type", "entrytype"),
    ),
    EditableField("doi", "DOI", values.parse_doi, lambda p: p.ids.doi or ""),
    EditableField("arxiv", "arXiv", values.parse_arxiv, lambda p: p.ids.arxiv or ""),
    EditableField(
        "openreview", "OpenReview", values.parse_openreview, lambda p: p.ids.openreview or ""
    ),
    EditableField("url", "URL", values.parse_url, lambda p: p.ids.url or ""),
    EditableField("pages", "Pages", values.parse_pages, pages),
    EditableField(
        "key",
        "Citation key",
        values.parse_citation_key,
        lambda p: p.citation_key or "",
        aliases=("citation_key", "citekey"),
    ),
)

_EDITABLE_BY_NAME = {
    name: field for field in EDITABLE_FIELDS for name in (field.name, *field.aliases)
}


def editable_field(name: str) -> EditableField:
    """The editable field of this name or alias; InvalidValueError naming the choices."""
    field = _EDITABLE_BY_NAME.get(name.strip().lower())
    if field is None:
        choices = ", ".join(f.name for f in EDITABLE_FIELDS)
        raise InvalidValueError(f"cannot edit {name!r}; choose one of: {choices}")
    return field


def parse_edit(name: str, text: str) -> tuple[EditableField, object]:
    """The field and the value to store for `text` typed into it."""
    field = editable_field(name)
    return field, field.parse(text)

"""The tables as SQLAlchemy Core objects: the registry every store module queries.

The sub-stores build Core statements over chunks (never one ORM object per row), so a
100,000-paper library stays fast; these names are what they build them from.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import sqlite

from paperdesk.store.journal import CHUNK
from paperdesk.store.schema import (
    AnnotationRow,
    AuthorRow,
    BibtexDefinitionRow,
    ChangeLogRow,
    DecisionRow,
    GeneratedKeyRow,
    HighlightWordRow,
    HistoryRow,
    ImportBatchPaperRow,
    ImportBatchRow,
    MemberValueRow,
    MetaRow,
    NotDuplicateRow,
    NoteRow,
    PaperRow,
    PaperStateRow,
    PaperTagRow,
    SavedSearchRow,
    ScreeningFinishRow,
    ScreeningRow,
    ShortlistEntryRow,
    ShortlistRow,
    TagRow,
)

T = TypeVar("T")

papers_t: Table = PaperRow.__table__  # type: ignore[assignment]
state_t: Table = PaperStateRow.__table__  # type: ignore[assignment]
authors_t: Table = AuthorRow.__table__  # type: ignore[assignment]
tags_t: Table = TagRow.__table__  # type: ignore[assignment]
paper_tags_t: Table = PaperTagRow.__table__  # type: ignore[assignment]
notes_t: Table = NoteRow.__table__  # type: ignore[assignment]
shortlists_t: Table = ShortlistRow.__table__  # type: ignore[assignment]
entries_t: Table = ShortlistEntryRow.__table__  # type: ignore[assignment]
saved_t: Table = SavedSearchRow.__table__  # type: ignore[assignment]
batches_t: Table = ImportBatchRow.__table__  # type: ignore[assignment]
batch_papers_t: Table = ImportBatchPaperRow.__table__  # type: ignore[assignment]
history_t: Table = HistoryRow.__table__  # type: ignore[assignment]
meta_t: Table = MetaRow.__table__  # type: ignore[assignment]
not_duplicates_t: Table = NotDuplicateRow.__table__  # type: ignore[assignment]
change_log_t: Table = ChangeLogRow.__table__  # type: ignore[assignment]
annotations_t: Table = AnnotationRow.__table__  # type: ignore[assignment]
decisions_t: Table = DecisionRow.__table__  # type: ignore[assignment]
highlight_words_t: Table = HighlightWordRow.__table__  # type: ignore[assignment]
member_values_t: Table = MemberValueRow.__table__  # type: ignore[assignment]
screenings_t: Table = ScreeningRow.__table__  # type: ignore[assignment]
finishes_t: Table = ScreeningFinishRow.__table__  # type: ignore[assignment]
definitions_t: Table = BibtexDefinitionRow.__table__  # type: ignore[assignment]
generated_keys_t: Table = GeneratedKeyRow.__table__  # type: ignore[assignment]


def now() -> datetime:
    """A timestamp as the store keeps them (to the second)."""
    return datetime.now().replace(microsecond=0)


def chunked(values: Sequence[T], size: int = CHUNK) -> Iterator[list[T]]:
    """`values` in lists of at most `size` (SQLite limits the variables of a statement)."""
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start : start + size]


def insert_missing(connection: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert `rows`, skipping those whose key is already there: set semantics.

    On a team library two people tagging one paper at once both succeed and the paper
    has the tag once; checking first and inserting after would make one of them fail.
    """
    if not rows:
        return
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects import postgresql  # a team library's only

        connection.execute(postgresql.insert(table).on_conflict_do_nothing(), list(rows))
    else:
        connection.execute(sqlite.insert(table).on_conflict_do_nothing(), list(rows))

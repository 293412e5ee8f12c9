"""SQLAlchemy 2.x typed models: the store of truth (DESIGN §3).

The models describe tables; the Library facade turns rows into core dataclasses so no
ORM object ever leaves this package. Alembic migrations (store/migrations) create and
evolve these tables; `tests/store/test_migrations.py` checks the two never drift apart.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Computed,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    TypeDecorator,
    false,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class NoCaseName(TypeDecorator[str]):
    """A name unique regardless of case: SQLite's NOCASE collation; on PostgreSQL (a team
    library) the citext type, whose LIKE is case-insensitive too (tag families use it).

    Chosen per dialect when a statement is compiled, so that opening a local library
    does not import SQLAlchemy's PostgreSQL dialect (a `with_variant(CITEXT())` would).
    """

    impl = String
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> Any:
        if dialect.name == "postgresql":
            from sqlalchemy.dialects.postgresql import CITEXT

            return dialect.type_descriptor(CITEXT())
        return dialect.type_descriptor(String(collation="NOCASE"))


class Base(DeclarativeBase):
    pass


def written_columns(table: Table) -> list[Column[Any]]:
    """The columns a row is written with: all but those the database computes (a
    journal or a snapshot that wrote those back would be refused)."""
    return [column for column in table.columns if column.computed is None]


class PaperRow(Base):
    __tablename__ = "papers"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(Text)
    # What the table sorts titles by, computed by the database and indexed: the first
    # sort of a session walks the index instead of sorting 100,000 titles (issue 25).
    title_sort: Mapped[str] = mapped_column(Text, Computed("lower(title)"), index=True)
    title_is_derived: Mapped[bool] = mapped_column(Boolean, default=False)
    # Normalised real title for duplicate matching; NULL while the title is derived,
    # because two derived titles agreeing says nothing about the papers.
    title_key: Mapped[str | None] = mapped_column(String, index=True)
    venue: Mapped[str | None] = mapped_column(String)
    year: Mapped[int | None] = mapped_column(Integer)
    abstract: Mapped[str] = mapped_column(Text, default="")
    doi: Mapped[str | None] = mapped_column(String, index=True)
    arxiv: Mapped[str | None] = mapped_column(String, index=True)
    openreview: Mapped[str | None] = mapped_column(String, index=True)
    url: Mapped[str | None] = mapped_column(String)
    entry_type: Mapped[str | None] = mapped_column(String)
    citation_key: Mapped[str | None] = mapped_column(String, unique=True)
    added: Mapped[datetime] = mapped_column(DateTime, index=True)
    fingerprint: Mapped[str] = mapped_column(String, index=True)
    # Verbatim source fields (JSON list of [name, value]) so exports can give back raw BibTeX.
    raw_fields: Mapped[str] = mapped_column(Text, default="[]")
    # Metadata a merge did not apply because the paper already had another value (JSON).
    alternatives: Mapped[str] = mapped_column(Text, default="{}")


class PaperStateRow(Base):
    """What the user decides about a paper, and when it last changed, in a narrow table
    of its own: a status set on 100,000 papers rewrites 100,000 short rows here (0.25 s)
    instead of every page of the wide papers table, abstracts and all (4 s)."""

    __tablename__ = "paper_state"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String, default="new", index=True)
    rating: Mapped[int] = mapped_column(Integer, default=0)
    updated: Mapped[datetime] = mapped_column(DateTime)


class AuthorRow(Base):
    __tablename__ = "paper_authors"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String)
    # What the table sorts first authors by (see PaperRow.title_sort).
    name_sort: Mapped[str] = mapped_column(String, Computed("lower(name)"))


class TagRow(Base):
    __tablename__ = "tags"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Case-insensitive uniqueness: "RNN" and "rnn" are one tag (COLLATE NOCASE).
    name: Mapped[str] = mapped_column(NoCaseName(), unique=True)
    colour: Mapped[str | None] = mapped_column(String)


class PaperTagRow(Base):
    __tablename__ = "paper_tags"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    tag_id: Mapped[int] = mapped_column(
        ForeignKey("tags.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class NoteRow(Base):
    __tablename__ = "notes"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    body: Mapped[str] = mapped_column(Text, default="")
    created: Mapped[datetime] = mapped_column(DateTime)
    updated: Mapped[datetime] = mapped_column(DateTime)


class ShortlistRow(Base):
    __tablename__ = "shortlists"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(NoCaseName(), unique=True)
    created: Mapped[datetime] = mapped_column(DateTime)


class ShortlistEntryRow(Base):
    __tablename__ = "shortlist_entries"

    shortlist_id: Mapped[int] = mapped_column(
        ForeignKey("shortlists.id", ondelete="CASCADE"), primary_key=True
    )
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    # Float positions let a drag insert between two entries without renumbering all.
    position: Mapped[float] = mapped_column(Float)


class SavedSearchRow(Base):
    __tablename__ = "saved_searches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(NoCaseName(), unique=True)
    query: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)


class ImportBatchRow(Base):
    __tablename__ = "import_batches"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    label: Mapped[str] = mapped_column(String)
    file_name: Mapped[str] = mapped_column(String, index=True)
    sha256: Mapped[str] = mapped_column(String, index=True)
    format: Mapped[str] = mapped_column(String)
    added: Mapped[int] = mapped_column(Integer, default=0)
    merged: Mapped[int] = mapped_column(Integer, default=0)
    unchanged: Mapped[int] = mapped_column(Integer, default=0)
    skipped: Mapped[int] = mapped_column(Integer, default=0)
    imported_at: Mapped[datetime] = mapped_column(DateTime)


class ImportBatchPaperRow(Base):
    """Which papers a file held: lets a re-import report what went missing since."""

    __tablename__ = "import_batch_papers"

    batch_id: Mapped[int] = mapped_column(
        ForeignKey("import_batches.id", ondelete="CASCADE"), primary_key=True
    )
    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class BibtexDefinitionRow(Base):
    """A `@preamble` text or `@string` macro of an imported BibTeX file (core.models
    BibtexDefinitions), written back when its papers are exported as BibTeX."""

    __tablename__ = "bibtex_definitions"

    batch_id: Mapped[int] = mapped_column(
        ForeignKey("import_batches.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)  # in the file
    kind: Mapped[str] = mapped_column(String)  # "preamble" or "string"
    name: Mapped[str] = mapped_column(String, default="")  # a string's; "" for a preamble
    value: Mapped[str] = mapped_column(Text)


class GeneratedKeyRow(Base):
    """A paper whose citation key the key pattern made (pin-keys; no file gave it): a key a file
    gives it later replaces it."""

    __tablename__ = "generated_keys"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )


class NotDuplicateRow(Base):
    """A user's decision that two papers are different, so they are never offered again."""

    __tablename__ = "not_duplicates"

    paper_a: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    paper_b: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )


class AnnotationRow(Base):
    """A marked passage of a paper's abstract (core.models.Annotation)."""

    __tablename__ = "annotations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    start: Mapped[int] = mapped_column(Integer)
    stop: Mapped[int] = mapped_column(Integer)
    quote: Mapped[str] = mapped_column(Text)
    colour: Mapped[str] = mapped_column(String)
    comment: Mapped[str] = mapped_column(Text, default="")
    created: Mapped[datetime] = mapped_column(DateTime)


class DecisionRow(Base):
    """One triage decision (keep, maybe, discard) and when it was made: the triage log
    that pace, progress plots and the stopping hint are read from."""

    __tablename__ = "decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(ForeignKey("papers.id", ondelete="CASCADE"), index=True)
    decision: Mapped[str] = mapped_column(String)
    at: Mapped[datetime] = mapped_column(DateTime, index=True)
    # The screening the decision was made in (NULL: before screenings had names), and
    # the exclusion reason a discard may carry (one of the screening's reasons).
    screening_id: Mapped[int | None] = mapped_column(Integer, index=True, nullable=True)
    reason: Mapped[str | None] = mapped_column(String, nullable=True)
    # Who decided, in a team library (NULL in the personal library): the server stamps
    # it; a blind screening hides it from the other members (migration 0009). A
    # resolution settles the members' disagreement on the paper.
    member: Mapped[str | None] = mapped_column(String, nullable=True)
    resolves: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ScreeningRow(Base):
    """A named screening: its scope, seed query, order, keep target and exclusion
    reasons (core/screening.py). Its decisions are the decisions rows with its id."""

    __tablename__ = "screenings"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(NoCaseName(), unique=True)
    scope_kind: Mapped[str] = mapped_column(String)
    scope_value: Mapped[str] = mapped_column(Text)
    query: Mapped[str] = mapped_column(Text)
    confine: Mapped[bool] = mapped_column(Boolean)
    order: Mapped[str] = mapped_column(String)
    shortlist: Mapped[str | None] = mapped_column(String, nullable=True)
    # JSON list of the reasons, in key order.
    reasons: Mapped[str] = mapped_column(Text)
    created: Mapped[datetime] = mapped_column(DateTime)
    used: Mapped[datetime] = mapped_column(DateTime)
    # Each member decides without seeing the others' decisions until they finish.
    blind: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ScreeningFinishRow(Base):
    """A member finished a blind screening: their decisions are final, and they now see
    the others' (migration 0009)."""

    __tablename__ = "screening_finishes"

    screening_id: Mapped[int] = mapped_column(
        ForeignKey("screenings.id", ondelete="CASCADE"), primary_key=True
    )
    member: Mapped[str] = mapped_column(String, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime)


class HighlightWordRow(Base):
    """A word the library always highlights in abstracts (case-insensitive)."""

    __tablename__ = "highlight_words"

    word: Mapped[str] = mapped_column(NoCaseName(), primary_key=True)


class HistoryRow(Base):
    """One user action with the row states before and after it (store/journal.py)."""

    __tablename__ = "history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String)
    actor: Mapped[str] = mapped_column(String)
    at: Mapped[datetime] = mapped_column(DateTime, index=True)
    undone: Mapped[bool] = mapped_column(Boolean, default=False)
    # Who took the action back (a team library's server stamps it: migration 0007).
    undone_by: Mapped[str | None] = mapped_column(String, nullable=True)
    payload: Mapped[str] = mapped_column(Text)


class MetaRow(Base):
    """Small key/value facts about the library, e.g. the write generation for the index."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String, primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class ChangeLogRow(Base):
    """Which papers each generation of a team library touched (store/change_log.py)."""

    __tablename__ = "change_log"

    generation: Mapped[int] = mapped_column(Integer, primary_key=True)
    paper_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Set when only this member's own note or rating changed: no one else's index
    # shows it, so no one else re-indexes the paper.
    member: Mapped[str | None] = mapped_column(String)


class MemberValueRow(Base):
    """One member's own note and rating of a paper in a team library
    (store/member_values.py); the personal library keeps them on the paper instead."""

    __tablename__ = "member_values"

    paper_id: Mapped[int] = mapped_column(
        ForeignKey("papers.id", ondelete="CASCADE"), primary_key=True
    )
    member: Mapped[str] = mapped_column(String, primary_key=True)
    rating: Mapped[int] = mapped_column(Integer, default=0)
    rated: Mapped[datetime | None] = mapped_column(DateTime)
    note: Mapped[str] = mapped_column(Text, default="")
    noted: Mapped[datetime | None] = mapped_column(DateTime)


Index("ix_shortlist_entries_order", ShortlistEntryRow.shortlist_id, ShortlistEntryRow.position)
# The first authors in sorted order, read from the index alone (position 0 first).
Index("ix_paper_authors_sort", AuthorRow.position, AuthorRow.name_sort, AuthorRow.paper_id)

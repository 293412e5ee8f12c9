"""initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import CITEXT

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


# Case-insensitive names: NOCASE on SQLite, citext on PostgreSQL (a team library).
NOCASE_NAME = sa.String(collation="NOCASE").with_variant(CITEXT(), "postgresql")


def upgrade() -> None:
    if op.get_context().dialect.name == "postgresql":
        # A trusted extension since PostgreSQL 13: the database's owner may create it.
        op.execute("CREATE EXTENSION IF NOT EXISTS citext")
    op.create_table(
        "history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("action", sa.String(), nullable=False),
        sa.Column("actor", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("undone", sa.Boolean(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("history", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_history_at"), ["at"], unique=False)

    op.create_table(
        "import_batches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("label", sa.String(), nullable=False),
        sa.Column("file_name", sa.String(), nullable=False),
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("format", sa.String(), nullable=False),
        sa.Column("added", sa.Integer(), nullable=False),
        sa.Column("merged", sa.Integer(), nullable=False),
        sa.Column("unchanged", sa.Integer(), nullable=False),
        sa.Column("skipped", sa.Integer(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("import_batches", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_import_batches_file_name"), ["file_name"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_import_batches_sha256"), ["sha256"], unique=False)

    op.create_table(
        "meta",
        sa.Column("key", sa.String(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("key"),
    )
    op.create_table(
        "papers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("title_is_derived", sa.Boolean(), nullable=False),
        sa.Column("title_key", sa.String(), nullable=True),
        sa.Column("venue", sa.String(), nullable=True),
        sa.Column("year", sa.Integer(), nullable=True),
        sa.Column("abstract", sa.Text(), nullable=False),
        sa.Column("doi", sa.String(), nullable=True),
        sa.Column("arxiv", sa.String(), nullable=True),
        sa.Column("openreview", sa.String(), nullable=True),
        sa.Column("url", sa.String(), nullable=True),
        sa.Column("entry_type", sa.String(), nullable=True),
        sa.Column("citation_key", sa.String(), nullable=True),
        sa.Column("status", sa.String(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("added", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.Column("fingerprint", sa.String(), nullable=False),
        sa.Column("raw_fields", sa.Text(), nullable=False),
        sa.Column("alternatives", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("citation_key"),
    )
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_papers_added"), ["added"], unique=False)
        batch_op.create_index(batch_op.f("ix_papers_arxiv"), ["arxiv"], unique=False)
        batch_op.create_index(batch_op.f("ix_papers_doi"), ["doi"], unique=False)
        batch_op.create_index(batch_op.f("ix_papers_fingerprint"), ["fingerprint"], unique=False)
        batch_op.create_index(batch_op.f("ix_papers_openreview"), ["openreview"], unique=False)
        batch_op.create_index(batch_op.f("ix_papers_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_papers_title_key"), ["title_key"], unique=False)

    op.create_table(
        "saved_searches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", NOCASE_NAME, nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "shortlists",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", NOCASE_NAME, nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "tags",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", NOCASE_NAME, nullable=False),
        sa.Column("colour", sa.String(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    op.create_table(
        "import_batch_papers",
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["batch_id"], ["import_batches.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("batch_id", "paper_id"),
    )
    with op.batch_alter_table("import_batch_papers", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_import_batch_papers_paper_id"), ["paper_id"], unique=False
        )

    op.create_table(
        "not_duplicates",
        sa.Column("paper_a", sa.Integer(), nullable=False),
        sa.Column("paper_b", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_a"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["paper_b"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_a", "paper_b"),
    )
    op.create_table(
        "notes",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("updated", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id"),
    )
    op.create_table(
        "paper_authors",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id", "position"),
    )
    op.create_table(
        "paper_tags",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("tag_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tag_id"], ["tags.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id", "tag_id"),
    )
    with op.batch_alter_table("paper_tags", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_paper_tags_tag_id"), ["tag_id"], unique=False)

    op.create_table(
        "shortlist_entries",
        sa.Column("shortlist_id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Float(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["shortlist_id"], ["shortlists.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("shortlist_id", "paper_id"),
    )
    with op.batch_alter_table("shortlist_entries", schema=None) as batch_op:
        batch_op.create_index(
            "ix_shortlist_entries_order", ["shortlist_id", "position"], unique=False
        )
        batch_op.create_index(
            batch_op.f("ix_shortlist_entries_paper_id"), ["paper_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("shortlist_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_shortlist_entries_paper_id"))
        batch_op.drop_index("ix_shortlist_entries_order")

    op.drop_table("shortlist_entries")
    with op.batch_alter_table("paper_tags", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_paper_tags_tag_id"))

    op.drop_table("paper_tags")
    op.drop_table("paper_authors")
    op.drop_table("notes")
    op.drop_table("not_duplicates")
    with op.batch_alter_table("import_batch_papers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_import_batch_papers_paper_id"))

    op.drop_table("import_batch_papers")
    op.drop_table("tags")
    op.drop_table("shortlists")
    op.drop_table("saved_searches")
    with op.batch_alter_table("papers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_papers_title_key"))
        batch_op.drop_index(batch_op.f("ix_papers_status"))
        batch_op.drop_index(batch_op.f("ix_papers_openreview"))
        batch_op.drop_index(batch_op.f("ix_papers_fingerprint"))
        batch_op.drop_index(batch_op.f("ix_papers_doi"))
        batch_op.drop_index(batch_op.f("ix_papers_arxiv"))
        batch_op.drop_index(batch_op.f("ix_papers_added"))

    op.drop_table("papers")
    op.drop_table("meta")
    with op.batch_alter_table("import_batches", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_import_batches_sha256"))
        batch_op.drop_index(batch_op.f("ix_import_batches_file_name"))

    op.drop_table("import_batches")
    with op.batch_alter_table("history", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_history_at"))

    op.drop_table("history")

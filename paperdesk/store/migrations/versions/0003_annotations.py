"""annotations, the triage log and the always-highlight words

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Three new tables for triage (issue 10): marked passages of abstracts with a colour and
a comment, every keep/maybe/discard decision with its time, and the words a library
always highlights. Existing libraries gain them empty.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import CITEXT

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "annotations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("start", sa.Integer(), nullable=False),
        sa.Column("stop", sa.Integer(), nullable=False),
        sa.Column("quote", sa.Text(), nullable=False),
        sa.Column("colour", sa.String(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("annotations", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_annotations_paper_id"), ["paper_id"], unique=False)

    op.create_table(
        "decisions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("decision", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_decisions_at"), ["at"], unique=False)
        batch_op.create_index(batch_op.f("ix_decisions_paper_id"), ["paper_id"], unique=False)

    op.create_table(
        "highlight_words",
        # Case-insensitive: NOCASE on SQLite, citext on PostgreSQL (a team library).
        sa.Column(
            "word",
            sa.String(collation="NOCASE").with_variant(CITEXT(), "postgresql"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("word"),
    )


def downgrade() -> None:
    op.drop_table("highlight_words")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_decisions_paper_id"))
        batch_op.drop_index(batch_op.f("ix_decisions_at"))
    op.drop_table("decisions")
    with op.batch_alter_table("annotations", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_annotations_paper_id"))
    op.drop_table("annotations")

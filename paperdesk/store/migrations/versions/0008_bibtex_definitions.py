"""BibTeX preambles and strings kept with their import; generated keys

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03

A BibTeX file's `@preamble` texts and `@string` macros are kept with the import batch
that read them (bibtex_definitions), so that a BibTeX export writes them back and a
bibliography whose entries use the preamble's macros still compiles (issue 24).
generated_keys names the papers whose citation key was generated (pin-keys): a key a file gives
such a paper later replaces it. Existing libraries gain both tables empty (their
imports' definitions were not kept; re-importing the file keeps them).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "bibtex_definitions",
        sa.Column("batch_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.ForeignKeyConstraint(["batch_id"], ["import_batches.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("batch_id", "position"),
    )
    op.create_table(
        "generated_keys",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id"),
    )


def downgrade() -> None:
    op.drop_table("generated_keys")
    op.drop_table("bibtex_definitions")

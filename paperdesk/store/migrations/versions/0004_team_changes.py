"""the change sequence of a team library, and a generation row from the start

A team library (PostgreSQL) logs which papers each generation touched, so every
client re-indexes only what others changed (store/change_log.py). The generation row
is created here rather than by the first write: two clients' first writes would both
try to create it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "change_log",
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("generation", "paper_id"),
    )
    op.execute(
        "INSERT INTO meta (key, value) SELECT 'generation', '0' "
        "WHERE NOT EXISTS (SELECT 1 FROM meta WHERE key = 'generation')"
    )


def downgrade() -> None:
    op.drop_table("change_log")

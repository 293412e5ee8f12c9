"""screenings: named triages with their own decisions and exclusion reasons

A screening (core/screening.py) is a named triage a user comes back to: its scope, the
query that seeds it, whether that query confines it, its order, keep target and
exclusion reasons. Each decision now names its screening and may carry a reason.

Decisions logged before screenings had names join one screening, "Triage", over the
papers not yet decided (what the triage view went through by default), so their
progress is not lost.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import CITEXT

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "screenings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column(
            "name",
            sa.String(collation="NOCASE").with_variant(CITEXT(), "postgresql"),
            nullable=False,
        ),
        sa.Column("scope_kind", sa.String(), nullable=False),
        sa.Column("scope_value", sa.Text(), nullable=False),
        sa.Column("query", sa.Text(), nullable=False),
        sa.Column("confine", sa.Boolean(), nullable=False),
        sa.Column("order", sa.String(), nullable=False),
        sa.Column("shortlist", sa.String(), nullable=True),
        sa.Column("reasons", sa.Text(), nullable=False),
        sa.Column("created", sa.DateTime(), nullable=False),
        sa.Column("used", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("screening_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("reason", sa.String(), nullable=True))
        batch_op.create_index(
            batch_op.f("ix_decisions_screening_id"), ["screening_id"], unique=False
        )
    connection = op.get_bind()
    if connection.scalar(sa.text("SELECT COUNT(*) FROM decisions")):
        now = datetime.now().replace(microsecond=0)
        connection.execute(
            sa.text(
                'INSERT INTO screenings (name, scope_kind, scope_value, query, confine, "order",'
                " shortlist, reasons, created, used) VALUES ('Triage', 'status', 'new', '',"
                " :no, 'promise', 'Kept', '[]', :now, :now)"
            ),
            {"no": False, "now": now},
        )
        connection.execute(
            sa.text(
                "UPDATE decisions SET screening_id ="
                " (SELECT id FROM screenings WHERE name = 'Triage')"
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_decisions_screening_id"))
        batch_op.drop_column("reason")
        batch_op.drop_column("screening_id")
    op.drop_table("screenings")

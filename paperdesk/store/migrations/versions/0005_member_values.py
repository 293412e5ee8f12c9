"""notes and ratings per member of a team library

A team library (PostgreSQL) keeps each member's own note and rating of a paper in
member_values (store/member_values.py). Its shared note and rating move there, as the
values of the member who wrote them last (the history names who did) or, when no
history names one (an import wrote them), of the database's owner; the shared fields
are then emptied, so nothing reads a stale value. The personal library (SQLite) gets
the empty table and keeps its note and rating on the paper.

change_log gains `member`: a change to one member's own values re-indexes the paper
for that member only.

Downgrade drops the per-member values (what stays is whatever the shared fields hold).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Iterable

import sqlalchemy as sa
from alembic import op

from paperdesk.store.journal import Step, steps_from_json

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("change_log", sa.Column("member", sa.String(), nullable=True))
    op.create_table(
        "member_values",
        sa.Column("paper_id", sa.Integer(), nullable=False),
        sa.Column("member", sa.String(), nullable=False),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("rated", sa.DateTime(), nullable=True),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("noted", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["paper_id"], ["papers.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("paper_id", "member"),
    )
    connection = op.get_bind()
    if connection.dialect.name == "postgresql":
        _move_shared_values(connection)


def downgrade() -> None:
    op.drop_table("member_values")
    op.drop_column("change_log", "member")


def _move_shared_values(connection: sa.Connection) -> None:
    owner = connection.scalar(
        sa.text(
            "SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()"
        )
    )
    note_writers, rating_writers = _last_writers(connection)
    values: dict[tuple[int, str], dict[str, object]] = {}

    def row(paper_id: int, member: str) -> dict[str, object]:
        empty = {"rating": 0, "rated": None, "note": "", "noted": None}
        return values.setdefault(
            (paper_id, member), {"paper_id": paper_id, "member": member, **empty}
        )

    notes = connection.execute(sa.text("SELECT paper_id, body, updated FROM notes"))
    for paper_id, body, updated in notes:
        entry = row(paper_id, note_writers.get(paper_id, owner))
        entry.update(note=body, noted=updated)
    ratings = connection.execute(
        sa.text("SELECT paper_id, rating, updated FROM paper_state WHERE rating > 0")
    )
    for paper_id, rating, updated in ratings:
        entry = row(paper_id, rating_writers.get(paper_id, owner))
        entry.update(rating=rating, rated=updated)
    if values:
        connection.execute(
            sa.text(
                "INSERT INTO member_values (paper_id, member, rating, rated, note, noted) "
                "VALUES (:paper_id, :member, :rating, :rated, :note, :noted)"
            ),
            list(values.values()),
        )
    connection.execute(sa.text("DELETE FROM notes"))
    connection.execute(sa.text("UPDATE paper_state SET rating = 0 WHERE rating > 0"))


def _last_writers(connection: sa.Connection) -> tuple[dict[int, str], dict[int, str]]:
    """Who last changed each paper's note, and its rating, by the history (oldest first,
    actions undone left out: their values were put back)."""
    note_writers: dict[int, str] = {}
    rating_writers: dict[int, str] = {}
    history = connection.execute(
        sa.text("SELECT actor, payload FROM history WHERE NOT undone ORDER BY id")
    )
    for actor, payload in history:
        if not isinstance(json.loads(payload), list):  # an import: not undoable, no rows
            continue
        for step in steps_from_json(payload):
            if step.table == "notes":
                note_writers.update((r["paper_id"], actor) for r in [*step.before, *step.after])
            elif step.table == "paper_state":
                rating_writers.update((paper_id, actor) for paper_id in _rated_ids(step))
    return note_writers, rating_writers


def _rated_ids(step: Step) -> Iterable[int]:
    """The papers whose rating a paper_state step set."""
    if step.groups is not None:
        if "rating" in step.groups.columns:
            yield from step.groups.ids()
        return
    before = {r["paper_id"]: r.get("rating") for r in step.before}
    for after in step.after:
        if "rating" in after and before.get(after["paper_id"]) != after["rating"]:
            yield after["paper_id"]

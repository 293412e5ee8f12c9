"""while a member has not finished a blind screening, the others' notes and ratings on
the papers they decided in it are hidden from them

A note or a rating written while screening blind tells the judgement as plainly as the
decision (migration 0009 hides the decision). On a team library (PostgreSQL), row-level
security on member_values (FORCEd by migration 0007, so it binds the library's owners
too) now also hides member M's note and rating of paper P from U when M decided P in a
blind screening that U has not finished. The team average is read from the same rows,
so it leaves them out as well. Once U finishes, or the screening stops being blind,
they show again.

`paperdesk_blind_hides` reads every decision (SECURITY DEFINER, as the tables' owner),
through the index on decisions.paper_id (a paper has a handful of decisions). Inside
the server's own functions, which run as the tables' owner group, every row is seen:
a merge must move or keep them all. An owner who takes that group's role in psql
(`SET ROLE`) sees everything, as a database's owner always can.

A merge of papers carrying notes or ratings the merging member cannot see is refused
(`paperdesk_refuse_hidden_values`, called by the client before it folds the values it
sees, and by `paperdesk_merge_away`): they would go with a merged paper, or collide
with the member's folded row on the kept one.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-03
"""

from __future__ import annotations

from importlib import import_module

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

BLIND_HIDES = """
CREATE OR REPLACE FUNCTION paperdesk_blind_hides(pid integer, author text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT author <> session_user::text AND EXISTS (
    SELECT 1 FROM decisions AS d JOIN screenings AS s ON s.id = d.screening_id
    WHERE d.paper_id = pid AND d.member = author AND s.blind
      AND NOT EXISTS (SELECT 1 FROM screening_finishes AS f
                      WHERE f.screening_id = s.id AND f.member = session_user::text))
$$
"""

#: The server's own functions run as the owner group (store/team_roles.py).
IN_SERVER_FUNCTION = "current_user::text = 'pd_' || current_database() || '_owner'"

#: Refuses a merge of papers carrying notes or ratings the merging member cannot see:
#: the client folds the ones it sees (store/member_values.py), and the others would be
#: deleted with a merged paper, or collide with the folded row on the kept one.
REFUSE_HIDDEN_VALUES = """
CREATE OR REPLACE FUNCTION paperdesk_refuse_hidden_values(papers integer[])
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM member_values WHERE paper_id = ANY(papers)
             AND member <> session_user::text AND paperdesk_blind_hides(paper_id, member)) THEN
    RAISE EXCEPTION 'papers % carry notes or ratings that a blind screening hides from %',
      array_to_string(papers, ', '), session_user USING ERRCODE = 'insufficient_privilege';
  END IF;
END
$$
"""
#: Migration 0011's merge, checking first.
PREVIOUS = import_module("paperdesk.store.migrations.versions.0011_keep_others_decisions")
MERGE_AWAY = PREVIOUS.MERGE_AWAY.replace(
    "\n  UPDATE decisions",
    "\n  PERFORM paperdesk_refuse_hidden_values(survivor || others);\n  UPDATE decisions",
    1,
)
assert MERGE_AWAY != PREVIOUS.MERGE_AWAY


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(BLIND_HIDES)
    op.execute(REFUSE_HIDDEN_VALUES)
    op.execute(MERGE_AWAY)
    op.execute(
        "CREATE POLICY blind_hides_values ON member_values AS RESTRICTIVE FOR SELECT "
        f"USING (member = session_user::text OR {IN_SERVER_FUNCTION} "
        "OR NOT paperdesk_blind_hides(paper_id, member))"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP POLICY blind_hides_values ON member_values")
    op.execute(PREVIOUS.MERGE_AWAY)
    op.execute("DROP FUNCTION paperdesk_refuse_hidden_values(integer[])")
    op.execute("DROP FUNCTION paperdesk_blind_hides(integer, text)")

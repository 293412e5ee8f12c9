"""nothing another member decided is lost: merges move everyone's decisions, deletes
keep them, forgetting a screening detaches them all

Row-level security (migration 0009) shows a member only some of the decisions on a
paper: a client's own statements cannot move or keep the ones it does not see, and a
paper's delete cascades to them. On a team library (PostgreSQL) the server now does it:

- `paperdesk_merge_away(survivor, others)` moves every member's decisions on the papers
  `others` to `survivor` and deletes `others`, in one call (the only way to move another
  member's decision, so it cannot be used to shuffle them between papers that stay);
- no one, not even an owner, deletes a paper that carries another member's decision
  (a trigger; an owner may delete others' notes and ratings, which undo brings back,
  but may not see a blind decision, which undo could not);
- forgetting a screening detaches every member's decisions of it into the library-wide
  log (both dialects: a trigger), never only the forgetter's; a blind screening is
  forgotten only once every other member who decided in it has finished (before, its
  decisions would show to everyone). Decisions an earlier forget left pointing at a
  screening that is gone are detached here.

The functions that must see every decision run as the tables' owner (SECURITY
DEFINER, handed to the owner group by store/team_roles.py), which row-level security on
decisions leaves alone; `session_user` in them is still the caller.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-03
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

MERGE_AWAY = """
CREATE OR REPLACE FUNCTION paperdesk_merge_away(survivor integer, others integer[])
RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF NOT has_table_privilege(session_user, 'papers', 'DELETE') THEN
    RAISE EXCEPTION 'only a member of the library merges papers'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF survivor = ANY(others) OR NOT EXISTS (SELECT 1 FROM papers WHERE id = survivor) THEN
    RAISE EXCEPTION 'paper % cannot keep what papers % had', survivor, others;
  END IF;
  UPDATE decisions SET paper_id = survivor WHERE paper_id = ANY(others);
  DELETE FROM papers WHERE id = ANY(others);
END
$$
"""

KEEP_OTHERS_DECISIONS = """
CREATE OR REPLACE FUNCTION paperdesk_keep_others_decisions() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM decisions WHERE paper_id = OLD.id
             AND member IS NOT NULL AND member <> session_user::text) THEN
    RAISE EXCEPTION 'paper % carries another member''s screening decision: only merging '
      'it into its duplicate removes it, and the decision follows', OLD.id
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END
$$
"""

# Beside migration 0009's guard, which lets only an owner forget a blind screening.
KEEP_BLIND_UNTIL_FINISHED = """
CREATE OR REPLACE FUNCTION paperdesk_keep_blind_until_finished() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  unfinished text;
BEGIN
  IF OLD.blind THEN
    SELECT string_agg(p.member, ', ' ORDER BY p.member) INTO unfinished
    FROM paperdesk_screening_progress(OLD.id) AS p
    WHERE p.member <> session_user::text AND NOT EXISTS (
      SELECT 1 FROM screening_finishes AS f
      WHERE f.screening_id = OLD.id AND f.member = p.member);
    IF unfinished IS NOT NULL THEN
      RAISE EXCEPTION 'the blind screening % is forgotten only once % finished it: '
        'their decisions would show to everyone', OLD.name, unfinished
        USING ERRCODE = 'insufficient_privilege';
    END IF;
  END IF;
  RETURN OLD;
END
$$
"""

DETACH_DECISIONS = """
CREATE OR REPLACE FUNCTION paperdesk_detach_decisions() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public AS $$
BEGIN
  UPDATE decisions SET screening_id = NULL WHERE screening_id = OLD.id;
  RETURN OLD;
END
$$
"""

SQLITE_DETACH_DECISIONS = """
CREATE TRIGGER screenings_detach_decisions AFTER DELETE ON screenings
BEGIN
  UPDATE decisions SET screening_id = NULL WHERE screening_id = OLD.id;
END
"""

FUNCTIONS = (MERGE_AWAY, KEEP_OTHERS_DECISIONS, KEEP_BLIND_UNTIL_FINISHED, DETACH_DECISIONS)

ORPHANS = (
    "UPDATE decisions SET screening_id = NULL WHERE screening_id IS NOT NULL "
    "AND screening_id NOT IN (SELECT id FROM screenings)"
)


def upgrade() -> None:
    op.execute(ORPHANS)
    if op.get_bind().dialect.name != "postgresql":
        # (A batch rebuild of screenings by a later revision would drop this trigger.)
        op.execute(SQLITE_DETACH_DECISIONS)
        return
    for function in FUNCTIONS:
        op.execute(function)
    op.execute(
        "CREATE TRIGGER papers_keep_others_decisions BEFORE DELETE ON papers "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_keep_others_decisions()"
    )
    op.execute(
        "CREATE TRIGGER screenings_keep_blind_until_finished BEFORE DELETE ON screenings "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_keep_blind_until_finished()"
    )
    op.execute(
        "CREATE TRIGGER screenings_detach_decisions AFTER DELETE ON screenings "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_detach_decisions()"
    )


def downgrade() -> None:
    op.execute("DROP TRIGGER screenings_detach_decisions ON screenings")
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER screenings_keep_blind_until_finished ON screenings")
    op.execute("DROP TRIGGER papers_keep_others_decisions ON papers")
    for signature in (
        "paperdesk_detach_decisions()",
        "paperdesk_keep_blind_until_finished()",
        "paperdesk_keep_others_decisions()",
        "paperdesk_merge_away(integer, integer[])",
    ):
        op.execute(f"DROP FUNCTION {signature}")

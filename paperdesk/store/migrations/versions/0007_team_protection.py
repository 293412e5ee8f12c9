"""who undid an action; a team library's server stamps its history and guards members' values

history gains `undone_by`. On a team library (PostgreSQL) the server, not the client,
decides who did what (store/team_roles.py sets up the roles and grants):

- a trigger stamps every history row with `session_user` (the role the server
  authenticated), refuses a change to a row by anyone but its actor, and to any of its
  columns but `undone` and the journal, and stamps `undone_by`;
- row-level security on member_values lets a role write only its own rows (an owner of
  the library may write anyone's: restoring a team export, merging duplicates);
  everyone reads everyone's (the team average);
- a paper holding another member's note or rating is deleted only by an owner (its
  values would go with it, out of row-level security's sight).

Owners are the database's owner and the members of the library's owner group role
(`pd_<database>_owner`, created by `paperdesk team init`).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

IS_OWNER = """
CREATE OR REPLACE FUNCTION paperdesk_is_owner() RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT session_user::text = (SELECT pg_get_userbyid(datdba) FROM pg_database
                               WHERE datname = current_database())
      OR EXISTS (SELECT 1 FROM pg_roles AS r
                 WHERE r.rolname = 'pd_' || current_database() || '_owner'
                   AND pg_has_role(session_user, r.oid, 'MEMBER'))
$$
"""

STAMP_HISTORY = """
CREATE OR REPLACE FUNCTION paperdesk_stamp_history() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.actor := session_user;
    NEW.undone := false;
    NEW.undone_by := NULL;
    RETURN NEW;
  END IF;
  IF OLD.actor <> session_user::text THEN
    RAISE EXCEPTION 'only % can undo, redo or withdraw what % did', OLD.actor, OLD.actor
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  IF NEW.id <> OLD.id OR NEW.actor <> OLD.actor OR NEW.action <> OLD.action
     OR NEW.at <> OLD.at THEN
    RAISE EXCEPTION 'the history of a team library is not rewritten'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  NEW.undone_by := CASE WHEN NEW.undone THEN session_user::text END;
  RETURN NEW;
END
$$
"""

KEEP_OTHERS_VALUES = """
CREATE OR REPLACE FUNCTION paperdesk_keep_others_values() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT paperdesk_is_owner() AND EXISTS (
      SELECT 1 FROM member_values WHERE paper_id = OLD.id AND member <> session_user::text
  ) THEN
    RAISE EXCEPTION 'paper % holds other members'' notes or ratings: only an owner deletes it',
      OLD.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END
$$
"""

OWN_VALUES = "member = session_user::text OR paperdesk_is_owner()"


def upgrade() -> None:
    op.add_column("history", sa.Column("undone_by", sa.String(), nullable=True))
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(IS_OWNER)
    op.execute(STAMP_HISTORY)
    op.execute(
        "CREATE TRIGGER history_stamp BEFORE INSERT OR UPDATE OR DELETE ON history "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_stamp_history()"
    )
    # Deleting a paper takes its values with it (a cascade, which row-level security
    # does not see): a member may not make another's note disappear that way.
    op.execute(KEEP_OTHERS_VALUES)
    op.execute(
        "CREATE TRIGGER papers_keep_others_values BEFORE DELETE ON papers "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_keep_others_values()"
    )
    op.execute("ALTER TABLE member_values ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE member_values FORCE ROW LEVEL SECURITY")
    op.execute("CREATE POLICY everyone_reads ON member_values FOR SELECT USING (true)")
    op.execute(
        f"CREATE POLICY own_values ON member_values FOR ALL "
        f"USING ({OWN_VALUES}) WITH CHECK ({OWN_VALUES})"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP POLICY own_values ON member_values")
        op.execute("DROP POLICY everyone_reads ON member_values")
        op.execute("ALTER TABLE member_values NO FORCE ROW LEVEL SECURITY")
        op.execute("ALTER TABLE member_values DISABLE ROW LEVEL SECURITY")
        op.execute("DROP TRIGGER papers_keep_others_values ON papers")
        op.execute("DROP FUNCTION paperdesk_keep_others_values()")
        op.execute("DROP TRIGGER history_stamp ON history")
        op.execute("DROP FUNCTION paperdesk_stamp_history()")
        op.execute("DROP FUNCTION paperdesk_is_owner()")
    op.drop_column("history", "undone_by")

"""screening in pairs: who made each decision, blind screenings, finishing, resolutions

A decision names its member (NULL in the personal library and for decisions made
before this revision) and whether it `resolves` the members' disagreement on a paper.
A screening may be `blind`; `screening_finishes` records the members who finished one.

On a team library (PostgreSQL) the server enforces the blindness:

- a trigger stamps each decision with `session_user` (a member cannot decide as
  another) and keeps it through updates;
- row-level security on decisions: a member reads their own decisions, resolutions,
  and others' decisions only in a screening that is not blind or that they finished;
  they write only their own, in a blind screening only until they finish, and a
  resolution only after;
- a finish is recorded once, by its member, and never taken back (it would let a
  member peek and then change their decisions);
- only an owner turns a screening's blindness on or off, or forgets a blind screening;
- `paperdesk_screening_progress` tells everyone how many papers each member decided
  (counts, never decisions): it runs as the tables' owner, which row-level security
  leaves alone (not FORCEd on decisions for that reason; an owner who takes the owner
  group's role reads everything, as a database's owner always can).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

FUNCTIONS = (
    """
CREATE OR REPLACE FUNCTION paperdesk_is_blind(sid integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT COALESCE((SELECT blind FROM screenings WHERE id = sid), false)
$$
""",
    """
CREATE OR REPLACE FUNCTION paperdesk_has_finished(sid integer) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM screening_finishes
                 WHERE screening_id = sid AND member = session_user::text)
$$
""",
    """
CREATE OR REPLACE FUNCTION paperdesk_may_decide(sid integer, resolution boolean)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT CASE WHEN NOT paperdesk_is_blind(sid) THEN true
              WHEN resolution THEN paperdesk_has_finished(sid)
              ELSE NOT paperdesk_has_finished(sid) END
$$
""",
    """
CREATE OR REPLACE FUNCTION paperdesk_screening_progress(sid integer)
RETURNS TABLE (member text, decided bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public AS $$
  SELECT d.member::text, count(DISTINCT d.paper_id) FROM decisions AS d
  WHERE d.screening_id = sid AND d.member IS NOT NULL AND NOT d.resolves
  GROUP BY d.member
$$
""",
    """
CREATE OR REPLACE FUNCTION paperdesk_stamp_member() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.member := session_user;
  ELSE
    NEW.member := OLD.member;
  END IF;
  RETURN NEW;
END
$$
""",
    """
CREATE OR REPLACE FUNCTION paperdesk_guard_blindness() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.blind AND NOT paperdesk_is_owner() THEN
      RAISE EXCEPTION 'only an owner forgets the blind screening %', OLD.name
        USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN OLD;
  END IF;
  IF NEW.blind IS DISTINCT FROM OLD.blind AND NOT paperdesk_is_owner() THEN
    RAISE EXCEPTION 'only an owner makes the screening % blind or not', OLD.name
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$
""",
)

#: The functions this revision adds (store/team_roles.py hands them to the owner group).
FUNCTION_SIGNATURES = (
    "paperdesk_is_blind(integer)",
    "paperdesk_has_finished(integer)",
    "paperdesk_may_decide(integer, boolean)",
    "paperdesk_screening_progress(integer)",
    "paperdesk_stamp_member()",
    "paperdesk_guard_blindness()",
)

OWN = "member = session_user::text"
MAY_DECIDE = "paperdesk_may_decide(screening_id, resolves)"


def upgrade() -> None:
    # Plain ADD COLUMNs: a batch would rebuild SQLite's screenings from reflection,
    # which drops the NOCASE collation of its names.
    op.add_column("decisions", sa.Column("member", sa.String(), nullable=True))
    op.add_column(
        "decisions", sa.Column("resolves", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.add_column(
        "screenings", sa.Column("blind", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.create_table(
        "screening_finishes",
        sa.Column("screening_id", sa.Integer(), nullable=False),
        sa.Column("member", sa.String(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["screening_id"], ["screenings.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("screening_id", "member"),
    )
    if op.get_bind().dialect.name != "postgresql":
        return
    for function in FUNCTIONS:
        op.execute(function)
    op.execute(
        "CREATE TRIGGER decisions_stamp BEFORE INSERT OR UPDATE ON decisions "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_stamp_member()"
    )
    op.execute(
        "CREATE TRIGGER finishes_stamp BEFORE INSERT ON screening_finishes "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_stamp_member()"
    )
    op.execute(
        "CREATE TRIGGER screenings_blindness BEFORE UPDATE OR DELETE ON screenings "
        "FOR EACH ROW EXECUTE FUNCTION paperdesk_guard_blindness()"
    )
    op.execute("ALTER TABLE decisions ENABLE ROW LEVEL SECURITY")
    op.execute(
        "CREATE POLICY decisions_read ON decisions FOR SELECT USING (member IS NULL OR "
        f"{OWN} OR resolves OR NOT paperdesk_is_blind(screening_id) "
        "OR paperdesk_has_finished(screening_id))"
    )
    op.execute(f"CREATE POLICY decisions_add ON decisions FOR INSERT WITH CHECK ({MAY_DECIDE})")
    # Decisions from before this revision (no member) stay everyone's, as they were.
    mine = f"member IS NULL OR ({OWN} AND {MAY_DECIDE})"
    op.execute(f"CREATE POLICY decisions_change ON decisions FOR UPDATE USING ({mine})")
    op.execute(f"CREATE POLICY decisions_remove ON decisions FOR DELETE USING ({mine})")
    op.execute("ALTER TABLE screening_finishes ENABLE ROW LEVEL SECURITY")
    op.execute("ALTER TABLE screening_finishes FORCE ROW LEVEL SECURITY")
    op.execute("CREATE POLICY finishes_read ON screening_finishes FOR SELECT USING (true)")
    op.execute(f"CREATE POLICY finishes_add ON screening_finishes FOR INSERT WITH CHECK ({OWN})")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for policy in ("decisions_read", "decisions_add", "decisions_change", "decisions_remove"):
            op.execute(f"DROP POLICY {policy} ON decisions")
        op.execute("ALTER TABLE decisions DISABLE ROW LEVEL SECURITY")
        op.execute("DROP TRIGGER screenings_blindness ON screenings")
        op.execute("DROP TRIGGER decisions_stamp ON decisions")
    op.drop_table("screening_finishes")
    if op.get_bind().dialect.name == "postgresql":
        for signature in FUNCTION_SIGNATURES:
            op.execute(f"DROP FUNCTION {signature}")
    with op.batch_alter_table("screenings", schema=None) as batch_op:
        batch_op.drop_column("blind")
    with op.batch_alter_table("decisions", schema=None) as batch_op:
        batch_op.drop_column("resolves")
        batch_op.drop_column("member")

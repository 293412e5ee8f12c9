"""A team library's roles on its server: who may read, write their own, or manage it.

Three group roles per library database, each including the one before:

    pd_<database>_reader   reads every table
    pd_<database>_member   also writes papers, tags, shortlists... and their own notes
                           and ratings (row-level security: migration 0007)
    pd_<database>_owner    owns the tables: upgrades the schema, adds members, and may
                           write anyone's values (restoring a team export, merging)

A member is a login role granted one of them. The server enforces all of it, so a
member with `psql` can do no more than paperdesk lets them: another's note is not
theirs to change, and the history names the role the server authenticated (the
trigger of migration 0007). Creating login roles needs PostgreSQL's CREATEROLE.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
import psycopg.errors
from psycopg import sql
from sqlalchemy import Connection, Engine, text

from paperdesk.core.errors import LibraryError

LEVELS = ("reader", "member", "owner")
#: What each level may do to the tables, beyond the level below it.
_TABLE_RIGHTS = {"reader": "SELECT", "member": "INSERT, UPDATE, DELETE"}
#: PostgreSQL cuts longer names, which would make the three roles' names collide.
_NAME_LIMIT = 63


def group_role(database: str, level: str) -> str:
    name = f"pd_{database}_{level}"
    if len(name.encode()) > _NAME_LIMIT:
        raise LibraryError(
            f"the database name {database!r} is too long for the team's role names "
            f"(at most {_NAME_LIMIT - len('pd__member')} characters)"
        )
    return name


def init_team(engine: Engine) -> str:
    """Create the library's group roles and their grants, hand the tables to the owner
    group, and make the caller an owner. Run again, it brings the grants up to date
    (new tables). Returns the caller's role."""
    with _admin(engine) as connection:
        database = str(connection.scalar(text("SELECT current_database()")))
        me = str(connection.scalar(text("SELECT session_user")))
        roles = {level: group_role(database, level) for level in LEVELS}
        for level in LEVELS:
            if not _role_exists(connection, roles[level]):
                connection.execute(text(f"CREATE ROLE {_quoted(roles[level])} NOLOGIN"))
        reader, member, owner = (_quoted(roles[level]) for level in LEVELS)
        connection.execute(text(f"GRANT {reader} TO {member}"))
        connection.execute(text(f"GRANT {member} TO {owner}"))
        connection.execute(text(f"GRANT {owner} TO {_quoted(me)}"))
        connection.execute(text(f'GRANT CONNECT ON DATABASE "{database}" TO {reader}'))
        connection.execute(text(f"GRANT USAGE ON SCHEMA public TO {reader}"))
        connection.execute(text(f"GRANT CREATE ON SCHEMA public TO {owner}"))
        for table in _tables(connection):
            connection.execute(text(f"ALTER TABLE {_quoted(table)} OWNER TO {owner}"))
        # The migrations' functions: those that must see every row (SECURITY DEFINER)
        # do so as the tables' owner.
        for function in _functions(connection):
            connection.execute(text(f"ALTER FUNCTION {function} OWNER TO {owner}"))
        grant_table_rights(connection, roles)
    return me


def grant_table_rights(connection: Connection, roles: dict[str, str]) -> None:
    """Each level's rights on the tables there are, and on those an owner's upgrade
    creates later (default privileges). Never TRUNCATE: it skips the history trigger."""
    reader, member, owner = (_quoted(roles[level]) for level in LEVELS)
    connection.execute(text(f"GRANT SELECT ON ALL TABLES IN SCHEMA public TO {reader}"))
    connection.execute(
        text(f"GRANT {_TABLE_RIGHTS['member']} ON ALL TABLES IN SCHEMA public TO {member}")
    )
    # Only an owner's upgrade writes the schema revision.
    connection.execute(text(f"REVOKE INSERT, UPDATE, DELETE ON alembic_version FROM {member}"))
    connection.execute(text(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {member}"))
    defaults = f"ALTER DEFAULT PRIVILEGES FOR ROLE {owner} IN SCHEMA public"
    connection.execute(text(f"{defaults} GRANT SELECT ON TABLES TO {reader}"))
    connection.execute(text(f"{defaults} GRANT {_TABLE_RIGHTS['member']} ON TABLES TO {member}"))
    connection.execute(text(f"{defaults} GRANT USAGE, SELECT ON SEQUENCES TO {member}"))


def add_member(engine: Engine, name: str, level: str, password: str | None) -> bool:
    """Let the login role `name` into the library at `level` (its other levels taken
    away); create the role, with `password`, if there is none. True when created.

    The password reaches the server as a SCRAM verifier computed here, never as text a
    server log could keep."""
    if level not in LEVELS:
        raise LibraryError(f"a member is one of {', '.join(LEVELS)}, not {level!r}")
    with _admin(engine) as connection:
        database = str(connection.scalar(text("SELECT current_database()")))
        roles = {lvl: group_role(database, lvl) for lvl in LEVELS}
        if not _role_exists(connection, roles["owner"]):
            raise LibraryError(
                "this team library has no roles yet: its owner runs `paperdesk team init` first"
            )
        created = not _role_exists(connection, name)
        if created:
            connection.execute(text(f"CREATE ROLE {_quoted(name)} LOGIN"))
        if password:
            verifier = _verifier(connection, name, password)
            connection.exec_driver_sql(
                sql.SQL("ALTER ROLE {} PASSWORD {}")
                .format(sql.Identifier(name), sql.Literal(verifier))
                .as_string(None)
            )
        for other in LEVELS:
            if other != level:
                connection.execute(text(f"REVOKE {_quoted(roles[other])} FROM {_quoted(name)}"))
        connection.execute(text(f"GRANT {_quoted(roles[level])} TO {_quoted(name)}"))
    return created


def level_of(connection: Connection) -> str | None:
    """The caller's level in this library (None: granted none, e.g. a superuser's)."""
    database = str(connection.scalar(text("SELECT current_database()")))
    for level in reversed(LEVELS):
        held = connection.scalar(
            text(
                "SELECT pg_has_role(session_user, oid, 'MEMBER') FROM pg_roles "
                "WHERE rolname = :name"
            ),
            {"name": group_role(database, level)},
        )
        if held:
            return level
    return None


def act_as_owner_group(connection: Connection) -> None:
    """For the rest of the transaction (an upgrade), act as the library's owner group
    when the caller is in it: the tables an upgrade creates are then the group's, with
    its default grants, and any owner can upgrade the next time."""
    owner = connection.scalar(
        text(
            "SELECT rolname FROM pg_roles WHERE rolname = 'pd_' || current_database() "
            "|| '_owner' AND pg_has_role(session_user, oid, 'MEMBER')"
        )
    )
    if owner is not None:
        connection.execute(text(f"SET LOCAL ROLE {_quoted(str(owner))}"))


@contextmanager
def _admin(engine: Engine) -> Iterator[Connection]:
    """One transaction of role management; what the server refuses says what to grant."""
    try:
        with engine.begin() as connection:
            yield connection
    except Exception as error:
        cause = getattr(error, "orig", None) or error.__cause__
        if isinstance(cause, psycopg.errors.InsufficientPrivilege):
            reason = " ".join(str(cause).split())
            raise LibraryError(
                f"the server refused: {reason}; managing a team's roles needs an owner of "
                "the library with PostgreSQL's CREATEROLE (a superuser runs "
                "`ALTER ROLE name CREATEROLE`)"
            ) from error
        raise


def _role_exists(connection: Connection, name: str) -> bool:
    found = connection.scalar(text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": name})
    return found is not None


def _tables(connection: Connection) -> list[str]:
    rows = connection.execute(
        text("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")
    )
    return [str(name) for (name,) in rows]


def _functions(connection: Connection) -> list[str]:
    """The signatures of paperdesk's functions in the library's schema."""
    rows = connection.execute(
        text(
            "SELECT p.oid::regprocedure::text FROM pg_proc AS p "
            "JOIN pg_namespace AS n ON n.oid = p.pronamespace "
            "WHERE n.nspname = 'public' AND p.proname LIKE 'paperdesk\\_%' ORDER BY 1"
        )
    )
    return [str(signature) for (signature,) in rows]


def _quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _verifier(connection: Connection, name: str, password: str) -> str:
    driver = connection.connection.driver_connection
    assert isinstance(driver, psycopg.Connection)
    encrypted = driver.pgconn.encrypt_password(password.encode(), name.encode(), b"scram-sha-256")
    return encrypted.decode()

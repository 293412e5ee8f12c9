"""Schema migrations, run from code when a library opens (DESIGN §3, beets/qutebrowser style).

A library newer than this code is refused; an older one is backed up with SQLite's
backup API before it is upgraded, so a failed upgrade can always be rolled back by hand.
Alembic is imported only when an upgrade is due: opening a current library (every CLI
call) then costs one SELECT instead of loading Alembic and its scripts.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path

from sqlalchemy import Engine, inspect, text

from paperdesk.core.errors import LibraryError, ReadOnlyLibraryError
from paperdesk.store.sqlite_copies import backup_sqlite

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
#: The newest migration in migrations/versions (a test keeps the two in step).
SCHEMA_HEAD = "0012"


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


Guard = Callable[[], AbstractContextManager[object]]


def upgrade_to_head(
    engine: Engine,
    db_path: Path | None,
    backup_dir: Path | None,
    guard: Guard | None = None,
    read_only: bool = False,
) -> None:
    """Bring the schema to this code's head, refusing a library written by newer code.

    `guard` (the library's write lock) is held while upgrading, so two programs opening
    a new or old library at once do not both create or upgrade it; the revision is read
    again inside it.
    """
    if current_revision(engine) == SCHEMA_HEAD:
        return
    with (guard or nullcontext)():
        current = current_revision(engine)
        if current == SCHEMA_HEAD:
            return
        _upgrade(engine, current, db_path, backup_dir, read_only)


def _upgrade(
    engine: Engine,
    current: str | None,
    db_path: Path | None,
    backup_dir: Path | None,
    read_only: bool,
) -> None:
    from alembic import command
    from alembic.script import ScriptDirectory

    config = alembic_config()
    scripts = ScriptDirectory.from_config(config)
    if current is not None and current not in {rev.revision for rev in scripts.walk_revisions()}:
        raise LibraryError(
            f"this library was written by a newer paperdesk (schema {current}); "
            "update paperdesk to open it"
        )
    if read_only:
        raise ReadOnlyLibraryError(
            f"the library {db_path} needs its schema brought up to date, which a "
            "read-only library cannot have: open it once where it can be written"
        )
    if current is not None and db_path is not None and backup_dir is not None:
        backup_path = backup_sqlite(db_path, backup_dir, reason=f"before-upgrade-{current}")
        log.info("backed up %s to %s before upgrading its schema", db_path, backup_path)
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            from paperdesk.store.team_roles import act_as_owner_group  # imports psycopg

            act_as_owner_group(connection)
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def alembic_config():  # type: ignore[no-untyped-def]
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()

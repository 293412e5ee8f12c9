"""Schema migrations, run from code when a library opens (DESIGN §3, beets/qutebrowser style).

A library newer than this code is refused; an older one is backed up with SQLite's
backup API before it is upgraded, so a failed upgrade can always be rolled back by hand.
Alembic is imported only when an upgrade is due: opening a current library (every CLI
call) then costs one SELECT instead of loading Alembic and its scripts.
"""

from __future__ import annotations

import logging
import sqlite3
from datetime import datetime
from pathlib import Path

from sqlalchemy import Engine, inspect, text

from paperdesk.core.errors import LibraryError

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).with_name("migrations")
#: The newest migration in migrations/versions (a test keeps the two in step).
SCHEMA_HEAD = "0002_annotations"


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        if not inspect(connection).has_table("alembic_version"):
            return None
        return connection.execute(text("SELECT version_num FROM alembic_version")).scalar()


def upgrade_to_head(engine: Engine, db_path: Path | None, backup_dir: Path | None) -> None:
    """Bring the schema to this code's head, refusing a library written by newer code."""
    current = current_revision(engine)
    if current == SCHEMA_HEAD:
        return
    from alembic import command
    from alembic.script import ScriptDirectory

    config = alembic_config()
    scripts = ScriptDirectory.from_config(config)
    if current is not None and current not in {rev.revision for rev in scripts.walk_revisions()}:
        raise LibraryError(
            f"this library was written by a newer paperdesk (schema {current}); "
            "update paperdesk to open it"
        )
    if current is not None and db_path is not None and backup_dir is not None:
        backup_path = backup_sqlite(db_path, backup_dir, reason=f"before-upgrade-{current}")
        log.info("backed up %s to %s before upgrading its schema", db_path, backup_path)
    with engine.begin() as connection:
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


def backup_sqlite(db_path: Path, backup_dir: Path, reason: str) -> Path:
    """Copy a live database consistently with SQLite's online backup API."""
    backup_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    target = backup_dir / f"library-{stamp}-{reason}.sqlite3"
    source = sqlite3.connect(db_path)
    try:
        destination = sqlite3.connect(target)
        try:
            source.backup(destination)
        finally:
            destination.close()
    finally:
        source.close()
    return target

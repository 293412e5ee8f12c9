"""Schema migrations, run from code when a library opens (DESIGN §3, beets/qutebrowser style).

A library newer than this code is refused; an older one is backed up with SQLite's
backup API before it is upgraded, so a failed upgrade can always be rolled back by hand.
"""

from __future__ import annotations

import logging
import sqlite3
from datetime import datetime
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from paperdesk.core.errors import LibraryError

log = logging.getLogger(__name__)
MIGRATIONS_DIR = Path(__file__).with_name("migrations")


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    return config


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None, "the package ships at least one migration"
    return head


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade_to_head(engine: Engine, db_path: Path | None, backup_dir: Path | None) -> None:
    """Bring the schema to this code's head, refusing a library written by newer code."""
    config = alembic_config()
    scripts = ScriptDirectory.from_config(config)
    current = current_revision(engine)
    head = scripts.get_current_head()
    if current == head:
        return
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

"""Alembic environment, driven from code by store/migrate.py (never by an alembic.ini).

The caller passes an open connection in `config.attributes["connection"]` so the
migration runs inside the library's own engine and transaction.
"""

from __future__ import annotations

from alembic import context

from paperdesk.store.schema import Base

connection = context.config.attributes["connection"]
context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    # SQLite cannot ALTER most things; batch mode rebuilds tables when a migration needs to.
    render_as_batch=True,
)
with context.begin_transaction():
    context.run_migrations()

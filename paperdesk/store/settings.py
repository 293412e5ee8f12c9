"""Library settings: small named values kept in the library itself (not undoable).

They travel with the library, so every program that opens it (the GUI, the CLI, a
second computer) follows the same ones.
"""

from __future__ import annotations

from sqlalchemy import delete, insert, select

from paperdesk.store.database import SubStore
from paperdesk.store.tables import meta_t

_PREFIX = "setting:"


class SettingsStore(SubStore):
    def get(self, name: str) -> str | None:
        with self._db.read() as connection:
            value = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == _PREFIX + name))
        return None if value is None else str(value)

    def set(self, name: str, value: str) -> None:
        with self._db.engine.begin() as connection:
            connection.execute(delete(meta_t).where(meta_t.c.key == _PREFIX + name))
            connection.execute(insert(meta_t).values(key=_PREFIX + name, value=value))

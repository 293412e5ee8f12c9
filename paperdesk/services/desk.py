"""Desk: an open library folder (database + search index) that services act on."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from paperdesk.config import BACKUP_DIR, DB_FILE, INDEX_DIR
from paperdesk.core.errors import LibraryError
from paperdesk.search.index import FullTextIndex
from paperdesk.services import indexing
from paperdesk.store.library import Library

log = logging.getLogger(__name__)


class Desk:
    """The library folder: `library.sqlite3`, `index/`, `backups/`."""

    def __init__(self, folder: Path, library: Library, index: FullTextIndex) -> None:
        self.folder = folder
        self.library = library
        self.index = index
        # Papers whose search documents are behind the database (a bulk edit defers
        # their re-indexing: services/indexing.catch_up). Kept in memory: if the
        # process ends first, the index's stamp is stale and the next open rebuilds it.
        self.index_behind: set[int] = set()

    @classmethod
    def open(
        cls,
        folder: Path,
        progress: Callable[[int, int], None] | None = None,
        ensure_index: bool = True,
    ) -> Desk:
        """Open (creating if needed) a library; rebuild its index if it is not current."""
        folder = Path(folder)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise LibraryError(
                f"cannot create the library folder {folder}: {error.strerror}"
            ) from error
        if not folder.is_dir():
            raise LibraryError(f"{folder} is not a folder")
        db_path = folder / DB_FILE
        library = Library.open(f"sqlite:///{db_path}", db_path, folder / BACKUP_DIR)
        desk = cls(folder, library, FullTextIndex(folder / INDEX_DIR))
        if ensure_index:
            desk.ensure_index(progress)
        return desk

    def ensure_index(self, progress: Callable[[int, int], None] | None = None) -> str | None:
        """Rebuild the index when missing, stale or damaged; returns why it was rebuilt."""
        reason = self.index.why_stale(self.library.generation())
        if reason is not None:
            log.info("rebuilding the search index: %s", reason)
            indexing.rebuild(self.library, self.index, progress)
        return reason

    def close(self, catch_up: bool = True) -> None:
        """Close the library, re-indexing first what a bulk edit left behind (unless
        `catch_up` is False: the window does not wait; the next open rebuilds)."""
        if catch_up and self.index_behind:
            indexing.catch_up(self)
        self.index.close()
        self.library.close()

    def __enter__(self) -> Desk:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

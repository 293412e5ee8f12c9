"""Desk: an open library folder (database + search index) that services act on."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from paperdesk.config import BACKUP_DIR, DB_FILE, INDEX_DIR, UNFINISHED_DIR
from paperdesk.core.errors import LibraryError
from paperdesk.formats.atomic import remove_unfinished
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
        remove_unfinished(folder / UNFINISHED_DIR)  # what a killed export left behind
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

    def close(self) -> None:
        self.index.close()
        self.library.close()

    def __enter__(self) -> Desk:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

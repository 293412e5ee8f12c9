"""Desk: an open library folder (database + search index) that services act on."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.config import BACKUP_DIR, DB_FILE, INDEX_DIR
from paperdesk.core.errors import LibraryError
from paperdesk.search.index import FullTextIndex
from paperdesk.services import indexing
from paperdesk.store.library import Library

if TYPE_CHECKING:  # the ranking loads scikit-learn: only when a library first needs it
    from paperdesk.services.promise import Promise

log = logging.getLogger(__name__)


class Desk:
    """The library folder: `library.sqlite3`, `index/`, `backups/`."""

    def __init__(self, folder: Path, library: Library, index: FullTextIndex) -> None:
        self.folder = folder
        self.library = library
        self.index = index
        self._promise: Promise | None = None
        self._promise_lock = threading.Lock()

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

    @property
    def promise(self) -> Promise:
        """'Most promising first' for this library (services/promise.py), made on first use."""
        with self._promise_lock:
            if self._promise is None:
                from paperdesk.services.promise import Promise

                self._promise = Promise(self)
            return self._promise

    def promise_if_started(self) -> Promise | None:
        return self._promise

    def close(self) -> None:
        if self._promise is not None:
            self._promise.close()
        self.index.close()
        self.library.close()

    def __enter__(self) -> Desk:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

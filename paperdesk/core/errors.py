"""Errors a user can cause. Each carries a message fit to show as it is."""

from __future__ import annotations

from pathlib import Path


class PaperdeskError(Exception):
    """Base class: the CLI prints `str(error)` and exits non-zero; the GUI shows a dialog."""


class FormatError(PaperdeskError):
    """A file that cannot be read at all (as opposed to one bad entry in it).

    `skipped` names the entries it did hold, each `file:line: why`, when every one of
    them was broken: the import report counts them as read and skipped."""

    def __init__(
        self, file: str, message: str, line: int | None = None, skipped: tuple[str, ...] = ()
    ) -> None:
        self.file = file
        self.line = line
        self.reason = message
        self.skipped = skipped
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: {message}")


class QueryError(PaperdeskError):
    """A search query the parser rejects; the message is one readable line."""


class NotFoundError(PaperdeskError):
    """A paper id, tag, shortlist or saved search that does not exist."""


class LibraryError(PaperdeskError):
    """The library folder cannot be opened (too new, locked, unreadable)."""


class StorageError(LibraryError):
    """The disk refused: full, failing, or the database stayed busy too long."""


class IndexUnusableError(LibraryError):
    """The search index is missing or cannot be read: derived data, rebuilt from the
    database by the next program that can write (or `paperdesk reindex`)."""


class PasswordNeeded(LibraryError):
    """A team library's server wants a password the address, PGPASSWORD and ~/.pgpass
    did not give (the command line then asks for one)."""


class ServerUnreachable(StorageError):
    """A team library's server cannot be reached (down, or the network is): the window
    goes read-only and retries until it is back."""


class ReadOnlyLibraryError(LibraryError):
    """A change was asked of a library opened read-only (a read-only folder or disk)."""


class DamagedLibraryError(LibraryError):
    """The database is missing, truncated or damaged: never taken for a new, empty library.

    `latest_backup` is the newest backup that could replace it (None when there is
    none), so the CLI and the GUI can offer to restore it.
    """

    def __init__(self, message: str, latest_backup: Path | None = None, reason: str = "") -> None:
        self.latest_backup = latest_backup
        self.reason = reason  # what is wrong with it, in a few words
        super().__init__(message)


class InvalidValueError(PaperdeskError):
    """A value outside what a field accepts (rating 7, empty tag name...)."""


class Cancelled(Exception):
    """Raised inside a long job (import, export, re-index) when the user asked to stop it."""


class StalePlanError(PaperdeskError):
    """An import planned against the library as it was: papers came or went, or a paper
    it merges into changed, before it could be written. Plan it again."""

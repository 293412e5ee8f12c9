"""Errors a user can cause. Each carries a message fit to show as it is."""

from __future__ import annotations


class PaperdeskError(Exception):
    """Base class: the CLI prints `str(error)` and exits non-zero; the GUI shows a dialog."""


class FormatError(PaperdeskError):
    """A file that cannot be read at all (as opposed to one bad entry in it)."""

    def __init__(self, file: str, message: str, line: int | None = None) -> None:
        self.file = file
        self.line = line
        self.reason = message
        where = f"{file}:{line}" if line is not None else file
        super().__init__(f"{where}: {message}")


class QueryError(PaperdeskError):
    """A search query the parser rejects; the message is one readable line."""


class NotFoundError(PaperdeskError):
    """A paper id, tag, shortlist or saved search that does not exist."""


class LibraryError(PaperdeskError):
    """The library folder cannot be opened (too new, locked, unreadable)."""


class InvalidValueError(PaperdeskError):
    """A value outside what a field accepts (rating 7, empty tag name...)."""


class Cancelled(Exception):
    """Raised inside a long job (import, export, re-index) when the user asked to stop it."""


class StalePlanError(PaperdeskError):
    """An import planned against the library as it was: papers came or went, or a paper
    it merges into changed, before it could be written. Plan it again."""

"""Which papers an action is about: the whole library, or a status, shortlist, tag,
saved search, import, query or chosen ids.

The sidebar's entries, the CLI's `list`/`export` options and the export dialog's choices
are all scopes; `services.searching.listing` turns one into ids, so each reads the same.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    ALL = "all"
    STATUS = "status"
    SHORTLIST = "shortlist"
    TAG = "tag"
    SAVED = "saved"
    IMPORT = "import"
    QUERY = "query"
    IDS = "ids"


#: Scopes whose papers are a stored list (in its own order), not a query's answer.
LISTED_KINDS = frozenset({Kind.SHORTLIST, Kind.IMPORT, Kind.IDS})


@dataclass(frozen=True)
class Scope:
    """`value` is a status, shortlist, tag or saved-search name, an import batch id or a
    query; `ids` are the chosen papers of an IDS scope, in their order."""

    kind: Kind = Kind.ALL
    value: str = ""
    ids: tuple[int, ...] = ()

    @classmethod
    def of_shortlist(cls, name: str) -> Scope:
        return cls(Kind.SHORTLIST, name)

    @classmethod
    def of_query(cls, text: str) -> Scope:
        return cls(Kind.QUERY, text)

    @classmethod
    def of_ids(cls, ids: Iterable[int]) -> Scope:
        return cls(Kind.IDS, ids=tuple(ids))

    @property
    def is_whole_library(self) -> bool:
        return self.kind == Kind.ALL

    @property
    def shortlist(self) -> str | None:
        """The shortlist's name when the scope is one (exports name their file after it)."""
        return self.value if self.kind == Kind.SHORTLIST else None

    def query(self) -> str:
        """The scope as a query fragment, for scopes the search syntax can express."""
        if self.kind == Kind.STATUS:
            return f"status:{self.value}"
        if self.kind == Kind.TAG:
            return f'tag:"{self.value}"'
        if self.kind == Kind.QUERY:
            return self.value
        return ""

    def describe(self) -> str:
        """The scope in a message: "shortlist 'Reading group'", "3 selected papers"."""
        return _DESCRIPTIONS[self.kind].format(value=self.value, count=len(self.ids))


_DESCRIPTIONS = {
    Kind.ALL: "the whole library",
    Kind.STATUS: "status {value}",
    Kind.SHORTLIST: "shortlist {value!r}",
    Kind.TAG: "tag {value!r}",
    Kind.SAVED: "saved search {value!r}",
    Kind.IMPORT: "import {value}",
    Kind.QUERY: "search {value!r}",
    Kind.IDS: "{count} selected papers",
}

"""Domain records shared by every layer.

Everything here is a frozen dataclass: the store returns these (never ORM objects), the
formats produce and consume them, and the GUI displays them. Keeping them immutable
means a value handed to another thread can never change under its reader.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from datetime import datetime

from paperdesk.core.team_values import TeamValues


class Status(enum.StrEnum):
    """Where a paper stands in the user's triage."""

    NEW = "new"
    SKIMMED = "skimmed"
    TO_READ = "to-read"
    READ = "read"
    DISCARDED = "discarded"

    @classmethod
    def parse(cls, text: str) -> Status:
        """Accept `to-read`, `to_read`, `To Read`; raise ValueError naming the choices."""
        wanted = text.strip().lower().replace("_", "-").replace(" ", "-")
        for status in cls:
            if status.value == wanted:
                return status
        choices = ", ".join(s.value for s in cls)
        raise ValueError(f"unknown status {text!r}; choose one of: {choices}")


MAX_RATING = 5


@dataclass(frozen=True)
class Identifiers:
    """External ids of a paper; all optional, all normalised (no URL prefixes)."""

    doi: str | None = None
    arxiv: str | None = None
    openreview: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class UserData:
    """The user's own data about a paper, as a file gives it back (an export's tags,
    note, rating, status and shortlists; another tool's keywords and annotations).

    Empty values mean "the file says nothing": `rating` and `status` are None unless
    the file names one, so importing a file without them never resets what is stored.
    `tag_colours` pairs a tag with its `#rrggbb` colour where the format carries one.
    The derived-title flag and the citation key are `PaperRecord.title_is_derived`
    and `PaperRecord.citation_key`.
    """

    tags: tuple[str, ...] = ()
    tag_colours: tuple[tuple[str, str], ...] = ()
    note: str = ""
    rating: int | None = None
    status: Status | None = None
    shortlists: tuple[str, ...] = ()
    #: (shortlist, place) pairs, 1 the first place: where the paper stood in a shortlist
    #: of the file's, so a round trip restores each shortlist's order.
    shortlist_places: tuple[tuple[str, int], ...] = ()
    #: Every member's rating and note, from a team library's export.
    team: TeamValues | None = None

    @property
    def is_empty(self) -> bool:
        return self == _NO_USER_DATA


_NO_USER_DATA = UserData()


@dataclass(frozen=True)
class PaperRecord:
    """A paper as read from a file, before it meets the library.

    `raw_fields` keeps the source's own fields verbatim (e.g. BibTeX with its LaTeX)
    so an export can give back what came in; `line` points at the record in its file;
    `citation_key` is the source's own key (BibTeX `@article{key,`, RIS `ID`), if any;
    `user` is the user data the file carries (see UserData).
    """

    title: str
    abstract: str = ""
    authors: tuple[str, ...] = ()
    venue: str | None = None
    year: int | None = None
    title_is_derived: bool = False
    ids: Identifiers = field(default_factory=Identifiers)
    entry_type: str | None = None
    raw_fields: tuple[tuple[str, str], ...] = ()
    line: int | None = None
    citation_key: str | None = None
    user: UserData = field(default_factory=UserData)


@dataclass(frozen=True)
class Annotation:
    """A passage of a paper's abstract the user marked, with a colour and a comment.

    `start` and `stop` are character offsets into the abstract as a reader sees it
    (`paperdesk.text.shown_text`); `quote` is the passage itself, so the mark finds its
    place again if the abstract is ever shown differently.
    """

    id: int
    paper_id: int
    start: int
    stop: int
    quote: str
    colour: str
    comment: str = ""
    created: datetime | None = None


@dataclass(frozen=True)
class Paper:
    """A paper as stored in the library, with the user's data attached."""

    id: int
    title: str
    title_is_derived: bool
    authors: tuple[str, ...]
    venue: str | None
    year: int | None
    abstract: str
    ids: Identifiers
    status: Status
    rating: int
    added: datetime
    updated: datetime
    fingerprint: str
    entry_type: str | None = None
    citation_key: str | None = None
    tags: tuple[str, ...] = ()
    shortlists: tuple[str, ...] = ()
    #: The paper's place (1 the first) in each of `shortlists`, in the same order.
    shortlist_places: tuple[int, ...] = ()
    note: str = ""
    raw_fields: tuple[tuple[str, str], ...] = ()
    annotations: tuple[Annotation, ...] = ()
    #: Everyone's ratings and notes in a team library (`rating` and `note` are the
    #: reader's own); None in a personal library.
    team: TeamValues | None = None

    @property
    def first_author_label(self) -> str:
        """'Sun et al.' style label for tables; empty when no authors are known."""
        if not self.authors:
            return ""
        if len(self.authors) == 1:
            return self.authors[0]
        return f"{self.authors[0]} et al."


@dataclass(frozen=True)
class TagInfo:
    id: int
    name: str
    colour: str | None
    count: int


@dataclass(frozen=True)
class ShortlistInfo:
    id: int
    name: str
    count: int
    created: datetime


@dataclass(frozen=True)
class SavedSearch:
    id: int
    name: str
    query: str


#: How a stored BibTeX definition says what it is: a `@preamble` text or a `@string`.
PREAMBLE, STRING = "preamble", "string"
DEFINITION_KINDS = (PREAMBLE, STRING)


@dataclass(frozen=True)
class BibtexDefinitions:
    """What a BibTeX file defines for the documents citing it: its `@preamble` texts
    (the macros its entries use: `\\providecommand{\\acro}...`) and its `@string`
    macros, as (name, text) pairs, in file order. Kept with the import, written back
    on BibTeX export, so a bibliography that compiled still compiles."""

    preamble: tuple[str, ...] = ()
    strings: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.preamble or self.strings)

    def __add__(self, other: BibtexDefinitions) -> BibtexDefinitions:
        """Both files' definitions, each once: a preamble text by its text, a string by
        its name (BibTeX's names ignore case), the first one given winning."""
        names = {name.casefold() for name, _ in self.strings}
        return BibtexDefinitions(
            tuple(dict.fromkeys((*self.preamble, *other.preamble))),
            self.strings + tuple((n, v) for n, v in other.strings if n.casefold() not in names),
        )


@dataclass(frozen=True)
class ImportBatch:
    id: int
    label: str
    file_name: str
    sha256: str
    format: str
    added: int
    merged: int
    unchanged: int
    skipped: int
    imported_at: datetime


@dataclass(frozen=True)
class HistoryEntry:
    """One recorded mutation: enough to show in an Edit menu and to undo."""

    id: int
    action: str
    actor: str
    at: datetime
    undone: bool
    #: Who undid it (None while it stands).
    undone_by: str | None = None


@dataclass(frozen=True)
class UndoLabels:
    """What Undo and Redo would do now (None: nothing), for the Edit menu."""

    undo: str | None
    redo: str | None


@dataclass(frozen=True)
class Overview:
    """The library at a glance, read at one moment: what the sidebar lists and counts,
    and what `paperdesk stats` starts from. `by_status` holds every status, in order."""

    papers: int
    by_status: tuple[tuple[str, int], ...]
    tags: tuple[TagInfo, ...]
    shortlists: tuple[ShortlistInfo, ...]
    saved_searches: tuple[SavedSearch, ...]
    imports: tuple[ImportBatch, ...]
    #: (name, papers decided) of each screening, the one used last first.
    screenings: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class LibraryStats:
    papers: int
    by_status: tuple[tuple[str, int], ...]
    by_venue_year: tuple[tuple[str, int], ...]
    rated: int
    with_notes: int
    tags: int
    shortlists: int
    imports: int

"""A screening: one named triage a user owns and comes back to (issue 21).

A screening goes through a scope (the library, the undecided papers, a tag, a shortlist,
a saved search or an import batch). A query *seeds* it: its hits come first and teach
the order, but the scope stays what the user chose; only `confine` narrows the
screening to the hits, and then `left_out` says how many papers of the scope that
leaves out. Decisions belong to the screening that made them (the decision log carries
its id), so its progress, pace and stopping estimate are its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Status
from paperdesk.core.scope import Kind, Scope

#: The screening a triage without a name resumes (and that older decisions joined).
DEFAULT_NAME = "Triage"
#: Its scope: the papers whose status is still new.
UNDECIDED = Scope(Kind.STATUS, Status.NEW.value)
ORDERS = ("promise", "file", "random")
#: Scopes a screening may go through (chosen ids are a selection, not a screening).
SCREENABLE_KINDS = frozenset(
    {Kind.ALL, Kind.STATUS, Kind.TAG, Kind.SHORTLIST, Kind.SAVED, Kind.IMPORT}
)
#: The most exclusion reasons a screening lists (keys 1-9 pick them).
MAX_REASONS = 9


@dataclass(frozen=True)
class Screening:
    """What a screening is; `id` is None until it is stored."""

    name: str
    scope: Scope = UNDECIDED
    query: str = ""
    confine: bool = False
    order: str = "promise"
    shortlist: str | None = "Kept"
    reasons: tuple[str, ...] = ()
    #: Team libraries: each member decides without seeing the others' decisions until
    #: they finish (core/double_screening.py).
    blind: bool = False
    id: int | None = None
    created: datetime | None = None

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise InvalidValueError("a screening needs a name")
        if self.scope.kind not in SCREENABLE_KINDS:
            raise InvalidValueError(f"a screening cannot go through {self.scope.describe()}")
        if self.order not in ORDERS:
            raise InvalidValueError(f"order {self.order!r}: one of {', '.join(ORDERS)}")
        if len(self.reasons) > MAX_REASONS:
            raise InvalidValueError(f"at most {MAX_REASONS} exclusion reasons (keys 1-9)")

    def describe(self) -> str:
        """ "the whole library, seeded by 'diffusion'", "tag 'RL', only 'bandit' hits"."""
        what = "papers not yet decided" if self.scope == UNDECIDED else self.scope.describe()
        if not self.query:
            return what
        how = "only the hits of" if self.confine else "seeded by"
        return f"{what}, {how} {self.query!r}"


@dataclass(frozen=True)
class ScreeningQueue:
    """A screening's papers (members, hits of its seed query first), those it decided and
    those still pending; `left_out`: papers of the scope a confining query leaves out;
    `earlier`: papers it holds as decided whose decision is older than the screening
    itself (decisions logged before screenings had names joined "Triage")."""

    ids: tuple[int, ...]
    pending: tuple[int, ...]
    terms: tuple[str, ...] = ()
    hits: frozenset[int] = field(default_factory=frozenset)
    left_out: int = 0
    earlier: int = 0

    @property
    def decided(self) -> int:
        return len(self.ids) - len(self.pending)


@dataclass(frozen=True)
class ScreeningSummary:
    """One line of `paperdesk screenings` and of the sidebar."""

    screening: Screening
    papers: int
    decided: int
    relevant: int

    def text(self) -> str:
        return (
            f"{self.screening.name}: {self.decided:,} of {self.papers:,} decided,"
            f" {self.relevant:,} relevant — {self.screening.describe()}"
        )

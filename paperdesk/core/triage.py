"""Triage: the three decisions, what each does to a paper, and how far a triage has come.

Keep, maybe and discard set a status (keep also puts the paper on the triage's target
shortlist); every decision is logged with its time, and the figures below are read
from that log: decisions per day, relevant papers found against abstracts read, the
pace of the current sitting, the discards since the last keep and an estimate of the
relevant papers still unread (the stopping hint).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum

from paperdesk.core.models import Status


class Decision(StrEnum):
    KEEP = "keep"
    MAYBE = "maybe"
    DISCARD = "discard"


#: The status each decision gives a paper.
STATUS_OF = {
    Decision.KEEP: Status.TO_READ,
    Decision.MAYBE: Status.SKIMMED,
    Decision.DISCARD: Status.DISCARDED,
}
#: How a decision is named in the Edit menu and the history.
LABELS = {Decision.KEEP: "Keep", Decision.MAYBE: "Maybe", Decision.DISCARD: "Discard"}
#: Statuses saying the user wants the paper: kept in a triage, or read since.
KEPT_STATUSES = frozenset({Status.TO_READ, Status.READ})

#: Highlighter colours for annotated passages, in the order keys 1-5 pick them.
ANNOTATION_COLOURS: dict[str, str] = {
    "yellow": "#fff59d",
    "green": "#b9f6ca",
    "blue": "#b3e5fc",
    "pink": "#f8bbd0",
    "orange": "#ffd7a8",
}

#: Decisions further apart than this belong to different sittings (for the pace).
SITTING_GAP = timedelta(minutes=15)
#: The stopping hint looks at the last four windows of this many decisions (or of a
#: tenth of all decisions, when more): see `relevant_left`.
ESTIMATE_WINDOW = 50
ESTIMATE_WINDOWS = 4
#: With this many discards in a row, the hint suggests the triage may be done.
STOP_STREAK = 50


@dataclass(frozen=True)
class LoggedDecision:
    paper_id: int
    decision: Decision
    at: datetime


@dataclass(frozen=True)
class TriageStats:
    """What the statistics view plots and `paperdesk stats` prints.

    `found_curve` holds (abstracts read, relevant found) after each decision, where a
    paper counts as read from its first decision on and as found while its latest
    decision is a keep. `relevant_left` is None until enough was decided to say.
    """

    papers: int
    undecided: int
    decisions: int
    per_day: tuple[tuple[date, int], ...]
    found_curve: tuple[tuple[int, int], ...]
    by_status: tuple[tuple[str, int], ...]
    by_tag: tuple[tuple[str, int], ...]
    pace_per_hour: float | None
    discards_since_keep: int
    relevant_left: float | None

    @property
    def read(self) -> int:
        return self.found_curve[-1][0] if self.found_curve else 0

    @property
    def found(self) -> int:
        return self.found_curve[-1][1] if self.found_curve else 0

    @property
    def hours_left(self) -> float | None:
        """Time to decide every undecided paper at the pace of the last sitting."""
        if not self.pace_per_hour:
            return None
        return self.undecided / self.pace_per_hour

    def stopping_hint(self) -> str:
        """One sentence for the statistics view, the triage view and `paperdesk stats`."""
        return stopping_hint(self.discards_since_keep, self.relevant_left)

    def summary(self) -> list[str]:
        """The figures in a few lines: the statistics view's text and `paperdesk stats`."""
        decided = self.papers - self.undecided
        lines = [
            f"{decided:,} of {self.papers:,} papers decided, {self.undecided:,} to go;"
            f" {self.decisions:,} decisions logged",
            f"{self.found:,} relevant found (kept) in {self.read:,} abstracts read",
        ]
        if self.pace_per_hour:
            left = duration_text(self.hours_left or 0.0)
            lines.append(
                f"pace {self.pace_per_hour:,.0f} decisions an hour in the last sitting;"
                f" {left} left at that pace"
            )
        lines.append(self.stopping_hint())
        return lines


@dataclass(frozen=True)
class Progress:
    """The progress line: decided of total, the pace of this sitting and time left."""

    decided: int
    total: int
    pace_per_hour: float | None
    ordered_by: str = ""

    @property
    def left(self) -> int:
        return self.total - self.decided

    def text(self) -> str:
        parts = [f"{self.decided:,} of {self.total:,} decided"]
        if self.pace_per_hour:
            parts.append(f"{self.pace_per_hour / 60:.1f} per minute")
            parts.append(f"{duration_text(self.left / self.pace_per_hour)} left at this pace")
        return " · ".join([*parts, self.ordered_by] if self.ordered_by else parts)


def duration_text(hours: float) -> str:
    """A time left as people say it: "under a minute", "25 min", "3 h 05 min"."""
    minutes = round(hours * 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def stopping_hint(discards_since_keep: int, relevant_left: float | None) -> str:
    streak = f"{discards_since_keep} discard{'s' if discards_since_keep != 1 else ''} in a row"
    if relevant_left is None:
        return f"{streak} since the last keep; too early to estimate the relevant papers left"
    left = f"about {relevant_left:.0f} relevant paper{'s' if round(relevant_left) != 1 else ''}"
    hint = f"{streak} since the last keep; {left} left unread (estimate)"
    if discards_since_keep >= STOP_STREAK and relevant_left < 1:
        hint += ": you may stop here"
    return hint


def decisions_per_day(log: Sequence[LoggedDecision]) -> list[tuple[date, int]]:
    counts = Counter(entry.at.date() for entry in log)
    return sorted(counts.items())


def found_curve(log: Sequence[LoggedDecision]) -> list[tuple[int, int]]:
    """(abstracts read, relevant found) after each decision of the log, in time order."""
    latest: dict[int, Decision] = {}
    found = 0
    curve = []
    for entry in log:
        before = latest.get(entry.paper_id)
        latest[entry.paper_id] = entry.decision
        found += (entry.decision == Decision.KEEP) - (before == Decision.KEEP)
        curve.append((len(latest), found))
    return curve


def discards_since_keep(log: Sequence[LoggedDecision]) -> int:
    count = 0
    for entry in reversed(log):
        if entry.decision == Decision.KEEP:
            break
        count += entry.decision == Decision.DISCARD
    return count


def pace_per_hour(times: Sequence[datetime], gap: timedelta = SITTING_GAP) -> float | None:
    """Decisions per hour in the last sitting (decisions no more than `gap` apart).

    None until the sitting has two decisions a moment apart.
    """
    if len(times) < 2:
        return None
    first = len(times) - 1
    while first > 0 and times[first] - times[first - 1] <= gap:
        first -= 1
    span = (times[-1] - times[first]).total_seconds()
    decided = len(times) - 1 - first
    if decided < 1 or span <= 0:
        return None
    return decided * 3600 / span


def relevant_left(curve: Sequence[tuple[int, int]], undecided: int) -> float | None:
    """Relevant papers likely still among the `undecided`, from the discovery curve
    (`found_curve`: abstracts read and relevant found after each decision).

    Read most promising first, finds come ever more rarely. The last four windows of
    reading (each `ESTIMATE_WINDOW` papers, or a tenth of those read) give the rate of
    finds and how fast it falls, d per window; the papers left then hold about
    last * d / (1 - d) more, a geometric tail, and never more than the last rate over
    every undecided paper. None while the rate is not falling yet (too early to say);
    replayed on the corpus (bench/bench_triage.py --estimate) it is within a factor of
    about two of the truth once most relevant papers are found.
    """
    found_after_read = [
        found
        for (read, found), before in zip(curve, [(0, 0), *curve], strict=False)
        if read > before[0]
    ]
    read = len(found_after_read)
    window = max(ESTIMATE_WINDOW, read // 10)
    if read < ESTIMATE_WINDOWS * window:
        return None
    edges = [found_after_read[-1 - k * window] if read > k * window else 0 for k in range(5)]
    counts = [edges[k] - edges[k + 1] for k in reversed(range(ESTIMATE_WINDOWS))]
    earlier, recent = sum(counts[:2]), sum(counts[2:])
    if recent == 0:
        return 0.0
    if earlier <= recent:
        return None
    fall = (recent / earlier) ** 0.5
    return min(counts[-1] / window * undecided, counts[-1] * fall / (1 - fall))

"""Triage: the three decisions, what each does to a paper, and how far a triage has come.

Keep, maybe and discard set a status (keep also puts the paper on the triage's target
shortlist); every decision is logged with its time, and the figures below are read
from that log: decisions per day, relevant papers found against abstracts read, the
pace of the current sitting, the discards since the last keep and an estimate of the
relevant papers still unread (the stopping hint).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from enum import StrEnum
from math import sqrt

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
#: The stopping estimate reads the find rate of the last this many abstracts read (or
#: of a tenth of them, when more): see `estimate_left`.
ESTIMATE_WINDOW = 50
#: Until ESTIMATE_WINDOW abstracts are read, the reads missing from the window are
#: filled by a prior find rate of one relevant paper in this many (5%: the order of the
#: prevalence of screening datasets, and of the validation suite's 0.5-10%), so one
#: keep of one read says "about a tenth", not "all of them".
PRIOR_ONE_IN = 20


@dataclass(frozen=True)
class LoggedDecision:
    paper_id: int
    decision: Decision
    at: datetime
    reason: str | None = None


@dataclass(frozen=True)
class Estimate:
    """Relevant papers likely still among the undecided, with a 90% interval.

    `window`: the last decisions whose find rate the estimate reads; `knee`: the knee
    rule (Cormack & Grossman 2016) says the finds have levelled off and one may stop.
    """

    left: float
    low: float
    high: float
    window: int
    knee: bool = False
    #: Prior reads filling the window (see PRIOR_ONE_IN); 0 once the window is full.
    prior_reads: int = 0

    @property
    def method(self) -> str:
        """How this estimate was made, in the words the hint uses."""
        if not self.prior_reads:
            return ESTIMATE_METHOD
        return (
            f"recent find rate shrunk toward a 1-in-{PRIOR_ONE_IN} prior until"
            f" {ESTIMATE_WINDOW} are read; Wilson interval"
        )

    def text(self) -> str:
        plural = "s" if round(self.left) != 1 else ""
        return (
            f"about {self.left:,.0f} relevant paper{plural} left unread"
            f" (90%: {self.low:,.0f}–{self.high:,.0f}; {self.method})"
        )


@dataclass(frozen=True)
class TriageStats:
    """What the statistics view plots and `paperdesk stats` prints, for one screening
    (`screening` names it) or for the whole library (`screening` empty).

    `found_curve` holds (abstracts read, relevant found) after each decision, where a
    paper counts as read from its first decision on and as found while its latest
    decision is a keep or its rating counts for the model (4 or 5). `estimate` is None
    before the first decision.
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
    estimate: Estimate | None
    screening: str = ""

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
        return stopping_hint(self.read, self.found, self.discards_since_keep, self.estimate)

    def summary(self) -> list[str]:
        """The figures in a few lines: the statistics view's text and `paperdesk stats`."""
        decided = self.papers - self.undecided
        whose = f"Screening {self.screening!r}: " if self.screening else ""
        lines = [
            f"{whose}{decided:,} of {self.papers:,} papers decided, {self.undecided:,} to go;"
            f" {self.decisions:,} decisions logged",
            f"{self.found:,} relevant found (kept, or rated 4-5) in {self.read:,} abstracts read",
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
    #: Papers of the scope a confining query leaves out (said, never silent).
    left_out: int = 0
    #: Papers decided before screenings had names (ScreeningQueue.earlier): said, so a
    #: screening the user never made does not seem to have decided them by itself.
    earlier: int = 0

    @property
    def left(self) -> int:
        return self.total - self.decided

    def text(self) -> str:
        parts = [f"{self.decided:,} of {self.total:,} decided"]
        if self.earlier:
            parts[0] += f" ({self.earlier:,} of them before screenings had names)"
        if self.pace_per_hour:
            parts.append(f"{self.pace_per_hour / 60:.1f} per minute")
            parts.append(f"{duration_text(self.left / self.pace_per_hour)} left at this pace")
        if self.ordered_by:
            parts.append(self.ordered_by)
        if self.left_out:
            parts.append(f"only the query's hits: {self.left_out:,} papers of the scope left out")
        return " · ".join(parts)


def duration_text(hours: float) -> str:
    """A time left as people say it: "under a minute", "25 min", "3 h 05 min"."""
    minutes = round(hours * 60)
    if minutes < 1:
        return "under a minute"
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def stopping_hint(read: int, found: int, discards: int, estimate: Estimate | None) -> str:
    """The hint's words, true to the state: nothing decided, nothing kept yet, or the
    discards since the last keep; then the estimate, and the knee rule's verdict."""
    if read == 0:
        return "no decisions yet: the estimate of relevant papers left starts at the first"
    if found == 0:
        plural = "s" if read != 1 else ""
        streak = f"no relevant paper found yet in {read:,} abstract{plural} read"
    else:
        streak = f"{discards:,} discard{'s' if discards != 1 else ''} in a row since the last keep"
    if estimate is None:
        return streak
    hint = f"{streak}; {estimate.text()}"
    if estimate.knee:
        hint += ": the finds have levelled off (knee rule), you may stop here"
    return hint


def decisions_per_day(log: Sequence[LoggedDecision]) -> list[tuple[date, int]]:
    counts = Counter(entry.at.date() for entry in log)
    return sorted(counts.items())


def found_curve(
    log: Sequence[LoggedDecision], rated_relevant: Collection[int] = frozenset()
) -> list[tuple[int, int]]:
    """(abstracts read, relevant found) after each decision of the log, in time order.

    A paper is found while its latest decision is a keep, and from its first decision
    on when it is among `rated_relevant` (rated 4 or 5: it counts for the model too).
    """
    latest: dict[int, Decision] = {}
    found = 0
    curve = []

    def relevant(paper_id: int, decision: Decision | None) -> bool:
        return decision is not None and (decision == Decision.KEEP or paper_id in rated_relevant)

    for entry in log:
        before = latest.get(entry.paper_id)
        latest[entry.paper_id] = entry.decision
        found += relevant(entry.paper_id, entry.decision) - relevant(entry.paper_id, before)
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


def estimate_left(curve: Sequence[tuple[int, int]], undecided: int) -> Estimate | None:
    """Relevant papers likely still among the `undecided`, from the first decision on.

    `high` is the find rate of the last decisions (the last ESTIMATE_WINDOW abstracts
    read, or a tenth of them when more; its Wilson 90% upper bound) over every paper
    left: read most promising first, finds only get rarer further down, so this bounds
    the papers left from above, as the random-sampling stopping criteria do (Callaghan
    & Müller-Hansen 2020). The point estimate lets that rate fall on as it has been
    falling (`_decay`: the last four quarters of the reading), `low` its lower bound
    falling as fast as the interval allows; until the rate falls, the estimate is the
    rate over every paper left, and `low` 0 (a steady rate says nothing of where it
    ends). `knee` is the knee rule's verdict (`knee_says_stop`).

    Until the window holds ESTIMATE_WINDOW reads, the reads it lacks count at the prior
    rate (1 in PRIOR_ONE_IN, a Beta prior's pseudo-counts): the first decisions, read
    most promising first, would otherwise put the rate of the very top of the order on
    every paper left (one keep of one read: "all of them"). The prior's weight falls
    read by read and is gone at ESTIMATE_WINDOW.
    """
    found_after_read = _found_after_read(curve)
    read = len(found_after_read)
    if read == 0:
        return None
    window = min(read, max(ESTIMATE_WINDOW, read // 10))
    before = found_after_read[-1 - window] if read > window else 0
    prior_reads = max(0, ESTIMATE_WINDOW - window)
    rate, low_rate, high_rate = wilson_interval(
        found_after_read[-1] - before + prior_reads / PRIOR_ONE_IN, window + prior_reads
    )
    decay = _decay(found_after_read)
    if decay is None:
        left, low = rate * undecided, 0.0
    else:
        left, low = _tail(rate, decay[0], undecided), _tail(low_rate, decay[1], undecided)
    high = high_rate * undecided
    return Estimate(
        left=min(left, high),
        low=min(low, left),
        high=max(high, left),
        window=window,
        knee=knee_says_stop(found_after_read),
        prior_reads=prior_reads,
    )


#: How the estimate is made, in the words the hint uses.
ESTIMATE_METHOD = "recent find rate, falling as it has; Wilson interval"
#: Wilson's interval at 90%: z of the normal distribution's 95th percentile.
_Z90 = 1.6449
#: The knee rule (Cormack & Grossman, "Engineering quality and reliability in
#: technology-assisted review", SIGIR 2016, adjusted as they advise): stop once at least
#: KNEE_MIN_READ abstracts were read and the finds' slope before the knee of the curve
#: is 156 - min(found, 150) times the slope after it (so a rare topic, with few finds
#: to judge by, needs a far flatter tail).
KNEE_MIN_READ = 150
#: The decay is read from four quarters of the reading once there are this many reads.
DECAY_MIN_READ = 40


def _decay(found_after_read: Sequence[int]) -> tuple[float, float] | None:
    """How the find rate falls per abstract read, from the last four quarters of the
    reading: the finds of the last two quarters against the two before give the fall,
    and the Wilson interval of their share its faster end (for `low`). None while the
    rate does not fall (or there is too little to say)."""
    read = len(found_after_read)
    if read < DECAY_MIN_READ:
        return None
    quarter = read // 4
    edges = [found_after_read[-1 - k * quarter] if read > k * quarter else 0 for k in range(5)]
    counts = [edges[k] - edges[k + 1] for k in reversed(range(4))]  # oldest first
    earlier, recent = counts[0] + counts[1], counts[2] + counts[3]
    if recent >= earlier:
        return None
    share, fast_share, _ = wilson_interval(recent, recent + earlier)

    def per_read(part: float) -> float:
        part = min(max(part, 0.5 / (recent + earlier + 1)), 0.5)  # a share of 0 is no rate
        return float((part / (1 - part)) ** (1 / (2 * quarter)))

    return per_read(share), per_read(fast_share)


def _tail(rate: float, decay: float, papers: int) -> float:
    """Finds expected over the next `papers` reads at `rate`, falling by `decay` a read."""
    return rate * decay * (1 - decay**papers) / (1 - decay)


def wilson_interval(successes: float, trials: float, z: float = _Z90) -> tuple[float, float, float]:
    """(rate, low, high): a proportion and its Wilson score interval (counts may be
    fractional: a prior's pseudo-counts)."""
    if trials <= 0:
        return 0.0, 0.0, 1.0
    rate = successes / trials
    centre = (rate + z * z / (2 * trials)) / (1 + z * z / trials)
    spread = (z / (1 + z * z / trials)) * sqrt(
        rate * (1 - rate) / trials + z * z / (4 * trials * trials)
    )
    return rate, max(0.0, centre - spread), min(1.0, centre + spread)


def knee_says_stop(found_after_read: Sequence[int]) -> bool:
    """The knee rule on the discovery curve (relevant found after each abstract read)."""
    read = len(found_after_read)
    found = found_after_read[-1] if read else 0
    if read < KNEE_MIN_READ or found == 0:
        return False
    # The knee: the point of the curve farthest from the line from (0, 0) to its end.
    knee = max(range(read), key=lambda i: read * found_after_read[i] - found * (i + 1))
    at_knee, rank = found_after_read[knee], knee + 1
    before = at_knee / rank
    after = (found - at_knee + 1) / (read - rank) if read > rank else float("inf")
    return before >= (156 - min(found, 150)) * after


def _found_after_read(curve: Sequence[tuple[int, int]]) -> list[int]:
    """Relevant found after each new abstract read (re-decisions left out)."""
    return [
        found
        for (read, found), before in zip(curve, [(0, 0), *curve], strict=False)
        if read > before[0]
    ]

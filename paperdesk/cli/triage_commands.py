"""`paperdesk triage`: a keyboard loop in the terminal.

A triage is a screening (core/screening.py): `--screening NAME` creates it or resumes
it, with its scope, seed query, order and progress. At a terminal the loop reads single
keys; from a pipe or a script, one command a line (cli/keys.py). The letters are the
triage view's keys (S keep, M maybe, X discard, 1-5 rate, T tags, N note, J/K
next/previous, U undo, ? help, Q quit). Every decision is one service call, so one
undo step, stored before the next paper shows; "most promising first" asks the last
model the background ranker trained and never waits for training (the progress line
says when the order is still file order, waiting for the model).
"""

from __future__ import annotations

import argparse
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TextIO

from paperdesk.cli.keys import KeySource
from paperdesk.cli.output import width
from paperdesk.cli.parser import SCOPE_HELP
from paperdesk.core.errors import InvalidValueError, PaperdeskError
from paperdesk.core.models import Paper
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import DEFAULT_NAME, UNDECIDED, Screening
from paperdesk.core.triage import (
    Decision,
    Progress,
    pace_per_hour,
)
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.promise import order_words
from paperdesk.services.use_cases import (
    editing,
    history,
    notes,
    reading,
    screenings,
    tagging,
    triage,
)

DECISION_KEYS = {"s": Decision.KEEP, "m": Decision.MAYBE, "x": Decision.DISCARD}
HELP = """\
s keep (onto the target shortlist)   m maybe   x discard (then a reason's key)   0-5 rate
t tags (commas between)   n note   j next (decide later)   k previous
u undo   ? these keys   q quit"""


@dataclass
class _Loop:
    """Which papers, which still wait for a decision, and those shown so far."""

    desk: Desk
    screening: Screening
    ids: list[int]
    pending: set[int]
    shown: list[int] = field(default_factory=list)
    position: int = -1
    skipped: set[int] = field(default_factory=set)
    times: list[datetime] = field(default_factory=list)
    earlier: int = 0  # decided before screenings had names (ScreeningQueue.earlier)

    @property
    def by_promise(self) -> bool:
        return self.screening.order == "promise"

    def choose(self) -> int | None:
        candidates = self.pending - self.skipped - set(self.shown)
        if not candidates:
            self.skipped.clear()  # every paper was seen: the skipped ones come round again
            candidates = self.pending - set(self.shown[-1:]) or self.pending
        if not candidates:
            return None
        promise = self.desk.promise_if_started()
        if self.by_promise and promise is not None:
            best = promise.best(candidates)
            if best is not None:
                return best
        return next(i for i in self.ids if i in candidates)

    def forward(self) -> int | None:
        if self.position < len(self.shown) - 1:
            self.position += 1
            return self.shown[self.position]
        chosen = self.choose()
        if chosen is not None:
            self.shown.append(chosen)
            self.position = len(self.shown) - 1
        return chosen

    def order_line(self) -> str:
        if not self.by_promise:
            return f"{self.screening.order} order"
        return order_words(self.desk.promise_if_started())

    def progress(self) -> str:
        decided = len(self.ids) - len(self.pending)
        pace = pace_per_hour(self.times)
        return Progress(
            decided, len(self.ids), pace, self.order_line(), earlier=self.earlier
        ).text()


def cmd_triage(desk: Desk, args: argparse.Namespace) -> int:
    return run_triage(desk, args, sys.stdin, sys.stdout)


def screening_of(desk: Desk, args: argparse.Namespace) -> Screening:
    """The screening `triage` runs: `--screening NAME` (created or resumed, the options
    given changing it), else the one named after `--query`, else "Triage" over the
    papers not yet decided."""
    query = getattr(args, "query", None)
    name = args.screening or (query.strip() if query else DEFAULT_NAME)
    new = not screenings.exists(desk, name)
    scope = parse_scope(args.scope) if args.scope else None
    if new and scope is None:
        scope = Scope() if query else UNDECIDED
    reasons = tuple(args.reasons.split(",")) if args.reasons else None
    return screenings.start(
        desk,
        name,
        scope=scope,
        query=query,
        confine=True if args.confine else None,
        order=args.order,
        shortlist=args.shortlist,
        reasons=reasons,
        blind=True if getattr(args, "blind", False) else None,
    )


def parse_scope(text: str) -> Scope:
    """`--scope`: all, undecided, tag:NAME, shortlist:NAME, saved:NAME, import:ID."""
    kind, _, value = text.partition(":")
    kind = kind.strip().lower()
    if kind in ("all", "library") and not value:
        return Scope()
    if kind == "undecided" and not value:
        return UNDECIDED
    kinds = {"tag": Kind.TAG, "shortlist": Kind.SHORTLIST, "saved": Kind.SAVED}
    if kind in kinds and value.strip():
        return Scope(kinds[kind], value.strip())
    if kind == "import" and value.strip().isdigit():
        return Scope(Kind.IMPORT, value.strip())
    raise InvalidValueError(f"--scope {text!r}: expected {SCOPE_HELP}")


def run_triage(desk: Desk, args: argparse.Namespace, keys: TextIO, out: TextIO) -> int:
    screening = screening_of(desk, args)
    found = screenings.queue(desk, screening)
    ids = list(found.ids)
    if screening.order == "random":
        random.Random(args.seed).shuffle(ids)
    loop = _Loop(desk, screening, ids, set(found.pending), earlier=found.earlier)
    loop.times = screenings.decision_times(desk, screening)  # the pace goes on

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    if loop.by_promise:
        # Built and trained in the ranking's own process; file order until it is ready
        # (the progress line says so), and again (said once) should that process die.
        desk.promise.add_notice_listener(say)
        desk.promise.set_query(screening.query)
        desk.promise.start()

    source = KeySource(keys)
    how = "one key a paper" if source.single else "one command a line"
    say(f"Screening {screening.name!r}: {screening.describe()}.")
    if found.left_out:
        say(f"Confined to the query's hits: {found.left_out:,} papers of the scope left out.")
    say(f"{len(loop.pending):,} papers to decide, {how}. {HELP.splitlines()[0]} (? for all)")
    paper_id = loop.forward()
    with source.reading():
        while paper_id is not None:
            _show(reading.paper(desk, paper_id), loop.progress(), screening, say)
            command, rest = source.key()
            if not command or command == "q":
                break
            try:
                paper_id = _act(loop, paper_id, command, rest, source, out)
            except PaperdeskError as error:
                say(f"paperdesk: {error}")
    if paper_id is None:
        say("Nothing left to decide.")
        if screening.blind:
            say(
                f"Blind screening: `paperdesk screenings finish {screening.name!r}` makes your "
                "decisions final and shows the conflicts with the other members'."
            )
    say(loop.progress())
    return 0


def _act(
    loop: _Loop, paper_id: int, command: str, rest: str, source: KeySource, out: TextIO
) -> int | None:
    """Carry out one command; the paper to show next."""
    desk = loop.desk

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    if command in DECISION_KEYS:
        decision = DECISION_KEYS[command]
        reason = (
            _reason(loop.screening, rest, source, out) if decision == Decision.DISCARD else None
        )
        changes = triage.decide(
            desk,
            paper_id,
            decision,
            loop.screening.shortlist,
            screening=loop.screening,
            reason=reason,
        )
        say(changes.description)
        loop.pending.discard(paper_id)
        loop.times.append(datetime.now())
        return loop.forward()
    if command.isdigit() and len(command) == 1:
        say(editing.set_rating(desk, [paper_id], int(command)).description)
    elif command == "t":
        names = source.text("tags (commas between): ", rest, out)
        if names:
            tags = [t.strip() for t in names.split(",")]
            say(tagging.add_tags(desk, [paper_id], tags).description)
    elif command == "n":
        say(notes.set_note(desk, paper_id, source.text("note: ", rest, out)).description)
    elif command == "j":
        loop.skipped.add(paper_id)
        return loop.forward()
    elif command == "k" and loop.position > 0:
        loop.position -= 1
        return loop.shown[loop.position]
    elif command == "u":
        undone = history.undo(desk)
        if undone is None:
            say("Nothing to undo.")
            return paper_id
        say(undone.description)
        members = set(loop.ids)
        decided = screenings.decided_ids(desk, loop.screening)
        back = {i for i in undone.paper_ids if i in members and i not in decided}
        if back - loop.pending and loop.times:
            loop.times.pop()
        loop.pending |= back
        return next((i for i in undone.paper_ids if i in back), paper_id)
    else:
        say(HELP)
    return paper_id


def _reason(screening: Screening, given: str, source: KeySource, out: TextIO) -> str | None:
    """The exclusion reason of a discard: a key from the screening's list (None: none)."""
    if not screening.reasons:
        return None
    if not given and source.single:
        keys = "   ".join(f"{n} {r}" for n, r in enumerate(screening.reasons, start=1))
        print(f"reason? {keys}   (any other key: none)", file=out, flush=True)
        given, _ = source.key()
    if given.isdigit() and 1 <= int(given) <= len(screening.reasons):
        return screening.reasons[int(given) - 1]
    return None


def _show(paper: Paper, progress: str, screening: Screening, say: Callable[[str], None]) -> None:
    room = width()
    say("")
    say("─" * room)
    say(progress)
    say(textwrap.fill(paper.title, room))
    details = ", ".join(paper.authors[:6]) + (" et al." if len(paper.authors) > 6 else "")
    where = " ".join(str(part) for part in (paper.venue, paper.year) if part)
    say(" · ".join(part for part in (details, where, paper.status.value) if part))
    say("")
    say(textwrap.fill(paper.abstract.strip() or "(no abstract)", room))
    for mark in paper.annotations:
        say(f"  > {mark.quote}" + (f"  ({mark.comment})" if mark.comment else ""))
    if paper.tags:
        say("tags: " + ", ".join(paper.tags))
    reasons = " (1-9 reason)" if screening.reasons else ""
    say(f"[s]keep [m]aybe [x]discard{reasons} [1-5]rate [t]ag [n]ote [j/k]next/prev [u]ndo [q]uit")

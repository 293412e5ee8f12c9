"""`paperdesk triage` (a keyboard loop in the terminal) and `paperdesk simulate`.

The loop reads one command a line from stdin, so it works in any terminal, over ssh
and from a script: the letters are the triage view's keys (S keep, M maybe, X
discard, 1-5 rate, T tags, N note, J/K next/previous, U undo, ? help, Q quit).
Every decision is one service call, so one undo step, stored before the next paper
shows; "most promising first" asks the last model the background ranker trained and
never waits for training.
"""

from __future__ import annotations

import argparse
import random
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TextIO

from paperdesk.cli.output import width
from paperdesk.core.errors import PaperdeskError
from paperdesk.core.models import Paper
from paperdesk.core.scope import Scope
from paperdesk.core.triage import Decision, Progress, pace_per_hour
from paperdesk.services import editing, history, notes, reading, tagging, triage
from paperdesk.services.desk import Desk

ORDERS = ("promise", "file", "random")
DECISION_KEYS = {"s": Decision.KEEP, "m": Decision.MAYBE, "x": Decision.DISCARD}
HELP = """\
s keep (onto the target shortlist)   m maybe   x discard   0-5 rate
t TAG[,TAG...] add tags   n TEXT set the note   j next (decide later)   k previous
u undo   ? these keys   q quit"""


def cmd_simulate(_desk: Desk | None, args: argparse.Namespace) -> int:
    # Imported here: scikit-learn takes ~1.5 s to import, which every other command
    # (each one a process of its own) would pay at start.
    from paperdesk.services import simulating

    result = simulating.simulate_file(Path(args.file), args.relevant, args.prior, args.seed)
    if args.json:
        print(result.to_json())
    else:
        print(result.summary())
    return 0


@dataclass
class _Loop:
    """Which papers, which still wait for a decision, and those shown so far."""

    desk: Desk
    order: str
    shortlist: str | None
    ids: list[int]
    pending: set[int]
    shown: list[int] = field(default_factory=list)
    position: int = -1
    skipped: set[int] = field(default_factory=set)
    times: list[datetime] = field(default_factory=list)

    def choose(self) -> int | None:
        candidates = self.pending - self.skipped - set(self.shown)
        if not candidates:
            self.skipped.clear()  # every paper was seen: the skipped ones come round again
            candidates = self.pending - set(self.shown[-1:]) or self.pending
        if not candidates:
            return None
        promise = self.desk.promise_if_started()
        if self.order == "promise" and promise is not None:
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

    def progress(self) -> str:
        decided = len(self.ids) - len(self.pending)
        return Progress(decided, len(self.ids), pace_per_hour(self.times)).text()


def cmd_triage(desk: Desk, args: argparse.Namespace) -> int:
    return run_triage(desk, args, sys.stdin, sys.stdout)


def run_triage(desk: Desk, args: argparse.Namespace, keys: TextIO, out: TextIO) -> int:
    query = args.query or ""
    queue = triage.queue(desk, Scope(), query) if query else triage.queue(desk, triage.UNDECIDED)
    ids = list(queue.ids)
    if args.order == "random":
        random.Random(args.seed).shuffle(ids)
    loop = _Loop(desk, args.order, args.shortlist, ids, set(queue.pending))

    def say(text: str) -> None:
        print(text, file=out, flush=True)

    if args.order == "promise":
        # Built and trained in the ranking's own process; file order until it is ready,
        # and again (said once) should that process die.
        desk.promise.add_notice_listener(say)
        desk.promise.set_query(query)
        desk.promise.start()

    say(f"Triage of {len(loop.pending):,} papers. {HELP.splitlines()[0]} (? for all keys)")
    paper_id = loop.forward()
    while paper_id is not None:
        _show(reading.paper(desk, paper_id), loop.progress(), say)
        line = keys.readline()
        if not line:
            break
        command, _, rest = line.strip().partition(" ")
        command = command.lower()
        if command == "q":
            break
        try:
            paper_id = _act(loop, paper_id, command, rest.strip(), say)
        except PaperdeskError as error:
            say(f"paperdesk: {error}")
    if paper_id is None:
        say("Nothing left to decide.")
    say(loop.progress())
    return 0


def _act(
    loop: _Loop, paper_id: int, command: str, rest: str, say: Callable[[str], None]
) -> int | None:
    """Carry out one command; the paper to show next."""
    desk = loop.desk
    if command in DECISION_KEYS:
        changes = triage.decide(desk, paper_id, DECISION_KEYS[command], loop.shortlist)
        say(changes.description)
        loop.pending.discard(paper_id)
        loop.times.append(datetime.now())
        return loop.forward()
    if command.isdigit() and len(command) == 1:
        say(editing.set_rating(desk, [paper_id], int(command)).description)
    elif command == "t" and rest:
        say(tagging.add_tags(desk, [paper_id], [t.strip() for t in rest.split(",")]).description)
    elif command == "n":
        say(notes.set_note(desk, paper_id, rest).description)
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
        back = triage.undecided(desk, [i for i in undone.paper_ids if i in set(loop.ids)])
        if back and loop.times:
            loop.times.pop()
        loop.pending |= back
        return next((i for i in undone.paper_ids if i in back), paper_id)
    else:
        say(HELP)
    return paper_id


def _show(paper: Paper, progress: str, say: Callable[[str], None]) -> None:
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
    say("[s]keep [m]aybe [x]discard [1-5]rate [t]ag [n]ote [j/k]next/prev [u]ndo [q]uit > ")


def stats_json(desk: Desk) -> dict[str, object]:
    """The triage figures of `paperdesk stats --json` (the statistics view's numbers)."""
    figures = triage.stats(desk)
    return {
        "papers": figures.papers,
        "undecided": figures.undecided,
        "decisions": figures.decisions,
        "read": figures.read,
        "relevant_found": figures.found,
        "pace_per_hour": figures.pace_per_hour,
        "hours_left": figures.hours_left,
        "discards_since_keep": figures.discards_since_keep,
        "relevant_left": figures.relevant_left,
        "decisions_per_day": {day.isoformat(): count for day, count in figures.per_day},
        "stopping_hint": figures.stopping_hint(),
    }

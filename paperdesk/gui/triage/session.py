"""One triage: which papers, in which order, the paper shown, and the decisions made.

The session owns no widget. The triage view sends it the user's keys as calls
(`decide`, `next`, `undo`...) and shows what it emits. A decision is the action of
gui/actions/decisions.py (one service call, one undo step, as everywhere); the next
paper is chosen and shown only once the decision is in the database. Choosing it never
waits on the ranking: `desk.promise` answers from the scores its process last sent.

A paper that cannot be read (a team library's server away) is not a paper gone: the
papers still to decide are kept, and the view says why (`cannot_read`).
"""

from __future__ import annotations

import logging
import random
import time
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from paperdesk.core.changes import Changes
from paperdesk.core.errors import NotFoundError, PaperdeskError, ReadOnlyLibraryError
from paperdesk.core.models import Paper
from paperdesk.core.scope import Scope
from paperdesk.core.screening import DEFAULT_NAME, MAX_REASONS, UNDECIDED, Screening
from paperdesk.core.triage import Decision, Progress, TriageStats, pace_per_hour
from paperdesk.gui.actions import decisions, history
from paperdesk.gui.operations import Operations
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.promise import order_words
from paperdesk.services.use_cases import reading, screenings, triage

if TYPE_CHECKING:
    from concurrent.futures import Future

    from paperdesk.ranking.explanation import Explanation
    from paperdesk.services.runtime.promise import Promise

log = logging.getLogger(__name__)


class Order(StrEnum):
    PROMISE = "promise"
    FILE = "file"
    RANDOM = "random"


ORDER_LABELS = {
    Order.PROMISE: "Most promising first",
    Order.FILE: "File order",
    Order.RANDOM: "Random order",
}
#: "More like this" puts this many similar undecided papers next.
MORE_LIKE_COUNT = 10


@dataclass(frozen=True)
class Plan:
    """What to triage: the screening of this name, going through a scope; `text` is its
    seed query (its hits first), which confines it to the hits only with `confine`."""

    scope: Scope = UNDECIDED
    text: str = ""
    order: Order = Order.PROMISE
    shortlist: str | None = None
    screening: str = DEFAULT_NAME
    confine: bool = False

    def describe(self) -> str:
        return Screening(
            self.screening or DEFAULT_NAME, self.scope, self.text, self.confine
        ).describe()


@dataclass
class _Round:
    """The session's memory: the papers in file order, those pending, those shown."""

    ids: list[int]
    pending: set[int]
    order: list[int]
    screening: Screening = field(default_factory=lambda: Screening(DEFAULT_NAME))
    terms: tuple[str, ...] = ()
    left_out: int = 0
    earlier: int = 0
    members: set[int] = field(default_factory=set)
    shown: list[int] = field(default_factory=list)
    position: int = -1
    skipped: set[int] = field(default_factory=set)
    up_next: list[int] = field(default_factory=list)
    decision_times: list[datetime] = field(default_factory=list)


class TriageSession(QObject):
    """Signals carry what to show; `busy` is true while a decision is being written."""

    paper_shown = Signal(object)  # Paper, or None when nothing is left
    cannot_read = Signal(str)  # why the paper to show could not be read (none is shown)
    progress_changed = Signal(object)  # Progress
    stats_read = Signal(object)  # TriageStats, for the stopping hint
    message = Signal(str)
    started = Signal()
    promise_started = Signal()  # the ranking runs: listen to it for newly trained models
    explained = Signal(int, object)  # paper id, Explanation | None: 'why this paper' came

    def __init__(self, operations: Operations, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.operations = operations
        self.plan = Plan()
        self.busy = False
        self.paper: Paper | None = None
        self._round: _Round | None = None
        self._undo_pending = False
        self._promise_ready = False
        # The paper last explained, the model version it was asked of, and the answer.
        self._explanation: tuple[int, int, Explanation | None] = (-1, -1, None)
        # Milliseconds from a decision key to the next paper shown (bench/bench_triage.py).
        self.timings: list[float] = []
        self._decided_at = 0.0
        # The pace of the screening's last sitting, from its figures (None until read).
        self._pace: float | None = None
        self.stats_read.connect(self._on_stats)

    # ------------------------------------------------------------------ starting

    @property
    def active(self) -> bool:
        return self._round is not None

    def start(self, plan: Plan) -> None:
        """Store the plan as its screening (created, or resumed with these settings) and
        read its papers, on the writer thread; then show the first one."""
        self.plan = plan
        self._round = None
        self.paper = None
        self._pace = None
        seed = random.randrange(2**31)

        def read(desk: Desk) -> _Round:
            wanted = Screening(
                plan.screening or DEFAULT_NAME,
                scope=plan.scope,
                query=plan.text,
                confine=plan.confine,
                order=plan.order.value,
                shortlist=plan.shortlist,
            )
            try:
                screening = screenings.start(
                    desk,
                    wanted.name,
                    scope=wanted.scope,
                    query=wanted.query,
                    confine=wanted.confine,
                    order=wanted.order,
                    shortlist=wanted.shortlist,
                )
            except ReadOnlyLibraryError:  # shown, not stored: deciding says why it cannot
                screening = wanted
            queue = screenings.queue(desk, screening)
            ids = list(queue.ids)
            order = list(ids)
            if plan.order == Order.RANDOM:
                random.Random(seed).shuffle(order)
            state = _Round(ids, set(queue.pending), order, screening=screening, terms=queue.terms)
            state.left_out, state.members = queue.left_out, set(ids)
            state.earlier = queue.earlier
            state.decision_times = screenings.decision_times(desk, screening)
            return state

        desk = self.operations.desk
        if desk is None:
            return
        self.operations.runner.write(
            "Triage", lambda _job: read(desk), on_done=self._on_read, on_error=self._on_failed
        )
        if plan.order == Order.PROMISE:
            self._start_promise(plan.text or plan.scope.query())

    def _start_promise(self, query: str) -> None:
        """Prepare the ranking on its own thread; the order follows once it is ready."""

        def prepare(desk: Desk) -> None:
            desk.promise.set_query(query)
            desk.promise.start()

        self.operations.read(
            "Preparing the ranking",
            prepare,
            lambda _: self.promise_started.emit(),
            self._on_failed,
        )

    def _on_read(self, state: _Round) -> None:
        self._round = state
        self.started.emit()
        self._move(1)
        self._read_stats()

    @property
    def screening(self) -> Screening | None:
        """The screening under way (None before its papers are read)."""
        return self._round.screening if self._round is not None else None

    def _on_failed(self, error: BaseException) -> None:
        self.busy = False
        if isinstance(error, PaperdeskError):
            self.message.emit(str(error))
        else:
            self.operations.errors.report("Triage", error)

    def stop(self) -> None:
        self._round = None
        self.paper = None
        desk = self.operations.desk
        promise = desk.promise_if_started() if desk is not None else None
        if promise is not None:
            promise.set_query("")

    # ------------------------------------------------------------------ deciding

    def decide(self, decision: Decision, reason: str | None = None) -> None:
        """Keep, maybe or discard the paper shown (a discard with an exclusion reason of
        the screening's); the next one shows once it is stored."""
        paper = self.paper
        if paper is None or self.busy or self._round is None:
            return
        self.busy = True
        self._decided_at = time.perf_counter()
        if reason and reason not in self._round.screening.reasons:
            self._add_reason(reason)

        def failed(_error: BaseException) -> None:
            self.busy = False  # the paper stays; the failure is reported as any action's

        decisions.decide(
            self.operations,
            paper.id,
            decision,
            self.plan.shortlist,
            done=lambda: self._after_decision(paper.id),
            failed=failed,
            screening=self._round.screening,
            reason=reason,
        )

    def _add_reason(self, reason: str) -> None:
        """A new exclusion reason joins the screening's list (stored before the discard
        that gives it, on the same writer thread)."""
        state = self._round
        desk = self.operations.desk
        if state is None or desk is None or len(state.screening.reasons) >= MAX_REASONS:
            return
        reasons = (*state.screening.reasons, reason)
        state.screening = replace(state.screening, reasons=reasons)
        name = state.screening.name
        self.operations.runner.write(
            "Exclusion reason",
            lambda _job: screenings.start(desk, name, reasons=reasons),
            on_error=self._on_failed,
        )

    def _after_decision(self, paper_id: int) -> None:
        state = self._round
        self.busy = False
        if state is None:
            return
        state.pending.discard(paper_id)
        state.skipped.discard(paper_id)
        state.decision_times.append(datetime.now())
        self._move(1)
        self.timings.append((time.perf_counter() - self._decided_at) * 1000)
        self._read_stats()

    def undo(self) -> None:
        """Undo the last action; if it touched a paper of this triage, show that paper."""
        self._undo_pending = True

        def failed(_error: BaseException) -> None:
            self._undo_pending = False

        history.undo(self.operations, failed=failed)

    # ------------------------------------------------------------------ moving

    def next(self) -> None:
        """J: forward through the papers shown, then on to a new one (this one waits)."""
        state = self._round
        if state is None or self.busy:
            return
        if self.paper is not None and state.position == len(state.shown) - 1:
            state.skipped.add(self.paper.id)
        self._move(1)

    def previous(self) -> None:
        """K: back to the paper shown before this one."""
        if self._round is not None and not self.busy:
            self._move(-1)

    def more_like_this(self) -> None:
        """Put the undecided papers most like the one shown next in line."""
        paper = self.paper
        state = self._round
        if paper is None or state is None:
            return

        def similar(desk: Desk) -> list[int]:
            return desk.promise.more_like(paper.id, MORE_LIKE_COUNT * 5)

        def queue(ids: list[int]) -> None:
            wanted = [i for i in ids if i in state.pending and i not in state.shown]
            state.up_next = wanted[:MORE_LIKE_COUNT] + state.up_next
            count = len(state.up_next)
            self.message.emit(
                f"{count} paper{'s' if count != 1 else ''} like this one come next"
                if count
                else "No undecided paper of this triage is like this one"
            )

        self.operations.read("More like this", similar, queue, self._on_failed)

    def _move(self, step: int) -> None:
        """Show the paper `step` places from the one shown: -1 back, 0 the same one
        again, 1 forward (past the last one shown, the next one chosen).

        Papers deleted meanwhile are passed over, in a loop: another program may delete
        hundreds at once. A paper that cannot be read for another reason stops the move
        there and says why; every paper still to decide stays in the queue.
        """
        state = self._round
        desk = self.operations.desk
        while state is not None and desk is not None and state.position + step >= 0:
            position = state.position + step
            if position == len(state.shown):
                chosen = self._choose(state)
                if chosen is None:
                    self.paper = None
                    self.paper_shown.emit(None)
                    self._emit_progress()
                    return
                state.shown.append(chosen)
            paper_id = state.shown[position]
            try:
                # One paper, a short bounded read: fine on the GUI thread (DESIGN §5).
                paper = reading.paper(desk, paper_id)
            except NotFoundError:
                state.pending.discard(paper_id)  # deleted meanwhile: passed over
                del state.shown[position]
                if position < state.position:
                    state.position -= 1
                continue
            except PaperdeskError as error:
                state.position = position
                self.paper = None
                self.cannot_read.emit(str(error))
                self._emit_progress()
                return
            state.position = position
            self.paper = paper
            self.paper_shown.emit(paper)
            self._emit_progress()
            return

    def _choose(self, state: _Round) -> int | None:
        """The next pending paper: more-like-this first, then by the plan's order;
        papers skipped with J come back once every other paper was seen."""
        while state.up_next:
            paper_id = state.up_next.pop(0)
            if paper_id in state.pending:
                return paper_id
        candidates = state.pending - state.skipped - set(state.shown)
        if not candidates:
            # Every pending paper was shown: the skipped ones come round again, the one
            # on screen last of all.
            state.skipped.clear()
            current = {self.paper.id} if self.paper is not None else set()
            candidates = state.pending - current or state.pending
        if not candidates:
            return None
        promise = self._promise()
        if self.plan.order == Order.PROMISE and promise is not None:
            best = promise.best(candidates)
            if best is not None:
                return best
        return next(i for i in state.order if i in candidates)

    def reshow(self) -> None:
        """Read the paper shown again (after a rating, a tag, a note, a highlight)."""
        if self.paper is not None:
            self._move(0)

    # ------------------------------------------------------------------ following changes

    def follow(self, changes: Changes | None) -> None:
        """Any change in the library: papers of this triage may be pending again (undo) or
        decided elsewhere; the paper shown is redrawn when it changed."""
        state = self._round
        desk = self.operations.desk
        if state is None or desk is None or changes is None or not changes.paper_ids:
            self._undo_pending = False
            return
        touched = [i for i in changes.paper_ids if i in state.members]
        if touched:
            waiting = screenings.still_pending(desk, state.screening, touched)
            for paper_id in touched:
                if paper_id in waiting:
                    state.pending.add(paper_id)
                else:
                    state.pending.discard(paper_id)
        if touched:
            self._read_stats()  # an undo or a change elsewhere moves the figures
        undone = self._undo_pending
        self._undo_pending = False
        back = [i for i in reversed(state.shown) if i in changes.paper_ids]
        if undone and back:
            if state.decision_times:
                state.decision_times.pop()
            state.position = max(i for i, p in enumerate(state.shown) if p == back[0])
            self._move(0)
        elif self.paper is not None and self.paper.id in changes.paper_ids:
            self.reshow()
        else:
            self._emit_progress()

    def set_promise_ready(self) -> None:
        """A model finished training: the order line says so (the paper shown stays), and
        the paper shown, if it has no 'why' yet (the first paper of a triage is shown
        before any model), asks for one; it comes by `explained`."""
        self._promise_ready = True
        self._emit_progress()
        paper = self.paper
        if paper is not None and self._explanation[0] != paper.id:
            self.explain(paper)

    # ------------------------------------------------------------------ figures

    def _on_stats(self, stats: TriageStats) -> None:
        """The screening's figures came: the progress line takes their pace, so the time
        left it shows is the statistics view's, read from the same decisions."""
        if stats.screening and self._round is not None:
            if stats.screening == self._round.screening.name:
                self._pace = stats.pace_per_hour
                self._emit_progress()

    def progress(self) -> Progress | None:
        state = self._round
        if state is None:
            return None
        pace = self._pace if self._pace is not None else pace_per_hour(state.decision_times)
        return Progress(
            len(state.ids) - len(state.pending),
            len(state.ids),
            pace,
            self._ordered_by(),
            state.left_out,
            state.earlier,
        )

    def _ordered_by(self) -> str:
        if self.plan.order != Order.PROMISE:
            return ORDER_LABELS[self.plan.order].lower()
        return order_words(self._promise())

    def _emit_progress(self) -> None:
        progress = self.progress()
        if progress is not None:
            self.progress_changed.emit(progress)

    def _read_stats(self) -> None:
        """The screening's own figures (progress, estimate), for the stopping hint."""
        state = self._round
        if state is None:
            return
        screening = state.screening
        members, pending = len(state.ids), len(state.pending)
        self.operations.read(
            "Triage figures",
            lambda desk: triage.stats(desk, screening, members, pending),
            self.stats_read.emit,
            self._on_failed,
            key="triage-stats",
        )

    def explain(self, paper: Paper) -> Explanation | None:
        """Why the last model ranks `paper` where it does, without waiting: the last
        explanation of this paper, if any (None before a model). When the model is newer
        than that, a new one is asked of the ranking's process and comes by `explained`."""
        promise = self._promise()
        latest = promise.latest() if promise is not None else None
        if promise is None or latest is None or latest.kind is None:
            return None
        paper_id, version, known = self._explanation
        if paper_id != paper.id or version != latest.version:
            asked = promise.explain_later(paper)
            if asked is not None:
                self._explanation = (
                    paper.id,
                    latest.version,
                    known if paper_id == paper.id else None,
                )
                asked.add_done_callback(partial(self._explained, paper.id, latest.version))
            return known if paper_id == paper.id else None
        return known

    def _explained(self, paper_id: int, version: int, done: Future[Explanation | None]) -> None:
        """On the ranking link's thread: keep the answer, and say it (to the GUI thread)."""
        if done.cancelled() or done.exception() is not None:
            return
        found = done.result()
        if self._explanation[0] == paper_id:
            self._explanation = (paper_id, version, found)
        self.explained.emit(paper_id, found)

    def search_terms(self) -> tuple[str, ...]:
        return self._round.terms if self._round is not None else ()

    def _promise(self) -> Promise | None:
        desk = self.operations.desk
        return desk.promise_if_started() if desk is not None else None

"""'Most promising first' for an open library (issue 10, part 3).

The model lives in a process of its own (services/runtime/ranking_process.py, reached through
services/runtime/ranking_link.py): it holds the feature matrix, trains after every decision and
sends back every paper's score, so this process (the window's) never imports
scikit-learn or SciPy, never holds the matrix, and its GIL never waits on training.

The matrix is built once per library change, not per decision: the ranking process saves
it in the library folder (`ranking/`) with a key per paper that changes when the
paper's title or abstract does. Here the keys are read from the database and sent; the
process answers which papers it must read again, and their texts follow in slices of
2,000 (so reopening loads the matrix, and a change tokenises only the papers it touched).
Decisions (keep or a rating of 4+ relevant, discard irrelevant) are sent as they are
made; the next paper is read from the last scores received, so it never waits.

If the process dies, the order falls back to file order (`latest` is None), the
listeners hear a notice, and another process is started; after MAX_DEATHS deaths the
library stays in file order until it is opened again.

A Promise belongs to one Desk (`desk.promise`) and is safe to use from any thread.
Syncing the matrix is the only slow call (seconds at 13,000 papers, a minute at 100,000
the first time): `start` runs it on the Promise's own worker thread.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable, Collection, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np

from paperdesk.core.changes import Changes
from paperdesk.core.models import Paper, Status
from paperdesk.core.triage import KEPT_STATUSES
from paperdesk.ranking.decisions import decision_label
from paperdesk.ranking.explanation import Explanation
from paperdesk.services.runtime.ranking_link import Ranked, RankingLink, WorkerDied, WorkerFailed

if TYPE_CHECKING:
    from pathlib import Path

    from paperdesk.store.library import Library
    from paperdesk.store.triage import TriageStore

log = logging.getLogger(__name__)

FEATURES_DIR = "ranking"
#: Papers whose texts are sent to the ranking process at a time (features.SLICE).
SLICE = 2_000
#: How long an order waits for the first model of a library (later ones never wait).
FIRST_MODEL_WAIT_S = 60.0
#: How long the window waits for "why this paper" before showing the paper without it.
EXPLAIN_WAIT_S = 0.25
#: Deaths of the ranking process after which the library stays in file order.
MAX_DEATHS = 3

STOPPED = "The ranking stopped: file order until it starts again"
STOPPED_FOR_GOOD = "The ranking stopped {n} times: file order from now on"


def label_of(status: Status, rating: int) -> bool | None:
    """What a paper teaches the model: relevant, irrelevant, or nothing (None)."""
    return decision_label(status, rating, kept=status in KEPT_STATUSES)


#: The order line's words while "most promising first" cannot be followed yet.
PREPARING = "file order while the ranking prepares its first model"
UNTIL_FIRST_KEEP = "file order until a first keep (or a seed query)"
PROMISING = "most promising first"


def order_words(promise: Promise | None) -> str:
    """What "most promising first" means right now: the model's order, or file order and
    why (the progress line of the triage view and of the terminal say it)."""
    latest = promise.latest() if promise is not None else None
    if latest is None:
        return PREPARING
    if latest.kind is None:
        return UNTIL_FIRST_KEEP
    return PROMISING


class Promise:
    """The library's ranking process, kept in step with the library."""

    def __init__(self, folder: Path, library: Library) -> None:
        self._folder = folder
        self._library = library
        self._lock = threading.RLock()
        self._link: RankingLink | None = None
        self._synced = False  # the process's matrix follows the library
        self._started = False  # the process trains
        self._query = ""
        self._listeners: list[Callable[[], None]] = []
        self._notice_listeners: list[Callable[[str], None]] = []
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="promise")
        self._closed = False
        self.deaths = 0
        #: The last process's exit code once the Promise is closed (0: it ended cleanly).
        self.exit_code: int | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Future[None]:
        """Start the process, bring its matrix up to date and train, on the Promise's
        own thread."""
        return self._worker.submit(self._logged(self._start))

    def add_listener(self, listener: Callable[[], None]) -> None:
        """Call `listener` (on the link's reader thread) whenever a model finishes
        training. It must not wait on the Promise."""
        self._listeners.append(listener)

    def add_notice_listener(self, listener: Callable[[str], None]) -> None:
        """Call `listener` with a sentence for the user when the ranking's process died."""
        self._notice_listeners.append(listener)

    def close(self) -> None:
        """End the ranking's process (it exits by itself: `exit_code` 0)."""
        with self._lock:
            self._closed = True
            link, self._link = self._link, None
        if link is not None:
            self.exit_code = link.close()  # a sync under way fails at its next call
        self._worker.shutdown(wait=True, cancel_futures=True)

    def _start(self) -> None:
        link = self._linked()
        if link is None:
            return
        if not self._synced:
            self._sync(link, None)
            self._synced = True
        if not self._started:
            with self._lock:
                query = self._query
            link.call("start", self.labels(), query)
            self._started = True

    def _linked(self) -> RankingLink | None:
        """The live process, started when there is none (None: closed, or given up)."""
        with self._lock:
            if self._closed or self.deaths >= MAX_DEATHS:
                return None
            if self._link is None:
                self._link = RankingLink(self._folder, self._trained, self._died)
                self._synced = self._started = False
            return self._link

    def _died(self, link: RankingLink) -> None:
        """On the link's reader thread: file order, a notice, and another process."""
        with self._lock:
            if self._closed or link is not self._link:
                return
            self._link = None
            self.deaths += 1
            deaths = self.deaths
            was_started = self._started
        log.warning(
            "the ranking's process ended (exit code %s, %d of %d)",
            link.process.exitcode,
            deaths,
            MAX_DEATHS,
        )
        notice = STOPPED if deaths < MAX_DEATHS else STOPPED_FOR_GOOD.format(n=deaths)
        for listener in list(self._notice_listeners):
            listener(notice)
        for trained in list(self._listeners):
            trained()  # the order line: back to file order
        if deaths < MAX_DEATHS and was_started:
            try:
                self.start()
            except RuntimeError:
                pass  # closing meanwhile

    # ------------------------------------------------------------------ the matrix

    def features(self) -> int:
        """Bring the process's matrix up to date with the library (reads every paper's
        key; tokenises what changed); the matrix's papers. Slow the first time for a
        library: off the GUI thread."""
        return self._worker.submit(self._sync_all).result()

    def _sync_all(self) -> int:
        link = self._linked()
        if link is None:
            return 0
        papers = self._sync(link, None)
        self._synced = True
        return papers

    def _prepare(self) -> RankingLink | None:
        """On the Promise's thread: the process, with a matrix."""
        link = self._linked()
        if link is not None and not self._synced:
            self._sync(link, None)
            self._synced = True
        return link

    def _sync(self, link: RankingLink, ids: Sequence[int] | None) -> int:
        """Send the keys of `ids` (every paper when None), then the texts the process
        asks for, a slice at a time."""
        keys = self._current_keys(ids)
        numbers = np.fromiter(keys, dtype=np.int64, count=len(keys))
        digests = np.fromiter(keys.values(), dtype=np.int64, count=len(keys))
        wanted: list[int] = link.call("keys", numbers, digests, ids is None).tolist()
        for start in range(0, len(wanted), SLICE):
            link.send("texts", list(self._triage.texts(wanted[start : start + SLICE])))
        return int(link.call("commit"))

    def _current_keys(self, ids: Sequence[int] | None = None) -> dict[int, int]:
        return {paper_id: _digest(key) for paper_id, key in self._triage.text_keys(ids)}

    def ready(self) -> bool:
        """Whether the process trains (a model can be asked for)."""
        link = self._link
        return link is not None and not link.dead and self._started

    # ------------------------------------------------------------------ the model

    def labels(self) -> dict[int, bool]:
        """Every judged paper's label (keep or rating >= 4 relevant, discard irrelevant)."""
        found = {}
        for paper_id, status, rating in self._triage.judged():
            label = label_of(status, rating)
            if label is not None:
                found[paper_id] = label
        return found

    def set_query(self, query: str) -> None:
        """A triage's query, the positive example a cold start learns from ("" for none)."""
        with self._lock:
            self._query = query
            link = self._link if self._started else None
        if link is not None:
            try:
                link.send("query", query)
            except WorkerDied:
                pass  # the next process starts with the query

    def note_changes(self, changes: Changes) -> None:
        """Learn from a mutation: new labels for the papers it touched, and a matrix
        update when papers came or went or their text changed. Called inside the write
        lock, so it only queues the work (the database read and the pipe's writes run
        on the Promise's thread, after the commit). Never slow, never raises."""
        link = self._link
        if link is None or not self._started or not changes.paper_ids:
            return
        ids = sorted(changes.paper_ids)
        whole = changes.papers_added_or_removed
        try:
            self._worker.submit(self._logged(lambda: self._learn(link, ids, whole)))
        except RuntimeError:
            pass  # closing: nothing left to learn for

    def _learn(self, link: RankingLink, ids: list[int], whole: bool) -> None:
        """On the Promise's thread: the touched papers' labels, then the matrix."""
        judged = {i: label_of(s, r) for i, s, r in self._triage.judged(ids)}
        link.send("decide", {paper_id: judged.get(paper_id) for paper_id in ids})
        self._sync(link, None if whole else ids)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the model reflects every change so far (CLI, tests, benchmarks)."""
        started = time.monotonic()

        def left() -> float | None:
            return None if timeout is None else max(0.0, timeout - (time.monotonic() - started))

        try:
            if not self._started:
                self.start().result(timeout)
            else:  # the matrix updates the changes queued
                self._worker.submit(lambda: None).result(timeout)
            link = self._link
            if link is None or not self._started:
                return False
            wait_s = left()
            return bool(link.call("wait", wait_s, timeout=None if wait_s is None else wait_s + 5))
        except (TimeoutError, RuntimeError):  # too slow, the process died, or closing
            return False

    def latest(self) -> Ranked | None:
        """The last model that finished (None before the first, or while there is no
        live process: file order)."""
        link = self._link
        return link.latest if link is not None and not link.dead else None

    def best(self, candidates: Collection[int]) -> int | None:
        """The most promising of `candidates` by the last model, without waiting.

        None when there is no candidate, no model yet (before the first keep or query),
        or none of the candidates is known to the model: the caller keeps its own order.
        """
        ranking = self.latest()
        if not candidates or ranking is None or ranking.kind is None:
            return None
        return ranking.best(candidates)

    def order(self, ids: Sequence[int]) -> list[int]:
        """`ids` most promising first by the last model; papers it has not seen last.

        The first time, this builds the matrix and trains (see `start` to do it ahead).
        """
        if not self._started:
            self.wait(FIRST_MODEL_WAIT_S)
        ranking = self.latest()
        if ranking is None or ranking.kind is None:
            return list(ids)
        return ranking.order(ids)

    def explain(self, paper: Paper) -> Explanation | None:
        """The words that raised or lowered the paper's score (None without a model, or
        when the process does not answer within EXPLAIN_WAIT_S)."""
        link = self._link
        if link is None or not self.ready():
            return None
        try:
            found: Explanation | None = link.call("explain", paper, timeout=EXPLAIN_WAIT_S)
        except (WorkerDied, WorkerFailed, TimeoutError):
            return None
        return found

    def explain_later(self, paper: Paper) -> Future[Explanation | None] | None:
        """`explain` without waiting: the answer comes on the link's reader thread
        (None: no process trains now)."""
        link = self._link
        if link is None or not self.ready():
            return None
        try:
            return link.request("explain", paper)
        except WorkerDied:
            return None

    def more_like(self, paper_id: int, limit: int = 20) -> list[int]:
        """The papers whose words are most like this one's, most alike first."""
        link = self._worker.submit(self._prepare).result()
        if link is None:
            return []
        try:
            return list(link.call("more_like", paper_id, limit))
        except WorkerDied:
            return []

    def info(self) -> dict[str, object]:
        """The process's figures (papers, generation, pid, peak_mb), {} without one."""
        link = self._link
        try:
            return dict(link.call("info", timeout=30)) if link is not None else {}
        except (WorkerDied, TimeoutError):
            return {}

    def link(self) -> RankingLink | None:
        """The live process's link (tests, benchmarks)."""
        return self._link

    # ------------------------------------------------------------------ helpers

    @property
    def _triage(self) -> TriageStore:
        return self._library.triage

    def _trained(self, _ranking: Ranked) -> None:
        for listener in list(self._listeners):
            listener()

    def _logged(self, work: Callable[[], object]) -> Callable[[], None]:
        def run() -> None:
            try:
                work()
            except WorkerDied:
                pass  # the death is announced (and the process restarted) by _died
            except Exception:
                if not self._closed:
                    log.exception("the ranking's background work failed")

        return run


def _digest(key: str) -> int:
    """A paper's text key as a signed 64-bit number (what the keys file stores)."""
    return int.from_bytes(
        hashlib.blake2b(key.encode(), digest_size=8).digest(), "little", signed=True
    )

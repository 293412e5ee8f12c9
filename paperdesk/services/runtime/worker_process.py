"""One spawned worker process and how to talk to it: start, messages, death, shutdown.

A worker is spawned, never forked (a fork of the GUI process would copy Qt's threads
and locks mid-flight), and spoken to over one duplex pipe:

  to it:    (request_id, name, args)     request_id 0 asks for no answer
  from it:  ("reply", request_id, value) | ("error", request_id, text)
            anything else: a message of its own, handed to `on_message`

Its side is `serve(conn, handler)`: `handler.do_NAME(*args)` answers each request, and
"close" ends it with exit code 0. This side (`WorkerProcess`) has a reader thread: it
answers futures, and when the pipe closes without a `close` asked for, fails every
waiting request with WorkerDied and calls `on_death` with the exit code. What to do then
(start another, give up after a few: `Restarts`) is the owner's choice.

A long request can be stopped: the owner sends "stop", and the worker's handler asks a
`StopAsked` between steps and raises Cancelled. A job done in parts by several workers
at once (the index pool's segments, or one import plan) is a `WorkerCrew`: it hands the
workers' own messages (progress) to the thread that waits, stops them all on a cancel
or when one part fails, and raises that part's error as the worker raised it.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import pickle
import queue
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from multiprocessing import get_context
from multiprocessing.connection import Connection
from types import TracebackType
from typing import Any

from paperdesk.core.errors import Cancelled

log = logging.getLogger(__name__)

#: How long closing waits for the process to end by itself before ending it.
CLOSE_WAIT_S = 10.0
#: How often a crew's waiting thread passes messages on and asks whether to cancel.
_POLL_S = 0.05


class WorkerDied(RuntimeError):
    """The worker process ended before answering."""


class WorkerFailed(RuntimeError):
    """The worker answered a request with an error (it logged the details); `error` is
    that error itself when it could cross the pipe."""

    def __init__(self, text: str, error: BaseException | None = None) -> None:
        super().__init__(text)
        self.error = error


def how_it_ended(exit_code: int | None) -> str:
    """A worker's exit code in words: "killed by SIGKILL", "exit status 1"."""
    if exit_code is not None and exit_code < 0:
        try:
            return f"killed by {signal.Signals(-exit_code).name}"
        except ValueError:
            return f"killed by signal {-exit_code}"
    return f"exit status {exit_code}"


class WorkerProcess:
    """A spawned process running `entry(conn, *args)` (a module-level function)."""

    def __init__(
        self,
        entry: Callable[..., None],
        args: tuple[Any, ...] = (),
        name: str = "paperdesk-worker",
        on_message: Callable[[tuple[Any, ...]], None] | None = None,
        on_death: Callable[[WorkerProcess], None] | None = None,
    ) -> None:
        context = get_context("spawn")
        self._conn, child = context.Pipe()
        self.name = name
        self.process = context.Process(target=entry, args=(child, *args), name=name, daemon=True)
        self.process.start()
        child.close()
        self._on_message = on_message
        self._on_death = on_death
        self._lock = threading.Lock()
        self._pending: dict[int, Future[Any]] = {}
        self._numbers = itertools.count(1)
        self._closing = False
        self._close_answer: Future[Any] | None = None
        self.dead = False
        self._reader = threading.Thread(target=self._read, name=f"{name}-link", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int | None:
        return self.process.pid

    @property
    def exit_code(self) -> int | None:
        return self.process.exitcode

    # ------------------------------------------------------------------ requests

    def call(self, name: str, *args: object, timeout: float | None = None) -> Any:
        """Ask the worker and wait for its answer (WorkerDied, WorkerFailed, TimeoutError)."""
        return self.request(name, *args).result(timeout)

    def request(self, name: str, *args: object) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self.dead:
                raise WorkerDied(f"the {self.name} process has ended")
            number = next(self._numbers)
            self._pending[number] = future
            self._send((number, name, args))
        return future

    def send(self, name: str, *args: object) -> None:
        """Tell the worker something that needs no answer."""
        with self._lock:
            if self.dead:
                raise WorkerDied(f"the {self.name} process has ended")
            self._send((0, name, args))

    def _send(self, message: tuple[Any, ...]) -> None:
        try:
            self._conn.send(message)
        except (OSError, ValueError) as error:
            raise WorkerDied(f"the {self.name} process has ended ({error})") from None

    # ------------------------------------------------------------------ the reader

    def _read(self) -> None:
        while True:
            try:
                message = self._conn.recv()
            except (EOFError, OSError):
                break
            try:
                self._receive(message)
            except Exception:
                log.exception("the %s process's message could not be read", self.name)
        with self._lock:
            self.dead = True
            pending, self._pending = self._pending, {}
        for future in pending.values():
            future.set_exception(WorkerDied(f"the {self.name} process ended"))
        if not self._closing and self._on_death is not None:
            # Its pipe closes a moment before it is reaped: wait for that, or its exit
            # code reads None (on this thread, never the window's).
            self.process.join(timeout=1.0)
            self._on_death(self)

    def _receive(self, message: tuple[Any, ...]) -> None:
        if message[0] not in ("reply", "error"):
            if self._on_message is not None:
                self._on_message(message)
            return
        answer, number, value, *error = message
        with self._lock:
            future = self._pending.pop(number, None)
        if future is None:
            return
        if answer == "error":
            future.set_exception(WorkerFailed(value, *error))
        else:
            future.set_result(value)

    # ------------------------------------------------------------------ ending

    def close(self, timeout: float = CLOSE_WAIT_S) -> int | None:
        """Ask the worker to end, wait for it, and return its exit code (0: it ended by
        itself; a worker that does not end in `timeout` is terminated)."""
        self.ask_to_close()
        return self.wait_until_ended(timeout)

    def ask_to_close(self) -> None:
        """Ask the worker to end, without waiting (several end at once)."""
        self._closing = True
        with contextlib.suppress(WorkerDied):
            self._close_answer = self.request("close")

    def wait_until_ended(self, timeout: float = CLOSE_WAIT_S) -> int | None:
        """After `ask_to_close`: `close`'s waiting part."""
        if self._close_answer is not None:
            with contextlib.suppress(WorkerDied, WorkerFailed, TimeoutError):
                self._close_answer.result(timeout)
        self.process.join(timeout)
        if self.process.is_alive():
            log.warning("the %s process did not end: terminating it", self.name)
            self.process.terminate()
            self.process.join(timeout)
        self._reader.join(timeout)
        self._conn.close()
        return self.process.exitcode


class Restarts:
    """A restart policy: another worker after a death, until `limit` deaths."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.deaths = 0

    def died(self) -> bool:
        """Count a death; whether another worker may be started."""
        self.deaths += 1
        return self.deaths < self.limit

    @property
    def given_up(self) -> bool:
        return self.deaths >= self.limit


class WorkerCrew:
    """Workers of one kind doing one job in parts, one part each, driven from the thread
    that waits for them (`run`). Use it as a context manager: leaving ends them all."""

    def __init__(
        self, entry: Callable[..., None], args: tuple[Any, ...], count: int, name: str
    ) -> None:
        # Messages come on each worker's reader thread; `run` passes them on from its own.
        self._messages: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()
        self.workers = [
            WorkerProcess(
                entry,
                args,
                name if count == 1 else f"{name}-{number}",
                on_message=self._messages.put,
            )
            for number in range(1, count + 1)
        ]

    def run(
        self,
        request: str,
        parts: Sequence[tuple[Any, ...]],
        on_message: Callable[[tuple[Any, ...]], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        stop_grace_s: float | None = None,
    ) -> list[Any]:
        """Ask worker k for `request(*parts[k])` and return their answers in order.

        The workers' own messages reach `on_message` on this thread, every one of them
        before the answers are returned (a worker's messages precede its answer on the
        pipe). When `cancelled()` turns true, or a part fails, every worker is sent
        "stop", and after `stop_grace_s` (when given) those still at work are
        terminated. Then Cancelled is raised for a cancel, else the first failure as the
        worker raised it (WorkerFailed when it could not cross), or WorkerDied.
        """
        answers = [
            worker.request(request, *part) for worker, part in zip(self.workers, parts, strict=True)
        ]
        was_cancelled = stopped = False
        failure: BaseException | None = None
        terminate_at: float | None = None
        while True:
            self._pass_on(on_message)
            pending = [answer for answer in answers if not answer.done()]
            if not pending:
                break
            was_cancelled = was_cancelled or (cancelled is not None and cancelled())
            failure = failure or _first_failure(answers)
            if not stopped and (was_cancelled or failure is not None):
                self._stop_all()
                stopped = True
                if stop_grace_s is not None:
                    terminate_at = time.monotonic() + stop_grace_s
            if terminate_at is not None and time.monotonic() > terminate_at:
                terminate_at = None
                for worker, answer in zip(self.workers, answers, strict=True):
                    if not answer.done():
                        worker.process.terminate()
            wait(pending, timeout=_POLL_S, return_when=FIRST_COMPLETED)
        if was_cancelled:
            raise Cancelled
        failure = failure or _first_failure(answers)
        if failure is not None:
            raise failure
        return [answer.result() for answer in answers]

    def _pass_on(self, on_message: Callable[[tuple[Any, ...]], None] | None) -> None:
        while not self._messages.empty():
            message = self._messages.get()
            if on_message is not None:
                on_message(message)

    def _stop_all(self) -> None:
        for worker in self.workers:
            with contextlib.suppress(WorkerDied):
                worker.send("stop")

    def close(self) -> None:
        """End every worker: all asked at once, then waited for."""
        for worker in self.workers:
            worker.ask_to_close()
        for worker in self.workers:
            worker.wait_until_ended()

    def __enter__(self) -> WorkerCrew:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _first_failure(answers: Sequence[Future[Any]]) -> BaseException | None:
    """The error of the first part that failed by itself: the parts stopped because of
    it answer Cancelled, and must not hide it (a full disk is no cancel)."""
    errors = [answer.exception() for answer in answers if answer.done()]
    failures = [_unwrapped(error) for error in errors if error is not None]
    for error in failures:
        if not isinstance(error, Cancelled):
            return error
    return failures[0] if failures else None


def _unwrapped(error: BaseException) -> BaseException:
    """A worker's error as it raised it, when it crossed the pipe."""
    if isinstance(error, WorkerFailed) and error.error is not None:
        return error.error
    return error


# --- in the worker ------------------------------------------------------------------


def serve(conn: Connection, handler: object) -> None:
    """Answer requests with `handler.do_NAME(*args)` until "close" or the other side is
    gone. An error is logged here and answered as ("error", id, text, the error itself
    when it pickles); Cancelled (a request stopped) is answered alike, and not logged."""
    while True:
        try:
            request_id, name, args = conn.recv()
        except (EOFError, OSError):
            return  # the other process is gone: nothing left to answer
        if name == "close":
            reply(conn, request_id, None)
            return
        if name == "stop":
            continue  # it came after the request it stopped was answered
        try:
            value = getattr(handler, f"do_{name}")(*args)
        except Exception as error:
            if not isinstance(error, Cancelled):
                log.exception("%s failed", name)
            if request_id:
                text = f"{type(error).__name__}: {error}"
                conn.send(("error", request_id, text, _picklable(error)))
            continue
        reply(conn, request_id, value)


def reply(conn: Connection, request_id: int, value: object) -> None:
    if request_id:
        conn.send(("reply", request_id, value))


def _picklable(error: BaseException) -> BaseException | None:
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return None
    return error


class StopAsked:
    """In the worker, during one long request: whether the owner has sent "stop" (the
    only message an owner sends while a request runs), or is gone."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn
        self._asked = False

    def __call__(self) -> bool:
        if not self._asked and self._conn.poll():
            try:
                self._asked = self._conn.recv()[1] == "stop"
            except (EOFError, OSError):
                self._asked = True  # no one is left to want the answer
        return self._asked

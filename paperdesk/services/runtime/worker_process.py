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
"""

from __future__ import annotations

import itertools
import logging
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Future
from multiprocessing import get_context
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger(__name__)

#: How long closing waits for the process to end by itself before ending it.
CLOSE_WAIT_S = 10.0


class WorkerDied(RuntimeError):
    """The worker process ended before answering."""


class WorkerFailed(RuntimeError):
    """The worker answered a request with an error (it logged the details)."""


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
        answer, number, value = message
        with self._lock:
            future = self._pending.pop(number, None)
        if future is None:
            return
        if answer == "error":
            future.set_exception(WorkerFailed(value))
        else:
            future.set_result(value)

    # ------------------------------------------------------------------ ending

    def close(self, timeout: float = CLOSE_WAIT_S) -> int | None:
        """Ask the worker to end, wait for it, and return its exit code (0: it ended by
        itself; a worker that does not end in `timeout` is terminated)."""
        self._closing = True
        try:
            self.call("close", timeout=timeout)
        except (WorkerDied, WorkerFailed, TimeoutError):
            pass
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


# --- in the worker ------------------------------------------------------------------


def serve(conn: Connection, handler: object) -> None:
    """Answer requests with `handler.do_NAME(*args)` until "close" or the other side is
    gone. An error is logged here and answered as ("error", id, text)."""
    while True:
        try:
            request_id, name, args = conn.recv()
        except (EOFError, OSError):
            return  # the other process is gone: nothing left to answer
        if name == "close":
            reply(conn, request_id, None)
            return
        try:
            value = getattr(handler, f"do_{name}")(*args)
        except Exception as error:
            log.exception("%s failed", name)
            if request_id:
                conn.send(("error", request_id, f"{type(error).__name__}: {error}"))
            continue
        reply(conn, request_id, value)


def reply(conn: Connection, request_id: int, value: object) -> None:
    if request_id:
        conn.send(("reply", request_id, value))

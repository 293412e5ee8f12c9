"""The one helper for every spawned worker process (services/runtime/worker_process.py)."""

from __future__ import annotations

import os
import signal
import threading
from multiprocessing.connection import Connection

import pytest

from paperdesk.services.runtime.worker_process import (
    Restarts,
    WorkerDied,
    WorkerFailed,
    WorkerProcess,
    how_it_ended,
    serve,
)


class _Echo:
    def do_echo(self, value: object) -> object:
        return value

    def do_fail(self) -> None:
        raise ValueError("no such thing")


def _echo(conn: Connection, greeting: str) -> None:
    """The worker's entry: says hello unasked, then answers until closed."""
    conn.send(("hello", greeting))
    serve(conn, _Echo())


def test_a_worker_answers_and_its_own_messages_reach_the_owner() -> None:
    heard: list[tuple[object, ...]] = []
    arrived = threading.Event()

    def on_message(message: tuple[object, ...]) -> None:
        heard.append(message)
        arrived.set()

    worker = WorkerProcess(_echo, ("hi",), name="echo", on_message=on_message)
    try:
        assert worker.call("echo", [1, 2], timeout=60) == [1, 2]
        with pytest.raises(WorkerFailed, match="no such thing"):
            worker.call("fail", timeout=60)
        assert arrived.wait(60) and heard == [("hello", "hi")]
    finally:
        assert worker.close() == 0


def test_shutdown_ends_the_worker_with_exit_code_0() -> None:
    worker = WorkerProcess(_echo, ("hi",), name="echo")
    assert worker.call("echo", 1, timeout=60) == 1
    assert worker.close() == 0
    assert not worker.process.is_alive() and worker.exit_code == 0


def test_a_killed_worker_is_reported_with_its_exit_code() -> None:
    deaths: list[int | None] = []
    reported = threading.Event()

    def on_death(dead: WorkerProcess) -> None:
        deaths.append(dead.exit_code)
        reported.set()

    worker = WorkerProcess(_echo, ("hi",), name="echo", on_death=on_death)
    assert worker.call("echo", 1, timeout=60) == 1
    assert worker.pid is not None
    os.kill(worker.pid, signal.SIGKILL)
    assert reported.wait(60)
    assert deaths == [-signal.SIGKILL] and worker.dead
    assert how_it_ended(deaths[0]) == "killed by SIGKILL"
    with pytest.raises(WorkerDied):
        worker.call("echo", 2, timeout=60)
    worker.close()


def test_restarts_stop_after_the_limit() -> None:
    restarts = Restarts(3)
    assert restarts.died() and restarts.died()
    assert not restarts.died() and restarts.given_up

"""The one helper for every spawned worker process (services/runtime/worker_process.py)."""

from __future__ import annotations

import errno
import os
import signal
import threading
import time
from multiprocessing.connection import Connection

import pytest

from paperdesk.core.errors import Cancelled
from paperdesk.services.runtime.worker_process import (
    Restarts,
    StopAsked,
    WorkerCrew,
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


class _Part:
    """A crew member's part: count out loud, fail as a full disk, work until stopped, or
    ignore a stop."""

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def do_part(self, kind: str, count: int = 0) -> object:
        if kind == "count":
            for number in range(1, count + 1):
                self._conn.send(("counted", number))
            return count
        if kind == "full disk":
            time.sleep(0.5)  # the other part is at work by then
            raise OSError(errno.ENOSPC, "No space left on device")
        self._conn.send(("started", kind))
        if kind == "until stopped":
            stop_asked = StopAsked(self._conn)
            while not stop_asked():
                time.sleep(0.01)
            raise Cancelled
        time.sleep(600)  # deaf to "stop"
        return None


def _part(conn: Connection) -> None:
    serve(conn, _Part(conn))


def test_a_crew_passes_every_message_on_to_the_waiting_thread_then_answers_in_order() -> None:
    heard: list[tuple[object, ...]] = []
    threads: set[int] = set()

    def on_message(message: tuple[object, ...]) -> None:
        heard.append(message)
        threads.add(threading.get_ident())

    with WorkerCrew(_part, (), 2, "counting") as crew:
        assert crew.run("part", [("count", 3), ("count", 40)], on_message) == [3, 40]
        workers = list(crew.workers)
    expected = [("counted", n) for n in range(1, 4)] + [("counted", n) for n in range(1, 41)]
    assert sorted(heard) == sorted(expected)
    assert threads == {threading.get_ident()}
    assert [worker.exit_code for worker in workers] == [0, 0]


def test_a_part_that_fails_stops_the_others_and_its_own_error_is_raised() -> None:
    """The part stopped because of it answers Cancelled: the caller hears the full disk."""
    with WorkerCrew(_part, (), 2, "failing") as crew:
        with pytest.raises(OSError) as raised:
            crew.run("part", [("until stopped",), ("full disk",)])
        assert raised.value.errno == errno.ENOSPC
        assert not any(worker.dead for worker in crew.workers)


def test_a_cancel_stops_every_part_and_a_deaf_one_is_terminated_after_the_grace() -> None:
    started: list[tuple[object, ...]] = []
    with WorkerCrew(_part, (), 2, "cancelled") as crew:
        with pytest.raises(Cancelled):
            crew.run(
                "part",
                [("until stopped",), ("deaf",)],
                on_message=started.append,
                cancelled=lambda: len(started) == 2,  # both at work
                stop_grace_s=2.0,
            )
        stopped, deaf = crew.workers
        assert not stopped.dead
        deaf.process.join(60)
        assert deaf.exit_code == -signal.SIGTERM
    assert stopped.exit_code == 0


def test_a_killed_part_is_reported_and_the_others_are_stopped() -> None:
    with WorkerCrew(_part, (), 2, "killed") as crew:
        victim = crew.workers[1]
        assert victim.pid is not None
        threading.Timer(0.5, os.kill, (victim.pid, signal.SIGKILL)).start()
        with pytest.raises(WorkerDied):
            crew.run("part", [("until stopped",), ("deaf",)])
        assert not crew.workers[0].dead

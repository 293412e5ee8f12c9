"""The ranking runs in a process of its own (services/runtime/ranking_process.py): it ends with
the library, and its death leaves triage in file order, said, and restarted (3 at most)."""

from __future__ import annotations

import os
import signal
import time

import numpy as np
import pytest

from paperdesk.core.triage import Decision
from paperdesk.services.runtime import promise as promise_module
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.promise import MAX_DEATHS, STOPPED, Promise
from paperdesk.services.runtime.ranking_link import Ranked
from paperdesk.services.use_cases import triage


def _wait_until(condition, timeout: float = 60.0) -> None:
    ends = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < ends, "timed out"
        time.sleep(0.02)


def _kill(promise: Promise) -> None:
    link = promise.link()
    assert link is not None and link.pid is not None
    os.kill(link.pid, signal.SIGKILL)
    _wait_until(lambda: promise.link() is not link)


def test_closing_the_library_ends_the_process_cleanly(desk: Desk) -> None:
    triage.decide(desk, 1, Decision.KEEP)
    promise = desk.promise
    assert promise.wait(60)
    link = promise.link()
    assert link is not None and link.process.is_alive()
    assert promise.latest() is not None and promise.latest().kind == "kept"
    desk.close()
    assert promise.exit_code == 0
    assert not link.process.is_alive() and link.process.exitcode == 0


def test_the_matrix_is_sent_in_slices_and_covers_every_paper(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(promise_module, "SLICE", 7)
    papers = desk._library.papers.count()
    assert desk.promise.features() == papers
    info = desk.promise.info()
    assert info["papers"] == papers and info["pid"] != os.getpid()
    # Reopened: the matrix comes from the process's cache, nothing is sent again.
    desk.promise.close()
    again = Promise(desk.folder, desk._library)
    try:
        assert again.features() == papers
        assert again.info()["generation"] == 0  # loaded, not built
    finally:
        again.close()


@pytest.mark.logs_warnings
def test_a_dead_process_means_file_order_a_notice_and_a_restart(
    desk: Desk, caplog: pytest.LogCaptureFixture
) -> None:
    triage.decide(desk, 1, Decision.KEEP)
    promise = desk.promise
    notices: list[str] = []
    promise.add_notice_listener(notices.append)
    assert promise.wait(60)
    candidates = {5, 6, 7, 8}
    assert promise.best(candidates) is not None

    for death in range(1, MAX_DEATHS):
        _kill(promise)
        # The notice is sent just after the link is dropped, on the reader thread.
        _wait_until(lambda: len(notices) == death)  # noqa: B023 (read at once)
        assert notices[-1] == STOPPED and promise.deaths == death
        # Until the new process trains: file order (the caller's own), never a wait.
        assert promise.wait(60)
        assert promise.best(candidates) is not None  # restarted, with the keep it had
        assert promise.latest() is not None and promise.latest().kind == "kept"

    last = promise.link()
    assert last is not None
    _kill(promise)
    _wait_until(lambda: len(notices) == MAX_DEATHS)
    assert promise.deaths == MAX_DEATHS and "3 times" in notices[-1]
    last._worker._reader.join(60)  # its death handled whole: a restart would have begun by now
    assert promise.link() is None and promise.latest() is None
    assert promise.best(candidates) is None  # file order for good
    assert promise.order([3, 2, 1]) == [3, 2, 1]
    assert not promise.wait(1)
    assert "the ranking's process ended (exit code -9, 3 of 3)" in caplog.text


def test_scores_order_and_pick_without_the_process() -> None:
    ranked = Ranked(np.array([10, 3, 7, 5]), np.array([0.1, 0.9, 0.5, 0.9]), "learnt", 1)
    assert ranked.best({10, 7}) == 7
    assert ranked.best({99}) is None
    assert ranked.best({10, 3, 7, 5}) == 3  # most of the library: walked from the top
    assert ranked.best({10, 5, 7, 99}) == 5
    assert ranked.order([10, 99, 5, 3, 7]) == [5, 3, 7, 10, 99]  # ties keep their order
    assert ranked.order([]) == []

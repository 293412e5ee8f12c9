from __future__ import annotations

import threading

import pytest

from paperdesk.gui.tasks import TaskRunner


@pytest.fixture
def runner(qtbot):
    runner = TaskRunner()
    yield runner
    runner.shutdown()


def test_a_write_runs_off_the_gui_thread_and_reports_back_on_it(qtbot, runner):
    results = []
    gui_thread = threading.current_thread()
    runner.write(
        "work",
        lambda job: threading.current_thread() is not gui_thread,
        on_done=lambda result: results.append((result, threading.current_thread())),
    )
    qtbot.waitUntil(lambda: bool(results), timeout=2000)
    assert results == [(True, gui_thread)]
    assert runner.is_idle()


def test_writes_run_one_at_a_time_in_order(qtbot, runner):
    order = []
    for n in range(20):
        runner.write("append", lambda job, n=n: order.append(n))
    qtbot.waitUntil(runner.is_idle, timeout=2000)
    assert order == list(range(20))


def test_an_error_reaches_its_handler_or_the_unhandled_signal(qtbot, runner):
    def fail(job):
        raise ValueError("bad value")

    errors = []
    runner.write("fails", fail, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=2000)
    assert str(errors[0]) == "bad value"
    with qtbot.waitSignal(runner.unhandled_error, timeout=2000) as unhandled:
        runner.write("fails too", fail)
    assert unhandled.args[0] == "fails too"


def test_a_newer_search_supersedes_an_older_one(qtbot, runner):
    gate = threading.Event()
    delivered = []
    runner.read("blocker", lambda job: gate.wait(2))
    for text in ("g", "gr", "gra", "graph"):
        runner.read("search", lambda job, t=text: t, on_done=delivered.append, key="search")
    gate.set()
    qtbot.waitUntil(runner.is_idle, timeout=2000)
    assert delivered == ["graph"]


def test_long_work_reports_progress_and_stops_when_cancelled(qtbot, runner):
    started = threading.Event()
    progress = []
    finished = []

    def long_job(job):
        started.set()
        done = 0
        # A step of work at a time, until cancelled: each step ends at once on the cancel.
        while done < 10_000 and not job._cancelled.wait(0.001):
            done += 1
            job.report_progress(done, 10_000, "file.txt")
        return done

    job = runner.write(
        "import",
        long_job,
        on_done=finished.append,
        on_progress=lambda done, total, text: progress.append((done, total, text)),
    )
    qtbot.waitUntil(lambda: len(progress) > 3, timeout=2000)
    job.cancel()
    qtbot.waitUntil(runner.is_idle, timeout=2000)
    assert progress[0] == (1, 10_000, "file.txt")
    # The job saw the cancel and stopped early; what it did is still reported.
    assert len(finished) == 1 and finished[0] < 10_000


def test_a_job_cancelled_before_it_starts_still_runs_and_sees_the_cancel(qtbot, runner):
    gate = threading.Event()
    seen = []
    runner.write("blocker", lambda job: gate.wait(2))
    job = runner.write("import", lambda job: job.is_cancelled(), on_done=seen.append)
    job.cancel()
    gate.set()
    qtbot.waitUntil(runner.is_idle, timeout=2000)
    assert seen == [True]


def test_shutdown_finishes_queued_writes(qtbot):
    runner = TaskRunner()
    done = []
    gate = threading.Event()
    runner.write("slow", lambda job: gate.wait(1))
    runner.write("save note", lambda job: done.append("saved"))
    gate.set()
    runner.shutdown()
    assert done == ["saved"]

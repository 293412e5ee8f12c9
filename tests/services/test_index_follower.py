"""The search index's freshness: one owner (services/runtime/index_follower.py) that writers
tell what changed and readers ask how far behind the index is."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import Future

import pytest

from paperdesk.core.models import Status
from paperdesk.core.triage import Decision
from paperdesk.search.index import FullTextIndex
from paperdesk.services.runtime import index_follower, index_pool, indexing
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, importing, searching, triage
from paperdesk.services.use_cases.import_plan import plan_file
from tests.services.conftest import SEEDS

#: The seed library's 38 papers stand in for 100,000: a change of more is a bulk one.
BULK_PAPERS = 4


@pytest.fixture(autouse=True)
def small_bulk(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_follower, "BULK_PAPERS", BULK_PAPERS)


def _bulk(desk: Desk) -> list[int]:
    ids = desk._library.papers.sorted_ids("added")[:30]
    editing.set_status(desk, ids, Status.READ)
    return ids


def _read(desk: Desk) -> set[int]:
    return set(searching.find_ids(desk, "status:read").ids)


def test_a_bulk_change_leaves_the_index_behind_until_it_catches_up(desk: Desk) -> None:
    ids = _bulk(desk)
    generation = desk._library.generation()
    assert desk.papers_behind() == len(ids)
    assert searching.find_ids(desk, "learning").index_behind == len(ids)
    assert _read(desk) == set()  # not searchable yet, and the search says so
    assert desk._index.why_stale(generation) is not None  # the stamp stays old meanwhile

    assert desk.catch_up_deferred(10) == len(ids) - 10
    assert desk._index.why_stale(generation) is not None  # still papers to go
    assert desk.catch_up_deferred() == 0

    assert searching.find_ids(desk, "learning").index_behind == 0
    assert _read(desk) == set(ids)
    assert desk._index.why_stale(generation) is None  # caught up: current again


def test_a_small_change_is_searchable_at_once(desk: Desk) -> None:
    paper = desk._library.papers.sorted_ids("added")[0]
    editing.set_status(desk, [paper], Status.READ)
    assert desk.papers_behind() == 0
    assert _read(desk) == {paper}
    assert desk._index.why_stale(desk._library.generation()) is None


def test_a_catch_up_cut_short_is_finished_by_the_next_open(desk: Desk) -> None:
    ids = _bulk(desk)
    desk.catch_up_deferred(10)
    desk.close(catch_up=False)  # as if the program were killed mid-way
    with Desk.open(desk.folder) as again:
        assert again.papers_behind() == 0
        assert _read(again) == set(ids)
        assert again._index.why_stale(again._library.generation()) is None


def test_an_import_stopped_before_its_indexing_resumes_with_just_its_papers(
    empty_desk: Desk,
) -> None:
    """The import's own transaction notes its papers as waiting (no second one)."""
    first, _ = importing.commit(empty_desk, plan_file(empty_desk, SEEDS[0]))
    report, _changes = importing.commit(empty_desk, plan_file(empty_desk, SEEDS[1]), index=False)
    pending = empty_desk._library.imports.pending_indexing()
    assert pending is not None and pending.generation == empty_desk._library.generation()
    assert set(pending.paper_ids) == set(report.added_ids)
    empty_desk.close(catch_up=False)  # killed between the commit and the indexing

    peek = Desk.open(empty_desk.folder, ensure_index=False)
    assert peek.papers_behind() == len(report.added_ids)  # just the import's papers
    peek.close(catch_up=False)
    with Desk.open(empty_desk.folder) as again:
        assert again.papers_behind() == 0
        assert again._index.doc_count() == len(first.added_ids) + len(report.added_ids)
        assert again._index.why_stale(again._library.generation()) is None


def test_a_reader_thread_counts_while_the_writer_changes_and_catches_up(desk: Desk) -> None:
    ids = desk._library.papers.sorted_ids("added")[: 6 * (BULK_PAPERS + 1)]
    chunks = [ids[k : k + BULK_PAPERS + 1] for k in range(0, len(ids), BULK_PAPERS + 1)]
    seen: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def count() -> None:
        try:
            while not done.is_set():
                seen.append(desk._follower.behind())
        except BaseException as error:  # noqa: BLE001 - reported by the assert below
            errors.append(error)

    reader = threading.Thread(target=count)
    reader.start()
    try:
        for chunk in chunks:
            editing.set_status(desk, chunk, Status.READ)
            desk.catch_up_deferred(2)
        while desk.catch_up_deferred(2):
            pass
    finally:
        done.set()
        reader.join()
    assert not errors
    assert max(seen) > 0 and all(0 <= n <= len(ids) for n in seen)
    assert desk._follower.behind() == 0
    assert _read(desk) == set(ids)


@pytest.fixture
def apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of more than 2 papers are re-indexed in the catch-up process."""
    monkeypatch.setattr(index_follower, "APART_PAPERS", 2)


def test_the_catch_up_runs_in_a_worker_process(desk: Desk, apart: None) -> None:
    ids = _bulk(desk)
    assert desk.catch_up_deferred(10) == len(ids) - 10
    worker = desk._follower._worker
    assert worker is not None and worker.pid != os.getpid() and not worker.dead
    assert desk.catch_up_deferred() == 0
    assert _read(desk) == set(ids)  # this process's searches see the worker's commits
    assert desk._index.why_stale(desk._library.generation()) is None
    assert desk._follower.close() == 0


@pytest.mark.logs_warnings
def test_a_chunk_whose_catch_up_process_was_killed_is_indexed_all_the_same(
    desk: Desk, apart: None, caplog: pytest.LogCaptureFixture
) -> None:
    ids = _bulk(desk)
    desk.catch_up_deferred(10)
    worker = desk._follower._worker
    assert worker is not None and worker.pid is not None
    os.kill(worker.pid, signal.SIGKILL)
    worker.process.join(30)
    assert desk.catch_up_deferred(10) == len(ids) - 20
    assert "killed by SIGKILL" in caplog.text
    assert desk.catch_up_deferred() == 0
    assert _read(desk) == set(ids)


@pytest.fixture
def large(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed library's 38 papers stand in for a library a window keeps apart."""
    monkeypatch.setattr(index_follower, "APART_LIBRARY_PAPERS", 10)


def _not_here(*_args: object, **_kwargs: object) -> None:
    raise AssertionError("re-indexed in this process")


def test_a_window_s_single_paper_changes_are_indexed_apart_and_searchable_at_once(
    desk: Desk, large: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 25: the writer thread re-indexed each rated, tagged or decided paper in the
    window's process, and the GUI thread waited for the GIL meanwhile."""
    desk._follower.keep_apart()
    worker = desk._follower._worker
    assert worker is not None and worker.pid != os.getpid()  # started before any change
    assert desk._follower._ready is not None
    desk._follower._ready.result(60)  # started: a change no longer goes here meanwhile
    monkeypatch.setattr(indexing, "sync_changes", _not_here)
    first, second = desk._library.papers.sorted_ids("added")[:2]

    editing.set_status(desk, [first], Status.READ)
    assert _read(desk) == {first}
    assert desk._index.why_stale(desk._library.generation()) is None

    # A triage decision: its paper follows by the window's catch-up, one paper a job.
    triage.decide(desk, second, Decision.KEEP, "kept", index_later=True)
    assert desk.papers_behind() == 1
    assert desk.catch_up_deferred(1) == 0
    assert searching.find_ids(desk, 'in:"kept"').ids == [second]
    assert desk._index.why_stale(desk._library.generation()) is None
    assert desk._follower._worker is worker


@pytest.mark.logs_warnings
def test_a_window_s_change_is_indexed_all_the_same_when_the_process_was_killed(
    desk: Desk, large: None, caplog: pytest.LogCaptureFixture
) -> None:
    desk._follower.keep_apart()
    worker = desk._follower._worker
    assert worker is not None and worker.pid is not None
    os.kill(worker.pid, signal.SIGKILL)
    worker.process.join(30)
    first, second = desk._library.papers.sorted_ids("added")[:2]
    editing.set_status(desk, [first], Status.READ)
    editing.set_status(desk, [second], Status.READ)
    assert _read(desk) == {first, second}
    assert "killed by SIGKILL" in caplog.text
    replaced = desk._follower._worker
    assert replaced is not None and replaced.pid not in (worker.pid, os.getpid())


def test_a_change_made_while_the_process_starts_is_indexed_here_without_waiting(
    desk: Desk, large: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its start takes a second or two: the first rating after the window opened waited
    that long (1.65 s at 100,000 papers)."""
    desk._follower.keep_apart()
    worker = desk._follower._worker
    assert worker is not None
    monkeypatch.setattr(desk._follower, "_ready", Future())  # not answered yet
    monkeypatch.setattr(worker, "call", _not_here)
    paper = desk._library.papers.sorted_ids("added")[0]
    editing.set_status(desk, [paper], Status.READ)
    assert _read(desk) == {paper}
    assert desk._follower._worker is worker


def test_a_library_opened_for_a_window_starts_the_process_once_maintained(
    desk: Desk, large: None
) -> None:
    folder = desk.folder
    desk.close()
    with Desk.open(folder) as plain:
        assert plain._follower._worker is None  # a command keeps its updates here
    with Desk.open(folder, index_apart=True, maintain=False) as window_s:
        assert window_s._follower._worker is None
        window_s.maintain()
        assert window_s._follower._worker is not None


def test_a_small_library_keeps_a_window_s_updates_in_its_process(desk: Desk) -> None:
    """A paper's update costs the same here at any size (14-17 ms of CPU), but a small
    library is not worth a process's start and memory."""
    desk._follower.keep_apart()
    paper = desk._library.papers.sorted_ids("added")[0]
    editing.set_status(desk, [paper], Status.READ)
    assert _read(desk) == {paper}
    assert desk._follower._worker is None


def test_a_window_s_import_of_more_than_a_few_papers_is_indexed_by_a_worker(
    empty_desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below the pool's 4,000 papers an import was indexed in the window's process, at
    2-3 ms of CPU a paper, the GUI thread waiting for the GIL."""
    monkeypatch.setattr(index_pool, "APART_THRESHOLD", 5)  # a seed file stands for more
    empty_desk._follower.keep_apart()  # a small library: its single updates stay here
    monkeypatch.setattr(FullTextIndex, "add", _not_here)
    report, _changes = importing.commit(empty_desk, plan_file(empty_desk, SEEDS[0]))
    assert len(report.added_ids) > 5
    assert empty_desk._index.doc_count() == len(report.added_ids)
    assert empty_desk._index.why_stale(empty_desk._library.generation()) is None
    assert empty_desk._follower._worker is None

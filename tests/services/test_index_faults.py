"""The search index under faults (issue 26, items 1 and 5): what killed writers left is
removed at open, a failed rebuild keeps the index that worked, and every index problem
is one message with a way out."""

from __future__ import annotations

import errno
import shutil

import pytest
from filelock import FileLock

from paperdesk.core.errors import IndexUnusableError, StorageError
from paperdesk.search import segments
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import maintenance, searching


def test_leftovers_of_killed_index_writers_are_removed_at_open(desk: Desk) -> None:
    live = desk._index.live_folder()
    assert live is not None
    folder = desk.folder
    desk.close()
    # What kills during an import's indexing and during a rebuild leave behind.
    (live / "papers-4242-0123456789ab.tmp").mkdir()
    (live / "papers-4243-ba9876543210.tmp" / "run").mkdir(parents=True)
    half_built = live.parent / "gen-1"
    half_built.mkdir()
    (half_built / "papers_x.seg").write_bytes(b"half")

    with Desk.open(folder) as reopened:
        assert sorted(p.name for p in live.iterdir() if p.suffix == ".tmp") == []
        assert not half_built.exists()
        assert reopened._index.live_folder() == live  # the live generation stays
        assert searching.find_ids(reopened, "graph").ids


def test_leftovers_are_left_alone_while_another_program_writes(desk: Desk) -> None:
    live = desk._index.live_folder()
    assert live is not None
    folder, lock_path = desk.folder, desk.lock.path
    desk.close()
    running = live / "papers-4242-0123456789ab.tmp"  # another program's writer at work
    running.mkdir()
    other_program = FileLock(lock_path)  # a lock of its own: as another process holds it
    with other_program:
        Desk.open(folder).close()
        assert running.exists()
    Desk.open(folder).close()
    assert not running.exists()


def test_a_disk_filling_during_a_rebuild_keeps_the_index_that_worked(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check before a rebuild judged the room; the disk filled meanwhile."""
    live = desk._index.live_folder()

    def full_disk(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(segments, "write_segment", full_disk)
    with pytest.raises(StorageError, match="not enough space to rebuild the search index"):
        maintenance.reindex(desk)
    assert desk._index.live_folder() == live
    assert sorted(p.name for p in desk._index.folder.iterdir()) == ["current", live.name]
    assert desk._index.why_stale(desk._library.generation()) is None
    assert searching.find_ids(desk, "graph").ids


@pytest.mark.logs_warnings
def test_a_failed_rebuild_at_open_deletes_nothing(
    desk: Desk, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 26: the next open deleted the intact old index when it could not rebuild."""
    folder, live = desk.folder, desk._index.live_folder()
    desk.close()
    (folder / "index" / "rebuilding").write_text("")  # a rebuild was killed

    def full_disk(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(segments, "write_segment", full_disk)
    with Desk.open(folder) as reopened:
        assert reopened._index.live_folder() == live
        assert searching.find_ids(reopened, "graph").ids
    assert "the search index could not be rebuilt: not enough space" in caplog.text


def test_a_missing_index_is_one_message_with_the_repair(desk: Desk) -> None:
    shutil.rmtree(desk._index.folder)
    desk._index.close()
    with pytest.raises(IndexUnusableError) as error:
        searching.find_ids(desk, "graph")
    folder = desk._index.folder
    assert str(error.value) == (
        f"the search index in {folder} is missing: run `paperdesk reindex` to rebuild it"
    )

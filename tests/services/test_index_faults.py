"""The search index under faults (issue 26, items 1 and 5): what killed writers left is
removed at open, a failed rebuild keeps the index that worked, and every index problem
is one message with a way out."""

from __future__ import annotations

from filelock import FileLock

from paperdesk.services import searching
from paperdesk.services.desk import Desk


def test_leftovers_of_killed_index_writers_are_removed_at_open(desk: Desk) -> None:
    live = desk.index.live_folder()
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
        assert reopened.index.live_folder() == live  # the live generation stays
        assert searching.find_ids(reopened, "graph").ids


def test_leftovers_are_left_alone_while_another_program_writes(desk: Desk) -> None:
    live = desk.index.live_folder()
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

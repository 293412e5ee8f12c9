"""One writer per library, an index that may lag a committed change, rolling backups."""

from __future__ import annotations

import errno
import logging
import shutil
import threading
import time
from pathlib import Path

import pytest

from paperdesk.core.scope import Scope
from paperdesk.search.index import FullTextIndex
from paperdesk.services.runtime import rolling_backups
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.write_lock import lock_for
from paperdesk.services.use_cases import (
    database_backups,
    importing,
    maintenance,
    reading,
    searching,
    tagging,
)
from tests.services.conftest import SEEDS


@pytest.mark.logs_warnings
def test_a_full_disk_under_the_index_never_fails_a_committed_change(desk, monkeypatch, caplog):
    def disk_full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    with monkeypatch.context() as patched:
        patched.setattr(FullTextIndex, "update", disk_full)
        with caplog.at_level(logging.WARNING):
            changes = tagging.add_tags(desk, [3], ["saved-anyway"])
    assert changes.paper_ids == {3} and "saved-anyway" in reading.paper(desk, 3).tags
    assert "the search index could not follow this change" in caplog.text
    assert maintenance.check(desk)  # the index lags behind, and says so...
    tagging.add_tags(desk, [4], ["next"])  # ...until the next change brings it up to date
    assert maintenance.check(desk) == []
    assert searching.listing(desk, Scope(), "tag:saved-anyway").ids == [3]


def test_a_change_waits_for_another_programs_and_says_so(desk):
    held, said = threading.Event(), threading.Event()
    released: list[float] = []

    def another_program() -> None:
        with lock_for(desk.folder).hold():
            held.set()
            said.wait(60)  # holds the lock until the waiting change has said so
            released.append(time.monotonic())

    told: list[str] = []

    def on_wait(message: str) -> None:
        told.append(message)
        said.set()

    desk.on_wait = on_wait
    other = threading.Thread(target=another_program)
    other.start()
    assert held.wait(60)
    tagging.add_tags(desk, [1], ["after-the-wait"])
    done = time.monotonic()
    other.join()
    assert released and released[0] <= done  # the change went ahead only once released
    assert told == [
        f"waiting for another paperdesk to finish changing the library ({desk.folder.resolve()})..."
    ]
    assert "after-the-wait" in reading.paper(desk, 1).tags


def without_backups(folder: Path) -> None:
    """The seeded template's own import backup (taken before its second seed file) is
    from today: left in, it would stand for the daily backup and, within a minute, be
    shared by the next import, so what a test sees would hang on the clock."""
    shutil.rmtree(folder / "backups", ignore_errors=True)


def test_an_import_into_a_library_with_papers_backs_it_up_first(desk, tmp_path):
    without_backups(desk.folder)
    extra = tmp_path / "extra.jsonl"
    extra.write_text('{"title": "One more paper", "abstract": "Backed up before."}\n')
    importing.import_files(desk, [extra])
    backups = [p.name for p in (desk.folder / "backups").glob("*-import.sqlite3")]
    assert len(backups) == 1


def test_the_first_open_of_the_day_backs_up_once_and_n_are_kept(seeded_template, tmp_path):
    folder = tmp_path / "library"
    shutil.copytree(seeded_template, folder)
    without_backups(folder)
    with Desk.open(folder) as desk:
        daily = list((desk.folder / "backups").glob("*-daily.sqlite3"))
        assert len(daily) == 1  # this open's
        Desk.open(desk.folder).close()
        assert list((desk.folder / "backups").glob("*-daily.sqlite3")) == daily
        for _ in range(4):
            rolling_backups.take(desk._library, desk.folder, "import")
        assert len(list((desk.folder / "backups").glob("*.sqlite3"))) == 5
        database_backups.set_kept(desk, 2)
        assert rolling_backups.kept(desk._library) == 2
        assert len(list((desk.folder / "backups").glob("*.sqlite3"))) == 2
        with pytest.raises(Exception, match="keep at least one"):
            database_backups.set_kept(desk, 0)


def test_an_empty_library_is_not_backed_up(empty_desk: Desk, tmp_path: Path):
    importing.import_files(empty_desk, SEEDS[:1])
    assert not (empty_desk.folder / "backups").exists()

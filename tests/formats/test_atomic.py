"""atomic_open: the target holds the old file or the whole new one, never a half."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from paperdesk.core.errors import PaperdeskError
from paperdesk.formats import atomic
from paperdesk.formats.atomic import WriteError, atomic_open


class Cancelled(Exception):
    """Stands in for the services' cancel exception."""


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_success_replaces_the_file(tmp_path):
    target = tmp_path / "out.bib"
    target.write_text("old")
    with atomic_open(target) as stream:
        stream.write("new ü")
    assert target.read_text(encoding="utf-8") == "new ü"
    assert leftovers(tmp_path) == []


def test_creates_a_new_file_with_the_umask_permissions(tmp_path):
    target = tmp_path / "out.csv"
    with atomic_open(target, newline="") as stream:
        stream.write("a\r\nb")
    assert target.read_bytes() == b"a\r\nb"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


def test_keeps_the_permissions_of_the_file_it_replaces(tmp_path):
    target = tmp_path / "out.bib"
    target.write_text("old")
    target.chmod(0o640)
    with atomic_open(target) as stream:
        stream.write("new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.parametrize("failure", [RuntimeError("writer bug"), KeyboardInterrupt(), Cancelled()])
def test_failure_mid_write_keeps_the_old_file_and_no_temporary(tmp_path, failure):
    target = tmp_path / "out.bib"
    target.write_text("old")
    with pytest.raises(type(failure)):
        with atomic_open(target) as stream:
            stream.write("half of the new file" * 10_000)
            raise failure
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_failure_before_a_first_export_leaves_no_file(tmp_path):
    target = tmp_path / "out.bib"
    with pytest.raises(Cancelled):
        with atomic_open(target) as stream:
            stream.write("partial")
            raise Cancelled
    assert list(tmp_path.iterdir()) == []


def test_full_disk_is_a_write_error_naming_file_and_reason(tmp_path, monkeypatch):
    def full_disk(descriptor):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", full_disk)
    target = tmp_path / "out.bib"
    target.write_text("old")
    with pytest.raises(WriteError) as caught:
        with atomic_open(target) as stream:
            stream.write("new")
    assert str(caught.value) == f"cannot write {target}: No space left on device"
    assert isinstance(caught.value, PaperdeskError)
    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


def test_missing_folder_says_so(tmp_path):
    target = tmp_path / "no" / "such" / "out.bib"
    with pytest.raises(WriteError, match="folder .*no/such does not exist"):
        with atomic_open(target) as stream:
            stream.write("x")


def test_target_that_is_a_folder(tmp_path):
    target = tmp_path / "exports"
    target.mkdir()
    with pytest.raises(WriteError, match=f"cannot write {target}: Is a directory"):
        with atomic_open(target) as stream:
            stream.write("x")
    assert target.is_dir()
    assert leftovers(tmp_path) == []


def test_read_only_folder(tmp_path, monkeypatch):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    if os.geteuid() == 0:  # root writes into any folder: refuse it as the kernel refuses a user
        real_open = os.open

        def refused(path, flags, *args, **kwargs):
            if Path(path).parent == folder and flags & os.O_CREAT:
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real_open(path, flags, *args, **kwargs)

        monkeypatch.setattr(os, "open", refused)
    try:
        with pytest.raises(WriteError, match="Permission denied"):
            with atomic_open(folder / "out.bib") as stream:
                stream.write("x")
    finally:
        folder.chmod(0o700)

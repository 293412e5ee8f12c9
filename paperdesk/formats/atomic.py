"""Write a file completely or not at all.

`atomic_open` hands out a stream on a temporary file beside the target; only when the
`with` block ends normally is the file flushed to disk and renamed over the target, so
readers see the old file or the whole new one, never a half. An exception inside the
block (a writer bug, KeyboardInterrupt, a cancelled export) or a failing disk removes
the temporary file and leaves the target as it was.

A process killed while writing cannot remove its temporary file (`.NAME.1a2b3c4d.tmp`,
possibly megabytes, beside wherever the user exported to). Given an `unfinished` folder
(the library's), `atomic_open` notes the temporary file there before creating it and
crosses it off when done; `remove_unfinished` deletes what a killed writer left behind,
when the library is next opened.
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from paperdesk.core.errors import PaperdeskError

log = logging.getLogger(__name__)


class WriteError(PaperdeskError):
    """A file that could not be written; the message names the file and the OS reason."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"cannot write {path}: {reason}")


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


_TEMPORARY_NAME = re.compile(r"\..+\.[0-9a-f]{8}\.tmp")
_NOTE_SUFFIX = ".unfinished"


@contextmanager
def atomic_open(
    path: str | os.PathLike[str],
    encoding: str = "utf-8",
    newline: str | None = None,
    unfinished: Path | None = None,
) -> Iterator[TextIO]:
    """A text stream whose content replaces `path` when the block succeeds.

    `encoding` and `newline` mean what they mean for `open` (the csv module wants
    `newline=""`). `unfinished` is a folder where the temporary file is noted while it
    exists (see `remove_unfinished`). OSErrors (no such folder, permission denied, disk
    full, the target is a folder) become WriteError; every other exception passes
    through unchanged.
    """
    target = Path(path)
    token = secrets.token_hex(4)
    temporary = target.with_name(f".{target.name}.{token}.tmp")
    note = _note(unfinished, token, temporary)
    try:
        # 0o666 lets the umask decide the permissions, as for any file the user saves.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
        _cross_off(note)
        if not target.parent.is_dir():
            raise WriteError(target, f"the folder {target.parent} does not exist") from error
        raise WriteError(target, _reason(error)) from error
    try:
        with open(descriptor, "w", encoding=encoding, newline=newline) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        if target.is_file():
            shutil.copymode(target, temporary)
        os.replace(temporary, target)
    except BaseException as error:
        temporary.unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise WriteError(target, _reason(error)) from error
        raise
    finally:
        _cross_off(note)
    _sync_folder(target.parent)


def _note(folder: Path | None, token: str, temporary: Path) -> Path | None:
    """Write down `temporary` in `folder` before it exists; None without a folder."""
    if folder is None:
        return None
    note = folder / f"{token}{_NOTE_SUFFIX}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        note.write_text(
            os.fsdecode(temporary.absolute()), encoding="utf-8", errors="surrogateescape"
        )
    except OSError as error:  # a read-only library must not stop an export elsewhere
        log.warning("cannot note the temporary file %s: %s", temporary, _reason(error))
        return None
    return note


def _cross_off(note: Path | None) -> None:
    if note is not None:
        note.unlink(missing_ok=True)


def remove_unfinished(folder: Path) -> int:
    """Delete the temporary files noted in `folder` that a killed writer left; how many.

    Only a file named as atomic_open names its temporary files is ever deleted.
    """
    if not folder.is_dir():
        return 0
    removed = 0
    for note in folder.glob(f"*{_NOTE_SUFFIX}"):
        try:
            temporary = Path(note.read_text(encoding="utf-8", errors="surrogateescape"))
            if _TEMPORARY_NAME.fullmatch(temporary.name) and temporary.is_file():
                temporary.unlink()
                removed += 1
                log.info("removed %s, left by an export that did not finish", temporary)
            note.unlink()
        except OSError as error:
            log.warning("cannot clean up after an unfinished export (%s): %s", note, error)
    return removed


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable; not every platform can open a folder for this."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError as error:
        log.debug("could not sync folder %s: %s", folder, error)
    finally:
        os.close(descriptor)

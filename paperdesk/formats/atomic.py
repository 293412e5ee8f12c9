"""Write a file completely or not at all.

`atomic_open` hands out a stream on a temporary file beside the target; only when the
`with` block ends normally is the file flushed to disk and renamed over the target, so
readers see the old file or the whole new one, never a half. An exception inside the
block (a writer bug, KeyboardInterrupt, a cancelled export) or a failing disk removes
the temporary file and leaves the target as it was.
"""

from __future__ import annotations

import logging
import os
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


@contextmanager
def atomic_open(
    path: str | os.PathLike[str], encoding: str = "utf-8", newline: str | None = None
) -> Iterator[TextIO]:
    """A text stream whose content replaces `path` when the block succeeds.

    `encoding` and `newline` mean what they mean for `open` (the csv module wants
    `newline=""`). OSErrors (no such folder, permission denied, disk full, the target
    is a folder) become WriteError; every other exception passes through unchanged.
    """
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{secrets.token_hex(4)}.tmp")
    try:
        # 0o666 lets the umask decide the permissions, as for any file the user saves.
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except OSError as error:
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
    _sync_folder(target.parent)


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

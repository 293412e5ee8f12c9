"""Where an export may write, and how: never over something the user did not mean.

Without being told, an export writes only a new file outside the library folder.
`overwrite` (the CLI's `--force`; the GUI's file dialog asks the usual question first)
lets it replace an existing file. `force` (the CLI's `--force`) also lets it write
through a symbolic link (the file it points to is replaced, not the link) and into a
device or pipe (`-o /dev/stdout`), which is written as a stream since it cannot be
replaced. Nothing is ever written inside the library folder, `--force` or not: its
database, index, backups and the lock other programs hold (`library.lock`) are the
library's own, and an export over one of them would break the library it comes from.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from paperdesk.config import DB_FILE, INDEX_DIR, UNFINISHED_DIR
from paperdesk.core.errors import InvalidValueError
from paperdesk.formats.atomic import WriteError, atomic_open


@dataclass(frozen=True)
class Target:
    """A checked destination: the file to write, and whether it is a stream (a device)."""

    path: Path
    is_stream: bool = False


def check_target(path: Path, library: Path, overwrite: bool, force: bool) -> Target:
    """The destination for `path`, or InvalidValueError saying why not and what to do."""
    path = Path(os.path.abspath(path))
    shown = str(path)
    if path.is_symlink():
        if not force:
            raise InvalidValueError(
                f"{shown} is a link to {os.path.realpath(path)}; give --force to replace "
                "the file it points to, or choose another file"
            )
        path = Path(os.path.realpath(path))
    _refuse_the_library_folder(path, library)
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return Target(path)
    except OSError as error:
        raise WriteError(path, error.strerror or str(error)) from error
    if stat.S_ISDIR(mode):
        raise InvalidValueError(f"{shown} is a folder; give the name of a file to write")
    if not stat.S_ISREG(mode):
        if not force:
            raise InvalidValueError(
                f"{shown} is a device or a pipe, not a file; give --force to write into it"
            )
        return Target(path, is_stream=True)
    if not (overwrite or force):
        raise InvalidValueError(f"{shown} already exists; give --force to replace it")
    return Target(path)


def _refuse_the_library_folder(path: Path, library: Path) -> None:
    library = Path(os.path.realpath(library))
    folder = Path(os.path.realpath(path.parent))
    if folder != library and library not in folder.parents:
        return
    inside = Path(os.path.relpath(folder / path.name, library))
    if inside.parts[0] in (DB_FILE, INDEX_DIR) or inside.name.startswith(DB_FILE):
        what = "index" if inside.parts[0] == INDEX_DIR else "database"
        raise InvalidValueError(
            f"{path} is the library's own {what}; an export there would destroy the "
            "library: choose another file"
        )
    raise InvalidValueError(
        f"{path} is inside the library folder {library}, which holds the library's own "
        "files (even with --force): choose a file elsewhere"
    )


@contextmanager
def open_target(target: Target, library: Path, newline: str | None = None) -> Iterator[TextIO]:
    """A stream on the target: a whole-or-nothing file, or the device itself."""
    if not target.is_stream:
        unfinished = library / UNFINISHED_DIR
        with atomic_open(target.path, newline=newline, unfinished=unfinished) as stream:
            yield stream
        return
    try:
        with open(target.path, "w", encoding="utf-8", newline=newline) as stream:
            yield stream
    except OSError as error:
        raise WriteError(target.path, error.strerror or str(error)) from error

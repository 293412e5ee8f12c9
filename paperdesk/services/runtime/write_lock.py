"""One writer at a time per library, across every program that has it open.

SQLite serialises the database's own writes, but a user action is more than one
transaction: it reads, writes, then updates the search index, and an import plans
against what is stored before it writes. So every action holds the library's write
lock (a file lock beside the database, released by the system if the program dies)
from its first read to its last index write. Reads never take it.

A program that must wait says so after a second (`on_wait`), then waits as long as it
takes: an import in another window finishes, a tag command runs right after it. The
lock is re-entrant within a thread, so one action may call another.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock, Timeout

#: How long a writer waits silently before saying what it waits for.
QUIET_WAIT_S = 1.0

#: Beside the database; its content does not matter, only who holds it.
LOCK_FILE = "library.lock"

Notice = Callable[[str], None]
_locks: dict[Path, WriteLock] = {}
_registry_lock = threading.Lock()


def lock_for(folder: Path) -> WriteLock:
    """The one WriteLock of this program for a library folder.

    One object per folder, so two Desks on one library in one program (a restore
    re-opening it, a test) share it: a second flock on a new descriptor of the same
    file would wait for the first forever.
    """
    key = folder.resolve()
    with _registry_lock:
        if key not in _locks:
            _locks[key] = WriteLock(key / LOCK_FILE)
        return _locks[key]


class WriteLock:
    def __init__(self, path: Path) -> None:
        self.path = path
        # thread_local: each thread holds (and counts) the lock for itself, so a GUI's
        # writer thread and any other thread exclude each other like two programs do.
        self._lock = FileLock(path, thread_local=True)
        self._depth = threading.local()

    @property
    def depth(self) -> int:
        """How many times the calling thread holds the lock (0: not at all)."""
        return int(getattr(self._depth, "value", 0))

    @contextmanager
    def hold(self, on_wait: Notice | None = None) -> Iterator[None]:
        """Hold the lock for the block, waiting for another program's write if need be."""
        if self.depth == 0:
            self._acquire(on_wait)
        self._depth.value = self.depth + 1
        try:
            yield
        finally:
            self._depth.value = self.depth - 1
            if self.depth == 0:
                self._lock.release()

    @contextmanager
    def hold_if_free(self) -> Iterator[bool]:
        """Hold the lock for the block if no other program holds it (True), else go on
        at once without it (False): for upkeep that can wait for another open."""
        if self.depth == 0:
            try:
                self._lock.acquire(timeout=0)
            except Timeout:
                yield False
                return
        self._depth.value = self.depth + 1
        try:
            yield True
        finally:
            self._depth.value = self.depth - 1
            if self.depth == 0:
                self._lock.release()

    def _acquire(self, on_wait: Notice | None) -> None:
        try:
            self._lock.acquire(timeout=QUIET_WAIT_S)
        except Timeout:
            if on_wait is not None:
                on_wait(
                    f"waiting for another paperdesk to finish changing the library "
                    f"({self.path.parent})..."
                )
            self._lock.acquire()

"""Planning a large import in a worker process of its own.

Planning (services/use_cases/import_plan.py: reading the file, matching each entry against the
library) is Python-bound. On a thread of the window's process it held the GIL for
seconds at a time at 100,000 papers, and the window froze between paints. A file of
`MIN_FILE_BYTES` or more, or any file going into a library of `MIN_LIBRARY_PAPERS`
or more, is planned in a spawned process (never forked: a fork of the GUI process
would copy Qt's threads and locks mid-flight), which opens the database file
read-only, as the index workers do (services/runtime/index_pool.py).

The plan comes back through a temporary file: the new papers as the spool writes
them (services/use_cases/import_spool.py), then the rest of the plan pickled, then where that
starts. The caller opens the file, removes its name at once (the open file stays
readable until the plan is dropped), and removes it also when anything fails. The
process is started and spoken to by the one helper of every worker process
(services/runtime/worker_process.py), as a crew of one: progress comes unasked, "stop"
cancels, an error is raised here as the worker raised it. A worker that dies (killed,
out of memory) leaves a one-line error in the file's report and the library as it was:
planning writes nothing.
"""

from __future__ import annotations

import os
import pickle
import struct
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from paperdesk.formats.registry import printable_path
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.runtime.worker_process import (
    StopAsked,
    WorkerCrew,
    WorkerDied,
    how_it_ended,
    serve,
)
from paperdesk.services.use_cases import import_plan
from paperdesk.services.use_cases.import_plan import FilePlan, Progress
from paperdesk.services.use_cases.import_report import FileReport
from paperdesk.services.use_cases.import_spool import NewPaperSpool
from paperdesk.store.library import Library

#: A file this large, or a library this large, is planned in a process of its own;
#: below both, starting one (about a second of imports) costs more than it saves.
MIN_FILE_BYTES = 1 << 20
MIN_LIBRARY_PAPERS = 4_000

#: How long a cancelled worker may take to stop before it is terminated.
STOP_GRACE_S = 1.0
_PROGRESS_INTERVAL_S = 0.05
_FOOTER = struct.Struct("<Q")  # where the pickled plan starts, at the file's end


def plan_file(
    desk: Desk,
    path: Path,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FilePlan:
    """`import_plan.plan_file`, in a worker process when the file or the library is
    large (`runs_apart`), else on this thread."""
    database = desk._library.file
    if database is None or not runs_apart(desk._library, path):
        return import_plan.plan_file(desk, path, progress, cancelled)
    return plan_apart(database, path, progress, cancelled)


def runs_apart(library: Library, path: Path) -> bool:
    """Whether planning `path` into `library` is worth a process of its own."""
    try:
        size = Path(path).stat().st_size
    except OSError:
        return False  # planning on this thread reports the missing file
    return size >= MIN_FILE_BYTES or library.papers.count() >= MIN_LIBRARY_PAPERS


def plan_apart(
    database: Path,
    path: Path,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> FilePlan:
    """Plan `path` against the library in the SQLite file `database`, in a spawned
    process (services/runtime/worker_process.py). Cancelled when `cancelled()` turns true; a
    worker's error is raised here; a worker that died leaves the error in the plan's
    report."""
    handle, name = tempfile.mkstemp(prefix="paperdesk-plan-", suffix=".tmp")
    os.close(handle)
    plan_path = Path(name)

    def reported(message: tuple[Any, ...]) -> None:
        if progress is not None:
            progress(*message[1:])

    crew = WorkerCrew(_serve, (str(database), str(path), name, os.getpid()), 1, "paperdesk-plan")
    try:
        try:
            crew.run("plan", [()], reported, cancelled, STOP_GRACE_S)
        except WorkerDied:
            worker = crew.workers[0]
            worker.process.join()
            return _died(path, worker.exit_code)
        return _read_plan(plan_path)
    finally:
        crew.close()
        plan_path.unlink(missing_ok=True)


def _died(path: Path, exit_code: int | None) -> FilePlan:
    report = FileReport(file=printable_path(path))
    report.error = (
        f"the process reading it stopped ({how_it_ended(exit_code)}); "
        "nothing from this file was imported"
    )
    return FilePlan(path, report)


def _read_plan(plan_path: Path) -> FilePlan:
    file = plan_path.open("rb")
    try:
        plan_path.unlink()  # the open file stays readable until the plan is dropped
        size = file.seek(0, os.SEEK_END)
        file.seek(size - _FOOTER.size)
        (start,) = _FOOTER.unpack(file.read(_FOOTER.size))
        file.seek(start)
        plan, spooled = pickle.loads(file.read(size - _FOOTER.size - start))
    except BaseException:
        file.close()
        raise
    assert isinstance(plan, FilePlan)
    plan.new_papers = NewPaperSpool.adopted(file, *spooled)
    return plan


# --- in the worker ------------------------------------------------------------------


def _serve(conn: Connection, database: str, path: str, plan_path: str, parent: int) -> None:
    serve(conn, _Planner(conn, database, path, plan_path, parent))
    # Asked to close: the plan is written and the library closed. The interpreter's own
    # teardown took over 10 s on a loaded machine, for nothing this process keeps.
    os._exit(0)


class _Planner:
    def __init__(
        self, conn: Connection, database: str, path: str, plan_path: str, parent: int
    ) -> None:
        self._conn = conn
        self._database = database
        self._path = path
        self._plan_path = plan_path
        self._parent = parent
        self._stop_asked = StopAsked(conn)

    def do_plan(self) -> None:
        """Plan the file and write the plan to `plan_path`."""
        last = 0.0

        def report(done: int, total: int, text: str) -> None:
            nonlocal last
            now = time.monotonic()
            if done <= 1 or done >= total or now - last >= _PROGRESS_INTERVAL_S:
                last = now
                self._conn.send(("progress", done, total, text))

        self._plan(report)

    def _cancelled(self) -> bool:
        # A parent that died (its window closed hard) leaves this process to itself.
        return self._stop_asked() or os.getppid() != self._parent

    def _plan(self, report: Progress) -> None:
        database = self._database
        library = Library.open(f"sqlite:///{database}", Path(database), read_only=True)
        try:
            with open(self._plan_path, "r+b") as file:
                spool = NewPaperSpool(file=file)
                plan = import_plan.plan_for_library(
                    library, Path(self._path), report, self._cancelled, new_papers=spool
                )
                spooled = spool.finish()
                plan.new_papers = NewPaperSpool()
                start = file.seek(0, os.SEEK_END)
                file.write(pickle.dumps((plan, spooled), pickle.HIGHEST_PROTOCOL))
                file.write(_FOOTER.pack(start))
        finally:
            library.close()

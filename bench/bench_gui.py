"""Benchmark the desktop window on a large library (default: 100,000 papers).

Measures what a user waits for: opening the library to a painted table, scrolling to
the end, typing a search, selecting a paper, rating it (the round trip through the
writer thread and back), a status set on every paper and its undo (shown, searchable
again, the longest GUI-thread block meanwhile), peak memory, and with --cancel-import
how fast Cancel stops an import of the corpus, and with --import FILE the longest
GUI-thread block while FILE is imported into the library (and with --into-empty into a
new one) while the table is scrolled, every block over 100 ms listed by the import's
phase (planning, storing, indexing), with --idle-s S the blocks of S idle seconds
before it for comparison (the machine's load), and with --cancel-after S Cancel pressed
S seconds into that import instead (how long until it stops, until its worker
processes are gone, and whether the library is as before). After each phase, the
process's memory: resident now and its peak so far (VmRSS, VmHWM). Prints figures; not
a test.

The library is built once by replicating ../shared/data/corpus.jsonl (as bench_core
does) and kept in bench/out/ for later runs. Usage:
    QT_QPA_PLATFORM=offscreen python bench/bench_gui.py [--papers 100000] [--library DIR]
        [--cancel-import] [--import FILE [--into-empty] [--idle-s S] [--cancel-after S]
        [--until-shown] [--until-indexing] [--scroll-ms MS]]
        [--skip-bulk]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_core import CORPUS, replicate_corpus  # noqa: E402  (bench/ is on sys.path)
from PySide6.QtCore import QElapsedTimer, QEvent, QObject, QSettings, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from paperdesk.gui.app import application  # noqa: E402
from paperdesk.gui.window.main_window import MainWindow  # noqa: E402
from paperdesk.services.runtime.desk import Desk  # noqa: E402
from paperdesk.services.use_cases import importing  # noqa: E402

OUT = Path(__file__).resolve().parent / "out"
QUERIES = ["graph neural", "bandit*", '"language models"', "year:2018"]


class PaintWatch(QObject):
    """Counts paint events of a widget, so 'painted' means Qt really drew it."""

    def __init__(self, widget) -> None:
        super().__init__()
        self.paints = 0
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


def wait_for(app: QApplication, condition: Callable[[], bool], timeout_s: float = 600) -> None:
    deadline = time.perf_counter() + timeout_s
    while not condition():
        if time.perf_counter() > deadline:
            raise TimeoutError("the window did not get there in time")
        app.processEvents()
        time.sleep(0.001)


def build_library(folder: Path, papers: int) -> None:
    if (folder / "library.sqlite3").exists():
        return
    if not CORPUS.exists():
        sys.exit("../shared/data/corpus.jsonl is absent: cannot build the large library")
    print(f"building a {papers:,}-paper library in {folder} (once)…", flush=True)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        source = replicate_corpus(Path(scratch) / f"corpus-{papers}.jsonl", papers)
        with Desk.open(folder) as desk:
            report = importing.import_files(desk, [source])
            print(f"  {report.summary()}")
    print(f"  built in {time.perf_counter() - started:.0f} s")


def figure(label: str, seconds: float) -> None:
    print(f"{label:<52} {seconds * 1000:9.1f} ms", flush=True)


def memory(phase: str) -> None:
    """The process's resident memory now and its peak so far (/proc/self/status)."""
    found: dict[str, int] = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in ("VmRSS", "VmHWM"):
                    found[name] = int(value.split()[0]) // 1024
    except OSError:  # not Linux
        return
    label = f"  memory after {phase}: resident / peak"
    print(f"{label:<52} {found.get('VmRSS', 0):5d} / {found.get('VmHWM', 0):5d} MB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--library", type=Path, default=None)
    parser.add_argument(
        "--cancel-import", action="store_true", help="also time Cancel during a corpus import"
    )
    parser.add_argument("--import", dest="import_file", type=Path, default=None)
    parser.add_argument("--into-empty", action="store_true", help="--import into a new library")
    parser.add_argument(
        "--idle-s", type=float, default=0.0, help="--import: watch the idle window first"
    )
    parser.add_argument(
        "--cancel-after", type=float, default=None, help="--import: press Cancel S s in"
    )
    parser.add_argument(
        "--until-shown", action="store_true", help="--import: stop once the papers are shown"
    )
    parser.add_argument(
        "--scroll-ms", type=int, default=100, help="--import: a Page Down this often (0: none)"
    )
    parser.add_argument(
        "--until-indexing",
        action="store_true",
        help="--import: time planning and storing, then end (no wait for indexing)",
    )
    parser.add_argument("--skip-bulk", action="store_true", help="no status set on all")
    parser.add_argument(
        "--catch-up-s", type=float, default=3600, help="watch a bulk edit's re-indexing this long"
    )
    args = parser.parse_args()
    built = args.library or OUT / f"library-{args.papers}"
    if args.import_file is not None:
        import_blocks(
            application(),
            None if args.into_empty else built,
            args.import_file,
            args.idle_s,
            args.cancel_after,
            args.until_shown,
            args.scroll_ms,
            args.until_indexing,
        )
        return
    build_library(built, args.papers)
    # The bench rates papers and sets every status: it works on a copy.
    copies = tempfile.TemporaryDirectory()
    folder = Path(copies.name) / "library"
    shutil.copytree(built, folder)

    app = application()
    with tempfile.TemporaryDirectory() as scratch:
        settings = QSettings(str(Path(scratch) / "bench.ini"), QSettings.Format.IniFormat)
        clock = QElapsedTimer()
        clock.start()
        cpu_start = time.process_time()
        window = MainWindow(folder, settings, offer_demo=False)
        window.resize(1400, 900)
        paints = PaintWatch(window.table.viewport())
        opened, listed = [], []
        window.desk_opened.connect(lambda: opened.append(clock.elapsed()))
        window.search_applied.connect(lambda: listed.append(clock.elapsed()))
        window.show()
        wait_for(app, lambda: bool(listed))
        painted_before = paints.paints
        wait_for(app, lambda: paints.paints > painted_before)
        total = window.model.rowCount()
        print(f"library: {total:,} papers in {folder}")
        figure("open: window shown -> library open", opened[0] / 1000)
        figure("open: window shown -> all ids listed", listed[0] / 1000)
        figure("open: window shown -> table painted with rows", clock.elapsed() / 1000)
        figure("  process CPU until then", time.process_time() - cpu_start)
        memory("painting the table")
        wait_for(app, window.upkeep.is_ready)
        figure("open: ... -> day's backup taken, index checked", clock.elapsed() / 1000)
        memory("opening")

        table = window.table
        start = time.perf_counter()
        table.scrollToBottom()
        table.viewport().repaint()
        figure("scroll: jump to the last row, painted", time.perf_counter() - start)
        steps = []
        scrollbar = table.verticalScrollBar()
        for step in range(200):
            start = time.perf_counter()
            scrollbar.setValue(scrollbar.maximum() * step // 199)
            table.viewport().repaint()
            steps.append(time.perf_counter() - start)
        figure("scroll: 200 jumps start -> end, mean per paint", statistics.mean(steps))
        figure("scroll: 200 jumps start -> end, slowest paint", max(steps))
        scrollbar.setValue(0)
        page_downs = 0
        start = time.perf_counter()
        while scrollbar.value() < scrollbar.maximum() and time.perf_counter() - start < 2:
            scrollbar.triggerAction(scrollbar.SliderAction.SliderPageStepAdd)
            table.viewport().repaint()
            page_downs += 1
        figure(
            "scroll: Page Down + paint, mean over 2 s", (time.perf_counter() - start) / page_downs
        )
        print(f"{'  store pages of rows fetched so far':<52} {window.model.pages_fetched:9d}")
        memory("scrolling")

        for query in QUERIES:
            listed.clear()
            start = time.perf_counter()
            window.search_bar.set_text(query)
            wait_for(app, lambda: bool(listed))
            figure(
                f"search {query!r} -> table updated ({window.model.rowCount():,})",
                time.perf_counter() - start,
            )
            memory("that search")
        listed.clear()
        window.search_bar.set_text("")
        wait_for(app, lambda: bool(listed))

        start = time.perf_counter()
        table.selectRow(total // 2)
        figure("select a paper -> detail pane filled", time.perf_counter() - start)
        applied: list[object] = []
        window.changes_applied.connect(applied.append)
        start = time.perf_counter()
        window.commands.set_rating(4)
        wait_for(app, lambda: bool(applied))
        figure("rate it -> written, indexed, panes refreshed", time.perf_counter() - start)
        memory("selecting and rating")
        if not args.skip_bulk:
            bulk_edits(app, window, applied, args.catch_up_s)
        window.close()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'peak memory (whole process, after the bulk edits)':<52} {peak:9.0f} MB")
    if args.cancel_import:
        cancel_an_import(app, built)
    copies.cleanup()


class BlockWatch(QObject):
    """The longest time the GUI thread did not get to run a 5 ms timer: how long the
    window stayed frozen (on a loaded machine, CPU starvation counts too).

    With `phase` (what the window is doing, asked at every tick), each block over
    `BLOCK_S` is kept with the phase it began in. `cpu_blocks` likewise keeps the GUI
    thread's own CPU time between two ticks when over `BLOCK_S`: the work it did itself,
    which a loaded machine's starvation does not lengthen."""

    BLOCK_S = 0.1

    def __init__(self, phase: Callable[[], str] | None = None, block_s: float = BLOCK_S) -> None:
        super().__init__()
        self.BLOCK_S = block_s
        self.timer = QTimer(self)
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._tick)
        self.longest = 0.0
        self._last = time.perf_counter()
        self._phase = phase
        self._last_phase = ""
        self.blocks: list[tuple[str, float, float]] = []  # phase, began (s in), length
        self.longest_cpu = 0.0
        self._last_cpu = time.thread_time()
        self.cpu_blocks: list[tuple[str, float, float]] = []  # phase, began, CPU seconds

    def start(self) -> None:
        self.longest, self._last = 0.0, time.perf_counter()
        self.longest_cpu, self._last_cpu = 0.0, time.thread_time()
        self._began = self._last
        self.blocks, self.cpu_blocks = [], []
        self._last_phase = self._phase() if self._phase else ""
        self.timer.start()

    def stop(self) -> float:
        self.timer.stop()
        return self.longest

    def phase_begins(self) -> None:
        """The work of a phase begun now, before the next tick, is counted as its own (not
        as the phase before it, which the last tick saw)."""
        if self._phase is not None:
            self._last_phase = self._phase()

    def _tick(self) -> None:
        now = time.perf_counter()
        block = now - self._last - 0.005
        self.longest = max(self.longest, block)
        if block > self.BLOCK_S:
            self.blocks.append((self._last_phase, self._last - self._began, block))
        cpu_now = time.thread_time()
        cpu = cpu_now - self._last_cpu
        self.longest_cpu = max(self.longest_cpu, cpu)
        if cpu > self.BLOCK_S:
            self.cpu_blocks.append((self._last_phase, self._last - self._began, cpu))
        self._last, self._last_cpu = now, cpu_now
        if self._phase is not None:
            self._last_phase = self._phase()

    def print_blocks(self, title: str) -> None:
        """The blocks over BLOCK_S, counted and listed by phase."""
        print(f"  GUI-thread blocks > {self.BLOCK_S * 1000:.0f} ms, {title}: {len(self.blocks)}")
        for phase in dict.fromkeys(phase for phase, _, _ in self.blocks):
            mine = [(at, length) for p, at, length in self.blocks if p == phase]
            # The ten longest, in time order.
            kept = sorted(sorted(mine, key=lambda block: -block[1])[:10])
            listed = ", ".join(f"{length * 1000:.0f} ms at {at:.1f} s" for at, length in kept)
            listed += ", …" if len(mine) > len(kept) else ""
            longest = max(length for _, length in mine) * 1000
            print(f"    {phase or '-'}: {len(mine)} (longest {longest:.0f} ms): {listed}")


#: The import's jobs (gui/window/transfers.py names them) -> the phase a bench reports.
PHASES = {"Reading": "planning", "Importing": "storing", "Indexing": "indexing"}


def import_phase(window: MainWindow) -> str:
    """What the window's import is doing now: planning, storing, indexing (or idle)."""
    job = window.transfers._long_job
    if job is None:
        return "idle" if window.transfers._import is None else "between jobs"
    return PHASES.get(job.name, job.name)


def children_cpu() -> tuple[float, float]:
    """CPU seconds (user + sys) and peak memory (MB) of the worker processes waited for."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def threads_cpu() -> dict[str, float]:
    """CPU seconds so far of each of this process's threads but the GUI thread
    (/proc/self/task): what holds the GIL the GUI thread waits for. A thread started by
    Python goes by its Python name; Qt's (the writer, the reader) by their system name,
    cut to 15 characters (a Python thread's system name is its starter's)."""
    python_names = {
        thread.native_id: thread.name
        for thread in threading.enumerate()
        if not isinstance(thread, threading._DummyThread)
    }
    found: dict[str, float] = {}
    ticks = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/self/task").glob("*"):
        if task.name == str(os.getpid()):
            continue  # the GUI thread
        try:
            name = (task / "comm").read_text(encoding="utf-8").strip()
            stat = (task / "stat").read_text(encoding="ascii")
        except OSError:  # ended meanwhile
            continue
        name = python_names.get(int(task.name), name).removeprefix("paperdesk-")
        user, system = stat.rsplit(")", 1)[1].split()[11:13]
        found[name] = found.get(name, 0.0) + (int(user) + int(system)) / ticks
    return found


def threads_cpu_since(before: dict[str, float]) -> str:
    """The other threads' CPU since `before`, the busiest first, as one line."""
    now = threads_cpu()
    spent = {name: now[name] - before.get(name, 0.0) for name in now}
    busy = sorted(((cpu, name) for name, cpu in spent.items() if cpu >= 0.005), reverse=True)
    return ", ".join(f"{name} {cpu * 1000:.0f}" for cpu, name in busy) or "none"


def process_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


#: How far into a bulk status's re-indexing its undo is pressed.
UNDO_AFTER_S = 5.0


def bulk_edits(
    app: QApplication, window: MainWindow, applied: list[object], catch_up_s: float
) -> None:
    """Ctrl+A, S on every paper, and its undo (issue 11): shown, then searchable. The
    undo is pressed `UNDO_AFTER_S` into the status's re-indexing (issue 25: it waited
    151.7 s behind it at 100,000 papers); the longest GUI block is given per phase."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    watch = BlockWatch()
    table = window.table
    table.setFocus()
    total = window.model.rowCount()
    for label, act, catch_up in (
        ("status set on all (Ctrl+A, S)", lambda: QTest.keyClick(table, Qt.Key.Key_S), False),
        ("its undo (Ctrl+Z) mid re-indexing", window.menus.undo_action.trigger, True),
    ):
        start, cpu_start = time.perf_counter(), time.process_time()
        threads_before = threads_cpu()
        watch.start()
        QTest.keyClick(table, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        applied.clear()
        act()
        wait_for(app, lambda: bool(applied))
        shown, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        figure(f"{label} on {total:,}: shown, undoable", shown)
        figure("  process CPU until then", cpu)
        figure("  longest GUI-thread block until then", watch.longest)
        figure("  ... of it the GUI thread's own CPU, at most", watch.longest_cpu)
        print(f"  CPU of the other threads until then, ms: {threads_cpu_since(threads_before)}")
        memory("it was shown")
        if not catch_up:
            left = window.desk.papers_behind() if window.desk else 0
            deadline = time.perf_counter() + UNDO_AFTER_S
            wait_for(app, lambda deadline=deadline: time.perf_counter() > deadline)
            figure(f"  longest GUI-thread block, re-indexing {left:,}", watch.stop())
            figure("  ... of it the GUI thread's own CPU, at most", watch.longest_cpu)
            print(f"  CPU of the other threads so far, ms: {threads_cpu_since(threads_before)}")
            continue
        # The index catches up in the background, 400 papers a writer job: at 100,000
        # papers that is many minutes on a loaded machine, so it is watched for a while.
        deadline = time.perf_counter() + catch_up_s
        wait_for(
            app,
            lambda deadline=deadline: (
                not window.catch_up.is_running() or time.perf_counter() > deadline
            ),
            timeout_s=catch_up_s + 600,
        )
        left = window.desk.papers_behind() if window.desk else 0
        searchable = time.perf_counter() - start
        figure(f"  ... searchable again, or {left:,} papers left after", searchable)
        figure("  longest GUI-thread block meanwhile", watch.stop())
        print(f"  CPU of the other threads meanwhile, ms: {threads_cpu_since(threads_before)}")
        memory("its re-indexing")


def open_window(app: QApplication, folder: Path, settings: QSettings) -> MainWindow:
    """A window on `folder`, its table listed and its opening done (open_upkeep)."""
    window = MainWindow(folder, settings, offer_demo=False)
    window.resize(1400, 900)
    listed: list[bool] = []
    window.search_applied.connect(lambda: listed.append(True))
    window.show()
    wait_for(app, lambda: bool(listed))
    wait_for(app, window.upkeep.is_ready)
    return window


def import_blocks(
    app: QApplication,
    library: Path | None,
    source: Path,
    idle_s: float = 0.0,
    cancel_after: float | None = None,
    until_shown: bool = False,
    scroll_ms: int = 100,
    until_indexing: bool = False,
) -> None:
    """Import `source` into a copy of `library` (or a new library) from the window, the
    table scrolled a page every `scroll_ms` meanwhile (0: not): the longest GUI-thread
    block from the click to the papers shown, then to searchable, each block over 100 ms
    by phase, with the CPU time of the process and of its workers. With `idle_s`, the
    window is first
    watched idle that long; with `cancel_after`, Cancel is pressed that many seconds in;
    with `until_shown`, the import is cancelled (withdrawn) once its papers are shown."""
    import multiprocessing

    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "library"
        if library is not None:
            shutil.copytree(library, folder)
        settings = QSettings(str(Path(scratch) / "bench.ini"), QSettings.Format.IniFormat)
        window = open_window(app, folder, settings)
        before = window.model.rowCount()
        desk = window.desk
        assert desk is not None
        generation_before = desk._library.generation()
        finished: list[object] = []
        window.transfers.import_finished.connect(finished.append)
        scrollbar = window.table.verticalScrollBar()
        scroller = QTimer()
        scroller.timeout.connect(
            lambda: scrollbar.triggerAction(scrollbar.SliderAction.SliderPageStepAdd)
        )
        print(f"{'  load average (1 min) at the start':<52} {os.getloadavg()[0]:9.1f}")
        watch = BlockWatch(lambda: import_phase(window))
        if scroll_ms:
            scroller.start(scroll_ms)
        if idle_s:
            watch.start()
            deadline = time.perf_counter() + idle_s
            wait_for(app, lambda: time.perf_counter() > deadline, timeout_s=idle_s + 60)
            figure(f"idle {idle_s:.0f} s: longest GUI-thread block", watch.stop())
            watch.print_blocks("idle")
        cpu, (children, _) = process_cpu(), children_cpu()
        start = time.perf_counter()
        watch.start()
        labels: set[str] = set()
        window.transfers.import_files([source], report=False)

        def shown() -> bool:
            labels.add(window.progress.label.text().split(":")[0])
            return window.model.rowCount() > before or bool(finished)

        if cancel_after is not None:
            deadline = time.perf_counter() + cancel_after
            wait_for(app, lambda: time.perf_counter() > deadline, timeout_s=cancel_after + 60)
            phase = import_phase(window)
            pressed = time.perf_counter()
            window.progress.cancel_button.click()
            wait_for(app, lambda: bool(finished))
            figure(
                f"Cancel {cancel_after:g} s in ({phase}) -> import stopped",
                time.perf_counter() - pressed,
            )

            def stopped() -> bool:
                alive = [c for c in multiprocessing.active_children() if c.is_alive()]
                return window.runner.is_idle() and not alive

            wait_for(app, stopped, timeout_s=600)
            figure("  -> its jobs and worker processes stopped", time.perf_counter() - pressed)
            scroller.stop()
            figure("  longest GUI-thread block, whole import", watch.stop())
            watch.print_blocks("whole import")
            papers = desk._library.papers.count()
            print(f"{'  papers before / after':<52} {before:>9,} / {papers:,}")
            same = papers == before and desk._library.generation() == generation_before
            print(f"{'  library as before (papers, generation)':<52} {'yes' if same else 'NO'}")
            window.close()
            return

        if until_indexing:
            # An import that adds nothing, by code that then rebuilds the whole index
            # (main before the fix): its planning and storing are timed, then the
            # process ends without waiting for the rebuild.
            wait_for(app, lambda: import_phase(window) == "indexing" or bool(finished), 7200)
            figure(
                f"import {source.name}: click -> planned and stored", time.perf_counter() - start
            )
            figure("  longest GUI-thread block until then", watch.longest)
            watch.print_blocks("planning and storing")
            figure("  process CPU (user + sys) until then", process_cpu() - cpu)
            figure("  worker processes' CPU until then", children_cpu()[0] - children)
            memory("planning and storing")
            print(f"{'  load average (1 min)':<52} {os.getloadavg()[0]:9.1f}", flush=True)
            shutil.rmtree(folder, ignore_errors=True)
            os._exit(0)
        wait_for(app, shown, timeout_s=3600)
        figure(f"import {source.name}: click -> papers shown", time.perf_counter() - start)
        figure("  longest GUI-thread block until then", watch.longest)
        shown_blocks = len(watch.blocks)
        figure("  process CPU (user + sys) until then", process_cpu() - cpu)
        figure("  worker processes' CPU until then (planning)", children_cpu()[0] - children)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{'  peak memory of the window process until then':<52} {peak:9.0f} MB")
        if until_shown:
            print(f"{'  GUI-thread blocks > 100 ms until papers shown':<52} {shown_blocks:9d}")
            watch.print_blocks("until papers shown")
            print(f"{'  load average (1 min)':<52} {os.getloadavg()[0]:9.1f}")
            window.progress.cancel_button.click()  # the indexing is not waited for
            wait_for(app, window.runner.is_idle, timeout_s=3600)
            window.close()
            return
        wait_for(app, lambda: bool(finished) and window.runner.is_idle(), timeout_s=7200)
        scroller.stop()
        figure("  click -> searchable (import finished)", time.perf_counter() - start)
        figure("  longest GUI-thread block, whole import", watch.stop())
        print(f"{'  GUI-thread blocks > 100 ms until papers shown':<52} {shown_blocks:9d}")
        watch.print_blocks("whole import")
        workers_cpu, workers_peak = children_cpu()
        figure("  process CPU (user + sys), whole import", process_cpu() - cpu)
        figure("  worker processes' CPU (user + sys)", workers_cpu - children)
        memory("the import")
        print(f"{'  papers before / after':<52} {before:>9,} / {window.model.rowCount():,}")
        print(f"{'  status bar said':<52} {sorted(labels)}")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        label = "  peak memory: window process / largest worker"
        print(f"{label:<52} {peak:9.0f} / {workers_peak:.0f} MB")
        print(f"{'  load average (1 min) at the end':<52} {os.getloadavg()[0]:9.1f}")
        window.close()


def cancel_an_import(app: QApplication, folder: Path) -> None:
    """Import the corpus into a copy of the library and press Cancel 3 s in and once it
    is written: how long until the import stops, and the library as before."""
    with tempfile.TemporaryDirectory() as scratch:
        _cancel_once(app, folder, Path(scratch) / "planning", 3.0)
        _cancel_once(app, folder, Path(scratch) / "indexing", None)


def _cancel_once(app: QApplication, folder: Path, copy: Path, wait_s: float | None) -> None:
    shutil.copytree(folder, copy)
    settings = QSettings(str(copy / "cancel.ini"), QSettings.Format.IniFormat)
    window = MainWindow(copy, settings, offer_demo=False)
    listed: list[bool] = []
    window.search_applied.connect(lambda: listed.append(True))
    window.show()
    wait_for(app, lambda: bool(listed))
    before = window.model.rowCount()
    finished: list[object] = []
    window.transfers.import_finished.connect(finished.append)
    window.transfers.import_files([CORPUS], report=False)
    if wait_s is not None:
        deadline = time.perf_counter() + wait_s
        wait_for(app, lambda: time.perf_counter() > deadline)
        moment = f"{wait_s:.0f} s in (reading, matching)"
    else:  # once the file is written, while it is being indexed
        wait_for(app, lambda: "Indexing" in window.progress.label.text())
        moment = "once written (indexing)"
    start = time.perf_counter()
    window.progress.cancel_button.click()
    wait_for(app, lambda: bool(finished))
    figure(f"import cancelled {moment} -> stopped", time.perf_counter() - start)
    wait_for(app, window.runner.is_idle)
    after = window.desk._library.papers.count() if window.desk else -1
    print(f"{'  papers before / after':<52} {before:>9,} / {after:,}")
    window.close()


if __name__ == "__main__":
    main()

"""Benchmark triage in the desktop window (issue 10) on a large library.

Measures, on the corpus (13,417 papers) or a replica of it (100,000):
- feature build: the ranking's matrix made from the library (first triage of a library),
  and loaded again from its cache (every later open);
- decision -> next paper shown: the triage view's S/X key to the next paper on screen,
  through the writer thread, the database and the next-paper choice (target <= 200 ms;
  the search index follows in the background while the paper is read), with the
  longest GUI-thread block meanwhile;
- retrain: a decision to the background model that reflects it;
- CPU and peak memory of the window's process and of the ranking's (which holds the
  matrix and the model: services/runtime/ranking_process.py). When this script is the main
  module, the spawned ranking process imports it too (PySide6 included, never run):
  a few tens of MB more there than under `paperdesk`.
With --heartbeat, instead: a user's whole triage as the window lives it, watched by a
5 ms heartbeat on the GUI thread (issue 21: no block over 50 ms): entering triage on a
library whose ranking has never run, the first model arriving, the decisions, leaving,
and entering again; per phase the longest block and the blocks over 50 ms. Where the GUI
thread spends its time: run it under `py-spy record --threads -f raw` (docs/triage.md).
Prints figures; not a test. The library is built once (bench_gui.build_library) and kept
in bench/out/. Usage (run it niced: it loads both cores):
    QT_QPA_PLATFORM=offscreen nice -n 10 python bench/bench_triage.py [--papers 13417]
        [--library DIR] [--decisions 60] [--read-ms 1000] [--heartbeat]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_gui import (  # noqa: E402
    OUT,
    BlockWatch,
    build_library,
    open_window,
    threads_cpu,
    threads_cpu_since,
    wait_for,
)
from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from paperdesk.gui.app import application  # noqa: E402
from paperdesk.gui.triage.session import Order  # noqa: E402
from paperdesk.services.runtime.promise import FEATURES_DIR  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1000:9.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=13_417)
    parser.add_argument(
        "--library", type=Path, default=None, help="a library to copy instead of building one"
    )
    parser.add_argument("--decisions", type=int, default=60)
    parser.add_argument(
        "--read-ms",
        type=int,
        default=1000,
        help="time spent reading each paper before deciding (3,300 abstracts in an "
        "afternoon is about 4 s each); the search index catches up meanwhile",
    )
    parser.add_argument("--heartbeat", action="store_true", help="a whole triage's GUI blocks")
    args = parser.parse_args()
    built = args.library or OUT / f"library-{args.papers}"
    build_library(built, args.papers)
    copies = tempfile.TemporaryDirectory()
    folder = Path(copies.name) / "library"
    shutil.copytree(built, folder, ignore=shutil.ignore_patterns(FEATURES_DIR))

    app = application()
    settings = QSettings(str(Path(copies.name) / "bench.ini"), QSettings.Format.IniFormat)
    window = open_window(app, folder, settings)
    if args.heartbeat:
        heartbeat(app, window, args.decisions, args.read_ms)
        copies.cleanup()
        return
    desk = window.desk
    assert desk is not None
    print(f"library: {desk._library.papers.count():,} papers", flush=True)

    cpu, wall = time.process_time(), time.perf_counter()
    desk.promise.features()
    built = desk.promise.info()
    print(
        f"feature build (first triage)          {ms(time.perf_counter() - wall)} wall,"
        f" {ms(time.process_time() - cpu)} CPU here +"
        f" {ms(float(built.get('cpu_s', 0.0)))} in the ranking process"
        f" (peak {float(built.get('peak_mb', 0)):.0f} MB there)",
        flush=True,
    )
    fresh = type(desk.promise)(desk)
    wall = time.perf_counter()
    fresh.features()
    loaded = fresh.info()
    print(
        f"feature matrix loaded from its cache  {ms(time.perf_counter() - wall)} wall,"
        f" {ms(float(loaded.get('cpu_s', 0.0)))} CPU in a new ranking process",
        flush=True,
    )
    fresh.close()

    view = window.triage.view
    view.header.order.setCurrentIndex(view.header.order.findData(Order.PROMISE.value))
    shown: list[object] = []
    view.session.paper_shown.connect(shown.append)
    window.triage.enter()
    wait_for(app, lambda: bool(shown))
    promise = desk.promise_if_started()
    wait_for(app, lambda: promise is not None and promise.ready())
    assert promise is not None
    promise.wait(600)

    gui_cpu_start = time.process_time()
    worker_cpu_start = float(promise.info().get("cpu_s", 0.0))
    watch = BlockWatch()
    watch.start()
    trained: list[float] = []
    promise.add_listener(lambda: trained.append(time.perf_counter()))  # ranking's thread
    decided_at: list[float] = []
    gui_cpu: list[float] = []
    for n in range(args.decisions):
        before = len(shown)
        key = Qt.Key.Key_S if n % 5 == 0 else Qt.Key.Key_X
        cpu = time.thread_time()
        decided_at.append(time.perf_counter())
        QTest.keyClick(view, key)
        wait_for(app, lambda before=before: len(shown) > before)
        gui_cpu.append(time.thread_time() - cpu)
        reading_ends = time.perf_counter() + args.read_ms / 1000
        wait_for(app, lambda reading_ends=reading_ends: time.perf_counter() > reading_ends)
    longest = watch.stop()
    timings = sorted(view.session.timings)
    print(
        f"decisions: {len(timings)} (S every fifth, else X), most promising first,"
        f" {args.read_ms} ms reading each paper"
    )
    print(f"decision -> next paper shown, median  {ms(statistics.median(timings) / 1000)}")
    print(f"decision -> next paper shown, p90     {ms(timings[int(len(timings) * 0.9)] / 1000)}")
    print(f"decision -> next paper shown, max     {ms(timings[-1] / 1000)}")
    print(f"GUI-thread CPU per decision, median  {ms(statistics.median(gui_cpu))}")
    print(f"longest GUI-thread block meanwhile    {ms(longest)}")
    print(f"load average (1 min)                  {os.getloadavg()[0]:9.1f}")
    # A decision's retrain: from the key to the first model finished after it (the
    # window went on meanwhile; the reading pause is longer than any retrain here).
    retrains = [min((t for t in trained if t > at), default=at) - at for at in decided_at]
    print(f"decision -> model retrained, median   {ms(statistics.median(retrains))}")
    print(f"decision -> model retrained, max      {ms(max(retrains))}")
    worker = promise.info()
    print(
        f"CPU over the decisions: window process {time.process_time() - gui_cpu_start:.2f} s,"
        f" ranking process {float(worker.get('cpu_s', 0.0)) - worker_cpu_start:.2f} s"
    )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory, window process           {peak:9.0f} MB")
    print(f"peak memory, ranking process          {float(worker.get('peak_mb', 0)):9.0f} MB")
    window.close()
    print(f"ranking process exit code             {promise.exit_code}")
    copies.cleanup()


def heartbeat(app, window, decisions: int, read_ms: int) -> None:
    """A whole triage watched by the heartbeat, phase by phase (see the module's doc)."""
    desk = window.desk
    print(f"library: {desk._library.papers.count():,} papers; ranking never run on it", flush=True)
    view = window.triage.view
    view.header.order.setCurrentIndex(view.header.order.findData(Order.PROMISE.value))
    shown: list[object] = []
    view.session.paper_shown.connect(shown.append)
    phase = ["idle"]
    watch = BlockWatch(lambda: phase[0], block_s=0.05)
    longest: dict[str, float] = {}
    longest_cpu: dict[str, float] = {}
    per_decision: list[float] = []
    per_decision_cpu: list[float] = []
    others: dict[str, str] = {}  # phase -> the other threads' CPU in it

    def pause(seconds: float) -> None:
        ends = time.perf_counter() + seconds
        wait_for(app, lambda: time.perf_counter() > ends)

    def during(name: str, work) -> None:
        phase[0] = name
        watch.phase_begins()
        watch.longest = watch.longest_cpu = 0.0
        before = threads_cpu()
        work()
        others[name] = threads_cpu_since(before)
        longest[name] = max(longest.get(name, 0.0), watch.longest)
        longest_cpu[name] = max(longest_cpu.get(name, 0.0), watch.longest_cpu)

    def model_arrived() -> bool:
        promise = desk.promise_if_started()
        ranked = promise.latest() if promise is not None else None
        return ranked is not None and ranked.kind is not None

    def decide() -> None:
        for n in range(decisions):
            before, watch.longest, watch.longest_cpu = len(shown), 0.0, 0.0
            QTest.keyClick(view, Qt.Key.Key_S if n % 5 == 0 else Qt.Key.Key_X)
            wait_for(app, lambda before=before: len(shown) > before)
            pause(read_ms / 1000)
            per_decision.append(watch.longest)
            per_decision_cpu.append(watch.longest_cpu)
        longest["deciding"], longest_cpu["deciding"] = max(per_decision), max(per_decision_cpu)

    def leave() -> None:
        listed: list[bool] = []
        window.search_applied.connect(lambda: listed.append(True))
        window.triage.leave()
        wait_for(app, lambda: bool(listed))
        pause(2)

    def enter() -> None:
        before = len(shown)
        window.triage.enter()
        wait_for(app, lambda: len(shown) > before)
        pause(2)

    watch.start()
    during("idle", lambda: pause(2))
    during("entering", lambda: wait_for(app, lambda: (window.triage.enter(), bool(shown))[1]))
    # A keep gives the model its first positive example; the first model follows.
    during("first keep", lambda: (QTest.keyClick(view, Qt.Key.Key_S), pause(read_ms / 1000)))
    during("first model", lambda: (wait_for(app, model_arrived), pause(2)))
    phase[0] = "deciding"
    watch.phase_begins()
    before = threads_cpu()
    decide()
    others["deciding"] = threads_cpu_since(before)
    during("leaving", leave)
    during("re-entry", enter)
    watch.stop()
    print(f"load average (1 min) at the end: {os.getloadavg()[0]:.1f}")
    print("  phase         longest block: wall / GUI-thread CPU   blocks > 50 ms: wall / CPU")
    for name, block in longest.items():
        over = sum(1 for p, _, _ in watch.blocks if p == name)
        over_cpu = sum(1 for p, _, _ in watch.cpu_blocks if p == name)
        print(
            f"  {name:<12} {block * 1000:9.1f} / {longest_cpu[name] * 1000:7.1f} ms"
            f"{over:21d} / {over_cpu}"
        )
    print(
        f"  per decision ({decisions}, {read_ms} ms reading each), longest block: median"
        f" {statistics.median(per_decision) * 1000:.1f} ms wall,"
        f" {statistics.median(per_decision_cpu) * 1000:.1f} ms CPU"
    )
    print("  CPU of the window process's other threads (they hold the GIL), ms:")
    for name, spent in others.items():
        print(f"    {name:<12} {spent}")
    watch.print_blocks("by phase (wall)")
    for name, at, cpu in watch.cpu_blocks:
        print(f"  GUI-thread CPU block in {name}: {cpu * 1000:.0f} ms at {at:.1f} s")
    window.close()


if __name__ == "__main__":
    main()

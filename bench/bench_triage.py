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
  matrix and the model: services/ranking_process.py). When this script is the main
  module, the spawned ranking process imports it too (PySide6 included, never run):
  a few tens of MB more there than under `paperdesk`.
Prints figures; not a test. The library is built once (bench_gui.build_library) and kept
in bench/out/. Usage (run it niced: it loads both cores):
    QT_QPA_PLATFORM=offscreen nice -n 10 python bench/bench_triage.py [--papers 13417]
        [--library DIR] [--decisions 60] [--read-ms 1000]
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

from bench_gui import OUT, BlockWatch, build_library, open_window, wait_for  # noqa: E402
from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from paperdesk.gui.app import application  # noqa: E402
from paperdesk.gui.triage_session import Order  # noqa: E402
from paperdesk.services.promise import FEATURES_DIR  # noqa: E402


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
    args = parser.parse_args()
    built = args.library or OUT / f"library-{args.papers}"
    build_library(built, args.papers)
    copies = tempfile.TemporaryDirectory()
    folder = Path(copies.name) / "library"
    shutil.copytree(built, folder, ignore=shutil.ignore_patterns(FEATURES_DIR))

    app = application()
    settings = QSettings(str(Path(copies.name) / "bench.ini"), QSettings.Format.IniFormat)
    window = open_window(app, folder, settings)
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


if __name__ == "__main__":
    main()

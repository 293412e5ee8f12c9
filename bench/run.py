"""Issue 25's benchmark, end to end at --papers papers, in one run on one machine.

1. Import the corpus (replicated to N papers as bench_core does) into a new library,
   in a fresh process: seconds (wall and CPU) to stored and visible (the table's first
   page read), to the first papers searchable (a search tried every 0.25 s finds them)
   and to all searchable; peak memory of the importing process and of each index
   worker; database and index size.
2. The floors beside it, on the same papers: bare sqlite3 inserts of the same file,
   bare whoosh with the app's schema in two processes (in one too with --serial-floor),
   whoosh with the schema before issue 11 (--old-floor), SQLite FTS5 on the same text.
3. Searches, warm, through services.searching (what the GUI and CLI call): a mix of
   15 queries (words, phrases, fields, ranges, wildcards, fuzzy, tags, notes,
   shortlists, combined) with median and p95; `author:bengio`; the whole list sorted
   by title and by every column (the first sort of the session, the first after a
   change, warm); a tag change then a search that must see it; each class of query
   (0 hits, wildcards, long words, the word being typed...) first and warm, CPU and
   wall, beside the 100 ms target (bench_queries.py).
4. With --gui, bench_gui.py on the same library (the window's figures).
First a table of issue 25's figures, each beside its target, its floor, CPU, wall and
the load average; then the rest. Also to --json FILE. Not a test. Usage:
    python bench/run.py [--papers 100000] [--json FILE] [--runs 7] [--serial-floor]
        [--old-floor] [--gui] [--no-floors] [--library DIR: search a library imported
        before, no import]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bench_queries
from bench_documents import corpus_file, document_file, folder_mb, in_fresh_process, peak_mb
from bench_import_floor import store_with_sqlite3
from bench_index_floor import build_fts5
from index_variants import CURRENT, RECOMMENDED, build_parallel, build_serial

from paperdesk.core import fields
from paperdesk.core.models import Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, importing, notes, searching, shortlists, tagging
from paperdesk.services.use_cases.import_plan import plan_file

MIX = [
    "graph neural networks",
    "test-time training",
    '"language models"',
    '"gradient descent" convergence',
    "title:transformer",
    'title:"graph neural"',
    "bandit*",
    "convolutonal~",
    "tag:ml",
    "year:2017..2018 rating:>=4",
    "(bandit OR bandits) AND regret NOT adversarial",
    'in:"reading group"',
    "note:proofs",
    "venue:icml optimization",
    "status:to-read kernel",
]
AUTHOR = "author:bengio"
STORE_FLOOR = "bare sqlite3 insert (json.loads, executemany)"
INDEX_FLOOR = "whoosh, app schema, 2 processes"
HERE = Path(__file__).resolve().parent


def say(line: str = "") -> None:
    print(line, flush=True)


# ------------------------------------------------------------------ import


def import_library(corpus: Path, folder: Path) -> dict[str, Any]:
    """In a fresh process: import the file as the app does: stored, the table's first
    page read (visible), then indexed, with a search tried every 0.25 s meanwhile (the
    first papers searchable) and each index worker's peak memory sampled as often."""
    started, cpu, load = time.perf_counter(), time.process_time(), os.getloadavg()[0]
    with Desk.open(folder) as desk:
        plan = plan_file(desk, corpus)
        report, changes = importing.commit(desk, plan, index=False)
        stored = time.perf_counter() - started
        ids = searching.find_ids(desk, None).ids
        desk._library.papers.get_many(ids[:100])
        visible, visible_cpu = time.perf_counter() - started, time.process_time() - cpu
        with IndexingWatch(desk, started) as watch:
            importing.index_import(desk, report, changes)
        searchable, searchable_cpu = time.perf_counter() - started, time.process_time() - cpu
        importing_mb = peak_mb()  # before the user data below, which is no part of it
        workers = resource.getrusage(resource.RUSAGE_CHILDREN)  # the index workers, ended
        papers = desk._library.papers.count()
        _user_data(desk)
    return {
        "papers": papers,
        "load": [load, os.getloadavg()[0]],
        "stored_s": stored,
        "visible_s": visible,
        "visible_cpu_s": visible_cpu,
        "first_searchable_s": watch.first_hit_s,
        "searchable_s": searchable,
        "indexing_s": searchable - visible,
        "searchable_cpu_s": searchable_cpu,
        "workers_cpu_s": workers.ru_utime + workers.ru_stime,
        "peak_mb": importing_mb,
        "workers_peak_mb": sorted(watch.peaks.values(), reverse=True),
        "database_mb": folder_mb(folder) - folder_mb(folder / "index"),
        "index_mb": folder_mb(folder / "index"),
    }


class IndexingWatch(threading.Thread):
    """While an import is indexed: when a search first finds papers, and the peak
    memory (VmHWM) of each worker process, sampled every 0.25 s."""

    QUERY = "learning"

    def __init__(self, desk: Desk, started: float) -> None:
        super().__init__(daemon=True)
        self.desk, self.started = desk, started
        self.first_hit_s: float | None = None
        self.peaks: dict[int, float] = {}
        self._ended = threading.Event()

    def __enter__(self) -> IndexingWatch:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._ended.set()
        self.join()

    def run(self) -> None:
        while not self._ended.wait(0.25):
            if self.first_hit_s is None and searching.find_ids(self.desk, self.QUERY).ids:
                self.first_hit_s = time.perf_counter() - self.started
            self.peaks.update(_workers_peak_mb())


def _workers_peak_mb() -> dict[int, float]:
    """Each spawned worker process of this one: its peak resident memory so far, MB."""
    pids = {
        int(pid)
        for children in Path("/proc/self/task").glob("*/children")
        for pid in children.read_text().split()
    }
    peaks = {}
    for pid in pids:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:  # ended meanwhile
            continue
        if b"spawn_main" not in command:
            continue  # multiprocessing's resource tracker
        for line in status.splitlines():
            if line.startswith("VmHWM:"):
                peaks[pid] = int(line.split()[1]) / 1024
    return peaks


def _user_data(desk: Desk) -> None:
    """A little of what users add, so tag, note, shortlist and status queries find some."""
    ids = desk._library.papers.sorted_ids("added")
    tagging.add_tags(desk, ids[::40], ["ml/rnn"])
    editing.set_status(desk, ids[::7], Status.TO_READ)
    editing.set_rating(desk, ids[::11], 4)
    shortlists.create(desk, "reading group", ids[::150])
    for paper_id in ids[::2500]:
        notes.set_note(desk, paper_id, "check the **proofs** first")
    desk.catch_up_deferred()  # what the bulk changes left to re-index


# ------------------------------------------------------------------ floors


def floors(papers: int, scratch: Path, serial: bool, old_floor: bool) -> dict[str, dict[str, Any]]:
    """The same papers stored by bare sqlite3, indexed by bare whoosh with the app's schema
    in two processes (as the app's pool on 2 cores; with `serial`, in one too), and by
    SQLite FTS5."""
    documents = document_file(papers)
    found = {
        STORE_FLOOR: in_fresh_process(
            store_with_sqlite3, corpus_file(papers), scratch / "floor-sqlite", ""
        ),
        INDEX_FLOOR: build_parallel(RECOMMENDED, documents, scratch / "floor-2", papers, 2),
        "SQLite FTS5, same text": in_fresh_process(
            build_fts5, documents, scratch / "floor-fts5", papers
        ),
    }
    found[STORE_FLOOR]["wall_s"] = found[STORE_FLOOR]["stored_s"]
    if serial:
        found["whoosh, app schema, 1 process"] = in_fresh_process(
            build_serial, RECOMMENDED, documents, scratch / "floor-1", papers
        )
    if old_floor:
        found["whoosh, schema before issue 11"] = in_fresh_process(
            build_serial, CURRENT, documents, scratch / "floor-old", papers
        )
    return found


# ------------------------------------------------------------------ searches


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    started = time.perf_counter()
    result = action()
    return (time.perf_counter() - started) * 1000, result


def p95(samples: list[float]) -> float:
    return statistics.quantiles(samples, n=20, method="inclusive")[18]


def searches(folder: Path, runs: int) -> dict[str, Any]:
    found: dict[str, Any] = {"load": os.getloadavg()[0]}
    with Desk.open(folder) as desk:
        opened, _ = timed(lambda: searching.find_ids(desk, "graph"))
        found["first search after open ms"] = opened
        # Each query once before timing (the timed runs are warm). This first run is
        # timed too: it decodes the query's posting lists (search/set_matching.py) that
        # no earlier query of the mix has, as a query new to the session does.
        first_cpu: dict[str, float] = {}
        for query in MIX:
            started = time.process_time()
            searching.find_ids(desk, query)
            first_cpu[query] = (time.process_time() - started) * 1000
        samples: dict[str, list[float]] = {query: [] for query in MIX}
        # CPU milliseconds too: on a shared machine the wall clock measures the others.
        cpu: dict[str, list[float]] = {query: [] for query in MIX}
        hits: dict[str, int] = {}
        for _run in range(runs):  # interleaved, so load spikes spread over all queries
            for query in MIX:
                started = time.process_time()
                elapsed, result = timed(lambda q=query: searching.find_ids(desk, q))
                cpu[query].append((time.process_time() - started) * 1000)
                samples[query].append(elapsed)
                hits[query] = len(result.ids)
        every = [s for query in MIX for s in samples[query]]
        every_cpu = [s for query in MIX for s in cpu[query]]
        found["mix"] = {
            "median_ms": statistics.median(every),
            "p95_ms": p95(every),
            "cpu_median_ms": statistics.median(every_cpu),
            "cpu_p95_ms": p95(every_cpu),
            "first_cpu_median_ms": statistics.median(first_cpu.values()),
            "first_cpu_p95_ms": p95(list(first_cpu.values())),
            "queries": {
                q: [statistics.median(samples[q]), hits[q], statistics.median(cpu[q]), first_cpu[q]]
                for q in MIX
            },
        }
        started = time.process_time()
        author = [timed(lambda: searching.find_ids(desk, AUTHOR)) for _ in range(runs + 1)]
        found["author:bengio"] = {
            "median_ms": statistics.median(ms for ms, _ in author[1:]),
            "cpu_mean_ms": (time.process_time() - started) * 1000 / (runs + 1),
            "hits": len(author[0][1].ids),
        }
        found["sorts"] = _sorts(desk, runs)
        paper_id = desk._library.papers.sorted_ids("added")[-1]
        tag_ms, _ = timed(lambda: tagging.add_tags(desk, [paper_id], ["bench-fresh"]))
        seen_ms, seen = timed(lambda: searching.find_ids(desk, "tag:bench-fresh"))
        assert seen.ids == [paper_id], "a search did not see the tag just added"
        found["tag change, then a search that sees it"] = {"tag_ms": tag_ms, "search_ms": seen_ms}
        sorted_query = [
            timed(lambda: searching.find_ids(desk, "graph neural networks", sort="title"))[0]
            for _ in range(runs + 1)
        ]
        found["query sorted by title ms"] = statistics.median(sorted_query[1:])
        found["query classes"] = bench_queries.measure(desk, runs)
    return found


def _sorts(desk: Desk, runs: int) -> dict[str, list[float]]:
    """Each column: the first sort (its whole order read from the database), the first
    after a change (the kept order follows the change), then warm (median); the first
    two in CPU too. In ms: [after a change, warm, its CPU, first sort, its CPU]."""
    result: dict[str, list[float]] = {}
    some = desk._library.papers.sorted_ids("added")[:1]
    for number, key in enumerate(searching.SORT_KEYS):
        if key == fields.PROMISE:
            continue  # the learnt ranking's order, not a column (bench_ranking.py)
        started = time.process_time()
        loaded, _ = timed(lambda k=key: searching.find_ids(desk, None, sort=k))
        loaded_cpu = (time.process_time() - started) * 1000
        editing.set_rating(desk, some, 3 + number % 2)  # a change of the sorted values
        started = time.process_time()
        first, _ = timed(lambda k=key: searching.find_ids(desk, None, sort=k))
        first_cpu = (time.process_time() - started) * 1000
        warm = [timed(lambda k=key: searching.find_ids(desk, None, sort=k))[0] for _ in range(runs)]
        result[key] = [first, statistics.median(warm), first_cpu, loaded, loaded_cpu]
    return result


# ------------------------------------------------------------------ output


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu": model,
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg()[0],
        "python": platform.python_version(),
        "system": platform.platform(),
    }


def report(figures: dict[str, Any]) -> None:
    say(f"\n## paperdesk at {figures['papers']:,} papers")
    say(f"machine: {figures['machine']['cpu']}, {figures['machine']['cpus']} CPUs, load")
    say(f"average {figures['machine']['load_average']:.1f} at the start (shared machine)\n")
    _report_targets(figures)
    say("\n| measure | figure |\n|---|---|")
    if "import" in figures:
        _report_import(figures["import"], figures.get("floors"))
    _report_search(figures["search"])


def _report_targets(figures: dict[str, Any]) -> None:
    """Issue 25's figures at 100,000 papers beside their targets and the floors."""
    found_floors = figures.get("floors") or {}
    rows: list[tuple[str, str, str, str, str, str]] = []

    def floor(name: str) -> str:
        if name not in found_floors:
            return "not measured (--no-floors)"
        measured = found_floors[name]
        return f"{name}: {measured['wall_s']:.1f} s ({measured['cpu_s']:.1f} s CPU)"

    if "import" in figures:
        imported = figures["import"]
        load = "{:.1f}-{:.1f}".format(*imported["load"])
        first = imported["first_searchable_s"]
        rows += [
            (
                "import: stored and visible (first page read)",
                "<= 16 s",
                floor(STORE_FLOOR),
                f"{imported['visible_cpu_s']:.1f} s",
                f"{imported['visible_s']:.1f} s",
                load,
            ),
            (
                "import: first papers searchable (a search finds them)",
                "<= 30 s",
                "",
                "",
                f"{first:.1f} s" if first is not None else "not before the end",
                load,
            ),
            (
                "import: searchable (all; CPU: importing process + workers)",
                "<= 120 s",
                floor(INDEX_FLOOR),
                f"{imported['searchable_cpu_s']:.1f} + {imported['workers_cpu_s']:.1f} s",
                f"{imported['searchable_s']:.1f} s (indexing {imported['indexing_s']:.1f} s)",
                load,
            ),
            (
                "import: peak memory, importing process / each index worker",
                "<= 300 MB each",
                "",
                "",
                f"{imported['peak_mb']:.0f} / "
                + " / ".join(f"{mb:.0f}" for mb in imported["workers_peak_mb"])
                + " MB",
                load,
            ),
        ]
    search = figures["search"]
    for key, name in (("title", "title"), ("first_author", "first author")):
        _after, _warm, _after_cpu, first, first_cpu = search["sorts"][key]
        rows.append(
            (
                f"first sort of a session by {name}",
                "<= 200 ms",
                "",
                f"{first_cpu:.0f} ms",
                f"{first:.0f} ms",
                f"{search['load']:.1f}",
            )
        )
    say("| figure | target | floor (same run) | CPU | wall | load |")
    say("|---|---|---|---|---|---|")
    for row in rows:
        say("| " + " | ".join(row) + " |")


def _report_import(imported: dict[str, Any], found_floors: dict[str, Any] | None) -> None:
    say(
        f"| database / index on disk | {imported['database_mb']:.0f} /"
        f" {imported['index_mb']:.0f} MB |"
    )
    if found_floors is None:
        return
    for name, floor in found_floors.items():
        say(f"| floor: {name} | {floor['wall_s']:.1f} s wall, {floor['cpu_s']:.1f} s CPU |")
    parallel = found_floors[INDEX_FLOOR]["wall_s"]
    say(
        f"| app indexing / bare whoosh floor (2 processes) |"
        f" {imported['indexing_s'] / parallel:.2f}x |"
    )


def _report_search(found: dict[str, Any]) -> None:
    mix = found["mix"]
    say(
        f"| search mix of {len(MIX)}, warm: median / p95 (CPU: median / p95) |"
        f" {mix['median_ms']:.1f} / {mix['p95_ms']:.1f} ms"
        f" ({mix['cpu_median_ms']:.1f} / {mix['cpu_p95_ms']:.1f} ms) |"
    )
    say(
        f"| the same, first run of each query (CPU): median / p95 |"
        f" {mix['first_cpu_median_ms']:.1f} / {mix['first_cpu_p95_ms']:.1f} ms |"
    )
    author = found["author:bengio"]
    say(
        f"| `author:bengio` ({author['hits']} hits) (CPU) |"
        f" {author['median_ms']:.1f} ms ({author['cpu_mean_ms']:.1f} ms) |"
    )
    title = found["sorts"]["title"]
    say(
        f"| list all sorted by title: warm / first after a change (CPU) / first sort (CPU) |"
        f" {title[1]:.1f} / {title[0]:.0f} ms ({title[2]:.0f} ms) /"
        f" {title[3]:.0f} ms ({title[4]:.0f} ms) |"
    )
    say(f"| `graph neural networks` sorted by title | {found['query sorted by title ms']:.1f} ms |")
    change = found["tag change, then a search that sees it"]
    say(
        f"| tag change, then a search that sees it |"
        f" {change['tag_ms']:.0f} + {change['search_ms']:.1f} ms |"
    )
    say(
        f"| first search after opening the library | {found['first search after open ms']:.0f} ms |"
    )
    say("\nsorting the whole list by each column, first sort / first after a change / warm")
    say("(ms, CPU in brackets):")
    for key, (first, warm, first_cpu, loaded, loaded_cpu) in found["sorts"].items():
        say(
            f"  {key:<14} {loaded:6.0f} ({loaded_cpu:5.0f}) {first:6.0f} ({first_cpu:5.0f})"
            f" {warm:6.1f}"
        )
    say("\nthe mix, median ms, wall / CPU, and the first run's CPU (hits):")
    for query, (ms, hits, cpu_ms, first_ms) in found["mix"]["queries"].items():
        say(f"  {query:<48} {ms:7.1f} / {cpu_ms:7.1f}  first {first_ms:7.1f}  ({hits:,})")
    if "query classes" in found:
        bench_queries.report(found["query classes"], say)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=7, help="timed runs of each search")
    parser.add_argument("--old-floor", action="store_true", help="also the schema before")
    parser.add_argument(
        "--serial-floor", action="store_true", help="also bare whoosh in one process"
    )
    parser.add_argument("--gui", action="store_true", help="also run bench_gui.py")
    parser.add_argument("--no-floors", action="store_true", help="leave out the floors")
    parser.add_argument(
        "--library", type=Path, default=None, help="search this imported library (no import)"
    )
    args = parser.parse_args()
    figures: dict[str, Any] = {"papers": args.papers, "machine": machine()}
    with tempfile.TemporaryDirectory(prefix="paperdesk-run-") as name:
        scratch = Path(name)
        library = args.library or scratch / "library"
        if args.library is None:
            corpus = corpus_file(args.papers)
            say(f"importing {corpus.name} ...")
            figures["import"] = in_fresh_process(import_library, corpus, library)
            say(f"  {json.dumps(figures['import'])}")
        if not args.no_floors:
            say("floors ...")
            figures["floors"] = floors(args.papers, scratch, args.serial_floor, args.old_floor)
        say("searches ...")
        figures["search"] = searches(library, args.runs)
        if args.gui:
            gui = subprocess.run(
                [
                    sys.executable,
                    str(HERE / "bench_gui.py"),
                    "--papers",
                    str(args.papers),
                    "--library",
                    str(library),
                ],
                capture_output=True,
                text=True,
                check=False,
                env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
            )
            figures["gui"] = gui.stdout
    report(figures)
    if "gui" in figures:
        say("\n## the window (bench_gui.py)\n" + figures["gui"])
    say(f"\nload average at the end {os.getloadavg()[0]:.1f}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

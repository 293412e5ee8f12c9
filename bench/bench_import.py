"""Benchmark importing the corpus: 13,417 papers, and replicated to 100,000.

For each size, a fresh library imports one JSON Lines file, in a process of its own
(so that peak memory is that import's alone), and the benchmark prints:
- time to stored: reading, matching and the database commit (the papers are safe),
  with the process's CPU time, and to visible: the table's first page read;
- time to searchable: the same plus the whoosh index (only with --index: minutes at
  100,000 on a loaded machine);
- peak memory: the process's ru_maxrss when stored, at the end, and before the import;
- the database file against the source file, and where its bytes go (dbstat).
The machine may be shared: the load average before and after each run is printed too.

The replicas come from bench_core.replicate_corpus: fresh titles and OpenReview ids and
shuffled abstract words, so that neither the exact keys nor the fuzzy matcher take a
replica for its original. Not a test. Usage:
    python bench/bench_import.py [--sizes 13417 100000] [--profile] [--index]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_core import CORPUS, replicate_corpus

from paperdesk.config import DB_FILE
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing, searching
from paperdesk.services.use_cases.import_report import ImportReport

CORPUS_PAPERS = 13_417


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def measure(library: Path, source: Path, profile: bool, index: bool) -> dict[str, object]:
    """Import `source` into a new library at `library`; the figures of that one import.

    The import runs as the GUI runs it: plan and commit without indexing (stored), the
    table's first page (visible), then the import's indexing (searchable). On a shared
    machine the CPU time to stored says more than the wall time.
    """
    desk = Desk.open(library)
    before_mb = peak_mb()
    start, cpu_start = time.perf_counter(), time.process_time()
    profiler = cProfile.Profile() if profile else None
    if profiler:
        profiler.enable()
    plan = importing.plan_file(desk, source)
    report, changes = importing.commit(desk, plan, index=False)
    stored = time.perf_counter() - start
    stored_cpu = time.process_time() - cpu_start
    stored_mb = peak_mb()
    ids = searching.find_ids(desk, None).ids
    desk._library.papers.get_many(ids[:100])
    visible = time.perf_counter() - start
    if profiler:
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(30)
    db_mb = _database_mb(library)
    searchable = float("nan")
    if index:
        importing.index_import(desk, report, changes)
        searchable = time.perf_counter() - start
    papers = desk._library.papers.count()
    desk.close()
    return {
        "summary": ImportReport(files=[report]).summary(),
        "papers": papers,
        "stored_s": stored,
        "stored_cpu_s": stored_cpu,
        "visible_s": visible,
        "searchable_s": searchable,
        "stored_mb": stored_mb,
        "peak_mb": peak_mb(),
        "before_mb": before_mb,
        "source_mb": source.stat().st_size / 1e6,
        "db_mb": db_mb,
        "storage": storage_breakdown(library / DB_FILE),
    }


def _database_mb(library: Path) -> float:
    """The database file once its write-ahead log is checkpointed into it."""
    with sqlite3.connect(library / DB_FILE) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return (library / DB_FILE).stat().st_size / 1e6


def storage_breakdown(database: Path) -> list[str]:
    """Where the database's bytes go: pages per table and index (SQLite's dbstat)."""
    connection = sqlite3.connect(database)
    papers = connection.execute("SELECT COUNT(*) FROM papers").fetchone()[0] or 1
    rows = connection.execute(
        "SELECT name, SUM(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC"
    ).fetchall()
    connection.close()
    total = sum(size for _, size in rows)
    return [
        f"    {name:<36} {size / 1e6:8.1f} MB {size / papers:8.0f} B/paper"
        for name, size in rows
        if size / total >= 0.01
    ]


def run_child(*args: str) -> subprocess.CompletedProcess[str]:
    child = subprocess.run(
        [sys.executable, __file__, *args], capture_output=True, text=True, check=False
    )
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed:\n{child.stderr}")
    return child


def run_size(size: int, scratch: Path, profile: bool, index: bool) -> dict[str, object]:
    # Both steps run in children: Linux keeps a parent's peak RSS at fork in the child's
    # ru_maxrss, so the parent must never hold the replicated corpus.
    source = CORPUS if size == CORPUS_PAPERS else scratch / f"corpus-{size}.jsonl"
    if size != CORPUS_PAPERS:
        run_child("--replicate", str(size), str(source))
    load_before = os.getloadavg()
    child = run_child(
        "--child",
        str(source),
        str(scratch / f"library-{size}"),
        *(["--profile"] if profile else []),
        *(["--index"] if index else []),
    )
    if profile:
        print(child.stderr, file=sys.stderr)
    figures = json.loads(child.stdout)
    figures["load"] = (load_before, os.getloadavg())
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[CORPUS_PAPERS, 100_000])
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 30")
    parser.add_argument("--index", action="store_true", help="time the indexing too")
    parser.add_argument("--child", nargs=2, metavar=("SOURCE", "LIBRARY"), help=argparse.SUPPRESS)
    parser.add_argument("--replicate", nargs=2, metavar=("SIZE", "TARGET"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.replicate:
        replicate_corpus(Path(args.replicate[1]), int(args.replicate[0]))
        return 0
    if args.child:
        source, library = (Path(p) for p in args.child)
        print(json.dumps(measure(library, source, args.profile, args.index)))
        return 0
    if not CORPUS.exists():
        print("../shared/data/corpus.jsonl is absent: nothing to benchmark")
        return 0
    print(f"{os.cpu_count()} CPUs; load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as scratch:
        for size in args.sizes:
            figures = run_size(size, Path(scratch), args.profile, args.index)
            (load_before, load_after) = figures["load"]
            print(f"\n{size:,} records: {figures['summary']}")
            print(f"  papers in the library      {figures['papers']:>10,}")
            print(f"  time to stored (commit)    {figures['stored_s']:>10.1f} s")
            print(f"    CPU time of this process {figures['stored_cpu_s']:>10.1f} s")
            print(f"  time to visible (1st page) {figures['visible_s']:>10.1f} s")
            print(f"  time to searchable (index) {figures['searchable_s']:>10.1f} s")
            print(f"  peak memory when stored    {figures['stored_mb']:>10.0f} MB")
            print(f"  peak memory (ru_maxrss)    {figures['peak_mb']:>10.0f} MB")
            print(f"    of which before import   {figures['before_mb']:>10.0f} MB")
            print(f"  source file                {figures['source_mb']:>10.1f} MB")
            ratio = figures["db_mb"] / figures["source_mb"]
            print(f"  database file (stored)     {figures['db_mb']:>10.1f} MB ({ratio:.2f}x)")
            print("\n".join(figures["storage"]))
            print(f"  load average before/after  {load_before[0]:>6.2f} / {load_after[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

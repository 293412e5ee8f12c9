"""The bare indexing floor: whoosh with today's schema, SQLite FTS5 on the same text,
what each part of the schema costs, and building the index with a pool of processes.

Every figure comes from one run on the same documents (bench_documents: the corpus
replicated to --papers with ids changed and abstract words shuffled, plus a little user
data), each build in a freshly spawned process so its peak RSS is its own. The machine
may be shared, so compare rows of one table and read the ratios; CPU seconds are the
steadier figure when other work competes for the cores. Not a test. Usage:
    python bench/bench_index_floor.py --papers 13417 [--sections floor costs parallel]
    python bench/bench_index_floor.py --papers 100000 --sections floor parallel \
        --variants current recommended --procs 1 2
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_documents import (
    document_file,
    folder_mb,
    in_fresh_process,
    iter_documents,
    peak_mb,
)
from index_variants import (
    CURRENT,
    RECOMMENDED,
    VARIANTS,
    Variant,
    build_parallel,
    build_phases,
    build_serial,
    cached_index,
    check_current_matches_app,
    check_same_index,
    keep_for_search,
    optimize_index,
    variants_named,
)

FTS5_TABLE = """CREATE VIRTUAL TABLE papers_fts USING fts5(
    title, abstract, authors, note, tags, venue,
    tokenize = 'porter unicode61 remove_diacritics 2')"""


def build_fts5(documents: Path, folder: Path, count: int) -> dict[str, Any]:
    """SQLite FTS5 over the same text (stemmed, accents folded, positions kept)."""
    wall, cpu = time.perf_counter(), time.process_time()
    folder.mkdir(parents=True)
    database = folder / "fts.sqlite"
    connection = sqlite3.connect(database)
    connection.execute(FTS5_TABLE)
    rows = (
        (
            d.id,
            d.title,
            d.abstract,
            " ; ".join(d.authors),
            d.note,
            " ".join(d.tags),
            d.venue or "",
        )
        for d in iter_documents(documents, 0, count)
    )
    with connection:
        connection.executemany(
            "INSERT INTO papers_fts(rowid, title, abstract, authors, note, tags, venue)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            rows,
        )
    connection.close()
    return {
        "wall_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": peak_mb(),
        "index_mb": folder_mb(folder),
        "segments": 1,
        "docs": count,
    }


def read_documents(documents: Path, count: int) -> dict[str, Any]:
    """What streaming the documents alone costs (included in every build below)."""
    wall, cpu = time.perf_counter(), time.process_time()
    total = sum(len(d.abstract) for d in iter_documents(documents, 0, count))
    assert total
    return {
        "wall_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": peak_mb(),
        "index_mb": 0.0,
        "segments": 0,
        "docs": count,
    }


# ------------------------------------------------------------------ printing


HEADER = (
    f"{'build':<38} {'wall s':>7} {'cpu s':>7} {'docs/s':>7} {'cpu x':>6}"
    f" {'peak MB':>8} {'index MB':>9} {'segs':>5}"
)


def row(label: str, figures: dict[str, Any], papers: int, base_cpu: float | None) -> str:
    ratio = f"{figures['cpu_s'] / base_cpu:6.2f}" if base_cpu else f"{'':6}"
    return (
        f"{label:<38} {figures['wall_s']:7.1f} {figures['cpu_s']:7.1f}"
        f" {papers / figures['wall_s']:7.0f} {ratio} {figures['peak_mb']:8.0f}"
        f" {figures['index_mb']:9.1f} {figures['segments']:5d}"
    )


def say(text: str = "") -> None:
    print(text, flush=True)


# ------------------------------------------------------------------ sections


def section_floor(papers: int, documents: Path, scratch: Path, variants: list[Variant]) -> None:
    say(f"\n## Floor at {papers:,} papers (same documents, same run)")
    say("cpu x: CPU seconds relative to the whoosh floor with today's schema")
    say(HEADER)
    reading = in_fresh_process(read_documents, documents, papers)
    say(row("reading the documents (in all rows)", reading, papers, None))
    base = in_fresh_process(build_serial, CURRENT, documents, scratch / "floor-current", papers)
    say(row("whoosh, today's schema", base, papers, base["cpu_s"]))
    keep_for_search(scratch / "floor-current", CURRENT, papers, 1)
    for variant in variants:
        if variant is CURRENT:
            continue
        folder = scratch / f"floor-{variant.name}"
        figures = in_fresh_process(build_serial, variant, documents, folder, papers)
        say(row(f"whoosh, {variant.name}", figures, papers, base["cpu_s"]))
        keep_for_search(folder, variant, papers, 1)
    fts = in_fresh_process(build_fts5, documents, scratch / "floor-fts5", papers)
    say(row("SQLite FTS5, same text", fts, papers, base["cpu_s"]))


def section_costs(
    papers: int, documents: Path, scratch: Path, variants: list[Variant], rounds: int
) -> None:
    """Each variant built `rounds` times, round-robin, keeping each one's fastest build.

    Other work on the machine slows builds down unevenly (even their CPU time, when it
    shares a physical core): the fastest of a few interleaved builds is the fairest.
    """
    say(f"\n## What each part costs at {papers:,} papers (one change per row)")
    say(f"fastest of {rounds} interleaved builds each; spread = slowest/fastest wall")
    best: dict[str, dict[str, Any]] = {}
    spread: dict[str, list[float]] = {}
    for round_number in range(rounds):
        say(f"round {round_number + 1} of {rounds}, load {os.getloadavg()[0]:.2f}")
        for number, variant in enumerate(variants):
            folder = scratch / f"cost-{number}"
            figures = in_fresh_process(build_serial, variant, documents, folder, papers)
            shutil.rmtree(folder, ignore_errors=True)
            spread.setdefault(variant.name, []).append(figures["wall_s"])
            kept = best.get(variant.name)
            if kept is None or figures["cpu_s"] < kept["cpu_s"]:
                best[variant.name] = figures
            say("  " + row(variant.name, figures, papers, None))
    say("\nfastest of the rounds:")
    say(HEADER + "  spread")
    base_cpu = best[variants[0].name]["cpu_s"]
    for variant in variants:
        walls = spread[variant.name]
        say(
            row(variant.name, best[variant.name], papers, base_cpu)
            + f"  {max(walls) / min(walls):5.2f}"
        )
    say("\nrows: " + "; ".join(f"{v.name} = {v.what}" for v in variants))


def section_phases(
    papers: int, documents: Path, scratch: Path, variants: list[Variant], rounds: int
) -> None:
    say(f"\n## Adding and committing {papers:,} papers, CPU s (fastest of {rounds}, one process)")
    best = in_fresh_process(build_phases, variants, documents, scratch, papers, rounds)
    base = sum(best[variants[0].name])
    say(f"{'build':<38} {'add':>7} {'commit':>7} {'total':>7} {'x first':>7} {'docs/s':>7}")
    for variant in variants:
        add, commit = best[variant.name]
        say(
            f"{variant.name:<38} {add:7.2f} {commit:7.2f} {add + commit:7.2f}"
            f" {(add + commit) / base:7.2f} {papers / (add + commit):7.0f}"
        )


def critical_path(figures: dict[str, Any]) -> float:
    """CPU seconds on the longest chain: this process, then the slowest worker.

    What the wall time would be with a free core per process; under load the measured
    wall time says more about the other work on the machine than about the build.
    """
    return figures["parent_cpu_s"] + max(start + build for start, build, _ in figures["workers"])


def section_parallel(
    papers: int, documents: Path, scratch: Path, variants: list[Variant], procs: list[int]
) -> None:
    say(f"\n## One segment per spawned process, at {papers:,} papers ({os.cpu_count()} CPUs)")
    say("path = CPU s of this process + the slowest worker (the wall time on free cores)")
    say(
        f"{'build':<24} {'procs':>5} {'wall s':>7} {'wall x':>6} {'path s':>7} {'path x':>6}"
        f" {'cpu s':>7} {'peak MB':>8} {'index MB':>9}  workers: start cpu + build cpu s"
    )
    for variant in variants:
        runs: dict[int, dict[str, Any]] = {}
        for count in procs:
            folder = scratch / f"parallel-{variant.name}-{count}"
            figures = build_parallel(variant, documents, folder, papers, count)
            runs[count] = figures
            if count > 1:
                keep_for_search(folder, variant, papers, count)
            first = runs[procs[0]]
            workers = ", ".join(f"{a:.1f} + {b:.1f}" for a, b, _ in figures["workers"])
            say(
                f"{variant.name:<24} {count:5d} {figures['wall_s']:7.1f}"
                f" {first['wall_s'] / figures['wall_s']:6.2f} {critical_path(figures):7.1f}"
                f" {critical_path(first) / critical_path(figures):6.2f} {figures['cpu_s']:7.1f}"
                f" {figures['peak_mb']:8.0f} {figures['index_mb']:9.1f}  {workers}"
            )
        if 1 in runs and max(runs) > 1:
            # Eight workers: the same start-up each, the build CPU of the widest run split
            # eight ways (with that run's imbalance), this process's part unchanged.
            widest = runs[max(runs)]
            builds = [b for _, b, _ in widest["workers"]]
            starts = [a for a, _, _ in widest["workers"]]
            imbalance = max(builds) / (sum(builds) / len(builds))
            eight = widest["parent_cpu_s"] + max(starts) + sum(builds) / 8 * imbalance
            say(
                f"  {variant.name}: on 8 free cores ~{eight:.1f} s,"
                f" {critical_path(runs[1]) / eight:.1f}x one process"
                f" (start-up {max(starts):.1f} s, {widest['parent_cpu_s']:.1f} s here: serial)"
            )
        merged = in_fresh_process(optimize_index, _copy_of(variant, papers, procs[-1], scratch))
        say(
            f"  then merging its {procs[-1]} segments into one (optimize):"
            f" {merged['wall_s']:.1f} s wall, {merged['cpu_s']:.1f} s cpu,"
            f" {merged['peak_mb']:.0f} MB peak, {merged['index_mb']:.1f} MB"
        )


def _copy_of(variant: Variant, papers: int, count: int, scratch: Path) -> Path:
    """A copy of the parallel build to merge (the build itself is kept for searching)."""
    built = scratch / f"parallel-{variant.name}-{count}"
    if not built.exists():
        built = cached_index(variant, papers, count)
    copy = scratch / f"merge-{variant.name}-{count}"
    shutil.copytree(built, copy)
    return copy


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=13_417)
    parser.add_argument(
        "--sections",
        nargs="+",
        default=["floor", "costs", "parallel"],
        choices=["floor", "costs", "phases", "parallel"],
    )
    parser.add_argument(
        "--variants",
        nargs="+",
        help="variant names (default: all for costs, "
        "current and recommended for floor and parallel)",
    )
    parser.add_argument("--procs", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=2, help="builds per variant in costs")
    args = parser.parse_args()
    check_current_matches_app()
    documents = document_file(args.papers)
    say(
        f"{args.papers:,} papers; {os.cpu_count()} CPUs; load average"
        f" {os.getloadavg()[0]:.2f}; python {sys.version.split()[0]}"
    )
    chosen = variants_named(args.variants) if args.variants else None
    with tempfile.TemporaryDirectory(prefix="floor-") as name:
        scratch = Path(name)
        check_same_index(documents, scratch, 300)
        say("checked: the fused analyzer and fast writer give today's postings (300 papers)")
        if "floor" in args.sections:
            section_floor(args.papers, documents, scratch, chosen or [CURRENT, RECOMMENDED])
        if "costs" in args.sections:
            section_costs(
                args.papers, documents, scratch, chosen or [*VARIANTS, RECOMMENDED], args.rounds
            )
        if "phases" in args.sections:
            section_phases(
                args.papers, documents, scratch, chosen or [*VARIANTS, RECOMMENDED], args.rounds
            )
        if "parallel" in args.sections:
            section_parallel(
                args.papers, documents, scratch, chosen or [CURRENT, RECOMMENDED], args.procs
            )
    say(f"\nload average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

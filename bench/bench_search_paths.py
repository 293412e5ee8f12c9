"""The search path at --papers: today's against each proposed change, in one run.

Setup (made once per size and kept in the benchmark cache, see bench_documents): a
library database holding the replicated corpus (bench_import_floor's bulk path) and
whoosh indexes of the same papers: today's schema in one segment, the recommended
schema (index_variants.RECOMMENDED) in 1, 2 and 8 segments.

Then, warm (each query run once before timing), queries interleaved across paths:
- paths: search_paths.Today, OneSearcher, IdArray, Proposed on today's index: the mix,
  `author:bengio`, a search sorted by title, the whole list sorted by title;
- schema: the proposed path on the recommended index in 1, 2 and 8 segments, with a
  check that every query finds the same papers as today's index;
- first page: the best 100 hits before the rest are counted;
- parse, load: the query parser per query, and what loading once per index
  generation costs (searcher, id array, a column's order);
- profile: where today's time goes on the slow queries (cProfile).
Not a test. Usage:
    python bench/bench_search_paths.py --papers 100000 [--runs 7]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench_documents import CACHE, corpus_file, document_file, in_fresh_process
from bench_import_floor import store_with_app_bulk
from index_variants import CURRENT, RECOMMENDED, Variant, build_parallel, cached_index
from search_paths import PATHS, Columns, Proposed, Today, cached_known_fields
from sqlalchemy import text

from paperdesk.config import DB_FILE
from paperdesk.search.query import parse_query
from paperdesk.store.library import Library

# Words, phrases, fields, prefix, fuzzy, tags, ranges, shortlists, notes, combined.
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
SORTED_QUERY = "graph neural networks"
PROFILED = ['"language models"', AUTHOR, "graph neural networks"]


def say(line: str = "") -> None:
    print(line, flush=True)


# ------------------------------------------------------------------ setup


def library_folder(papers: int) -> Path:
    folder = CACHE / f"library-{papers}"
    if not (folder / "done").exists():
        if folder.exists():
            raise SystemExit(f"{folder} is half made: remove it and run again")
        started = time.perf_counter()
        in_fresh_process(store_with_app_bulk, corpus_file(papers), folder, "bulk")
        (folder / "done").write_text("")
        say(f"(made the library in {time.perf_counter() - started:.0f} s)")
    return folder


def index_folder(variant: Variant, papers: int, segments: int) -> Path:
    """An index of the papers in `segments` segments (bench_index_floor.py keeps its
    builds there too, so running it first saves building them again)."""
    folder = cached_index(variant, papers, segments)
    if not (folder / "done").exists():
        if folder.exists():
            raise SystemExit(f"{folder} is half made: remove it and run again")
        figures = build_parallel(
            variant, document_file(papers), folder, papers, min(segments, 2), segments
        )
        (folder / "done").write_text("")
        say(f"(built {folder.name} in {figures['wall_s']:.0f} s)")
    return folder


# ------------------------------------------------------------------ timing


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = action()
    return (time.perf_counter() - start) * 1000, result


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_interleaved(
    runners: dict[str, Callable[[str], Any]], queries: list[str], runs: int
) -> tuple[dict[str, dict[str, list[float]]], dict[str, dict[str, Any]]]:
    """ms per runner and query over `runs` warm runs (runners alternate per query)."""
    samples: dict[str, dict[str, list[float]]] = {name: {} for name in runners}
    answers: dict[str, dict[str, Any]] = {name: {} for name in runners}
    for name, runner in runners.items():
        for query in queries:
            answers[name][query] = runner(query)  # warm-up, and the answer to compare
    for _ in range(runs):
        for query in queries:
            for name, runner in runners.items():
                elapsed, _ = timed(lambda r=runner, q=query: r(q))
                samples[name].setdefault(query, []).append(elapsed)
    return samples, answers


def summary(samples: dict[str, list[float]], queries: list[str]) -> tuple[float, float]:
    """Median and p95 over every run of every query."""
    pooled = [ms for q in queries for ms in samples[q]]
    return statistics.median(pooled), percentile(pooled, 0.95)


# ------------------------------------------------------------------ sections


def section_paths(index: Path, columns: Columns, runs: int) -> None:
    paths = {cls.name: cls(index, columns) for cls in PATHS}
    runners: dict[str, Callable[[str], Any]] = {}
    for name, path in paths.items():
        runners[name] = lambda q, p=path: p.search(q)
    queries = [*MIX, AUTHOR]
    samples, answers = run_interleaved(runners, queries, runs)
    sorted_samples, _ = run_interleaved(
        {name: lambda q, p=path: p.search(q, "title") for name, path in paths.items()},
        [SORTED_QUERY],
        runs,
    )
    say(f"\n## Search paths on today's index ({runs} warm runs of each query, ms)")
    say(f"{'path':<40} {'mix median':>10} {'mix p95':>8} {'bengio':>7} {'sorted by title':>16}")
    for name in paths:
        median, p95 = summary(samples[name], MIX)
        bengio = statistics.median(samples[name][AUTHOR])
        by_title = statistics.median(sorted_samples[name][SORTED_QUERY])
        say(f"{name:<40} {median:10.1f} {p95:8.1f} {bengio:7.1f} {by_title:16.1f}")
    today, proposed = Today.name, Proposed.name
    for query in queries:
        assert sorted(answers[today][query]) == sorted(answers[proposed][query]), query
    say("(every path finds the same papers for every query)")
    say(f"\n{'query':<48} {'hits':>7} {'today ms':>9} {'proposed ms':>12}")
    for query in queries:
        say(
            f"{query:<48} {len(answers[today][query]):7,}"
            f" {statistics.median(samples[today][query]):9.1f}"
            f" {statistics.median(samples[proposed][query]):12.1f}"
        )
    for path in paths.values():
        path.close()


def section_schema(
    papers: int, reference: Path, columns: Columns, runs: int, segment_counts: list[int]
) -> None:
    indexes = {"today's schema, 1 segment": reference}
    for count in segment_counts:
        indexes[f"recommended, {count} segment(s)"] = index_folder(RECOMMENDED, papers, count)
    paths = {name: Proposed(folder, columns) for name, folder in indexes.items()}
    queries = [*MIX, AUTHOR]
    samples, answers = run_interleaved(
        {name: lambda q, p=path: p.search(q) for name, path in paths.items()}, queries, runs
    )
    say(f"\n## The proposed path on each index ({runs} warm runs, ms)")
    say(f"{'index':<36} {'mix median':>10} {'mix p95':>8} {'bengio':>7}  differences")
    base = answers["today's schema, 1 segment"]
    for name in paths:
        median, p95 = summary(samples[name], MIX)
        bengio = statistics.median(samples[name][AUTHOR])
        differ = [
            f"{q} ({len(set(answers[name][q]) ^ set(base[q]))})"
            for q in queries
            if set(answers[name][q]) != set(base[q])
        ]
        say(
            f"{name:<36} {median:10.1f} {p95:8.1f} {bengio:7.1f}  "
            + (", ".join(differ) or "none: same papers for every query")
        )
    first = paths[f"recommended, {segment_counts[0]} segment(s)"]
    page_samples, _ = run_interleaved(
        {
            "first 100 by relevance": lambda q: first.first_page(q),
            "all hits by relevance": lambda q: first.search(q),
        },
        queries,
        runs,
    )
    say(f"\n## First page before the count (recommended, {segment_counts[0]} segment(s))")
    for name, found in page_samples.items():
        median, p95 = summary(found, MIX)
        say(f"{name:<36} {median:10.1f} {p95:8.1f} {statistics.median(found[AUTHOR]):7.1f}")
    for path in paths.values():
        path.close()


def section_listing(library: Library, columns: Columns, runs: int) -> None:
    say(f"\n## The whole list sorted by title, {library.count():,} papers (ms)")
    index_sql = "CREATE INDEX IF NOT EXISTS bench_title_lower ON papers (lower(title), id)"
    cached = columns.order("title")
    variants = {
        "today: ORDER BY lower(title), id": lambda: library.sorted_ids("title"),
        "kept in memory per generation": lambda: cached,
    }
    figures = {name: [timed(v)[0] for _ in range(runs)] for name, v in variants.items()}
    with library.engine.begin() as connection:
        created, _ = timed(lambda: connection.execute(text(index_sql)))
    try:
        figures["with an index on (lower(title), id)"] = [
            timed(lambda: library.sorted_ids("title"))[0] for _ in range(runs)
        ]
    finally:
        with library.engine.begin() as connection:
            connection.execute(text("DROP INDEX bench_title_lower"))
    for name, values in figures.items():
        say(f"{name:<40} median {statistics.median(values):7.1f}  max {max(values):7.1f}")
    say(f"(creating that index took {created:.0f} ms)")


def section_parse(runs: int) -> None:
    say("\n## Parsing the mix (ms per query, median)")
    loops = max(runs, 5)
    today = [timed(lambda q=q: parse_query(q))[0] for _ in range(loops) for q in MIX]
    with cached_known_fields():
        cached = [timed(lambda q=q: parse_query(q))[0] for _ in range(loops) for q in MIX]
    say(f"today (schema built again for the field check) {statistics.median(today):7.2f}")
    say(f"field names cached                              {statistics.median(cached):7.2f}")


def section_load(index: Path, recommended: Path, columns: Columns) -> None:
    say("\n## Once per index generation (ms)")
    for label, folder in (("today's schema", index), ("recommended", recommended)):
        elapsed, path = timed(lambda f=folder: Proposed(f, columns))
        say(f"open searcher + id array, {label:<22} {elapsed:8.0f}")
        path.close()
    fresh = Columns(columns.library)
    elapsed, _ = timed(lambda: fresh.rank("title"))
    say(f"rank of every paper by title                       {elapsed:8.0f}")


def section_profile(index: Path, columns: Columns) -> None:
    today = Today(index, columns)
    for query in PROFILED:
        today.search(query)
        profiler = cProfile.Profile()
        profiler.enable()
        for _ in range(3):
            today.search(query)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
        lines = [line for line in out.getvalue().splitlines() if line.strip()]
        say(f"\n### cProfile, today's path, {query!r} x3 (top 12 by own time)")
        for line in lines[3:]:
            say(
                line.replace(str(Path(sys.prefix)), "").replace(
                    "/lib/python3.11/site-packages/", ""
                )
            )
    today.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--segments", type=int, nargs="+", default=[1, 2, 8])
    parser.add_argument(
        "--sections",
        nargs="+",
        default=["paths", "schema", "listing", "parse", "load", "profile"],
        choices=["paths", "schema", "listing", "parse", "load", "profile"],
    )
    args = parser.parse_args()
    say(f"{args.papers:,} papers; {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}")
    folder = library_folder(args.papers)
    reference = index_folder(CURRENT, args.papers, 1)
    library = Library.open(f"sqlite:///{folder / DB_FILE}", folder / DB_FILE)
    columns = Columns(library)
    columns.rank("title")  # loaded once per generation, outside the timings
    assert library.count() == args.papers
    if "paths" in args.sections:
        section_paths(reference, columns, args.runs)
    if "schema" in args.sections:
        section_schema(args.papers, reference, columns, args.runs, args.segments)
    if "listing" in args.sections:
        section_listing(library, columns, args.runs)
    if "parse" in args.sections:
        section_parse(args.runs)
    if "load" in args.sections:
        section_load(reference, index_folder(RECOMMENDED, args.papers, args.segments[0]), columns)
    if "profile" in args.sections:
        section_profile(reference, columns)
    library.close()
    say(f"\nload average at the end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Each class of query a user may type, its CPU and wall time beside the 100 ms target.

Issue 25: every query answered or refused in at most 100 ms of CPU at 100,000 papers,
whatever is typed: words that find nothing (the spelling suggestion), wildcards, long
words, odd characters, the word being typed. Each query is run through
services.searching.listing as the window runs it (typing=True: the last word is being
typed) and as the command line does, first (cold: posting lists and the vocabulary
not yet read) and then warm (the median of --runs). The CPU figure is this process's
(time.process_time): on a shared machine the wall clock measures the others too.
Called by run.py; on its own, on a library imported before:
    python bench/bench_queries.py --library DIR [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from paperdesk.core.errors import QueryError
from paperdesk.core.scope import Kind, Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import searching

TARGET_MS = 100.0
CLASSES = {
    "0 hits, misspelt (suggestion)": ["difusion", "transformr attenton", "title:difusion"],
    "0 hits, no near word": ["xyzzyq", "graph xyzzyq"],
    "a 100-letter word": ["x" * 100],
    "wildcards refused": ["*", "a*", "?", "^?]ǅßéORrating:>=4"],
    "wildcards, fuzzy": ["bandit*", "conv?rg*", "convolutonal~"],
    "the word being typed": ["graph n", "graph ne", "graph neu", "test ti"],
    "words and phrases": ["graph neural networks", '"language models"'],
}


def _timed(action: Callable[[], Any]) -> tuple[float, float, str]:
    """CPU ms, wall ms, and what came of it."""
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        found = action()
        outcome = f"{len(found.ids):,} hits" + (
            f", did you mean {found.suggestion!r}" if found.suggestion else ""
        )
    except QueryError as refused:
        outcome = f"refused: {str(refused)[:60]}"
    return (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000, outcome


def measure(desk: Desk, runs: int) -> dict[str, Any]:
    """Per class: the worst first-run CPU, the worst warm CPU and wall, each query's."""
    everything = Scope(Kind.ALL)
    found: dict[str, Any] = {}
    for name, queries in CLASSES.items():
        rows = []
        for query in queries:
            for typing in (True, False):

                def run(q: str = query, t: bool = typing) -> Any:
                    return searching.listing(desk, everything, q, typing=t)

                first_cpu, first_wall, outcome = _timed(run)
                warm = [_timed(run) for _ in range(runs)]
                rows.append(
                    {
                        "query": query,
                        "typing": typing,
                        "first_cpu_ms": first_cpu,
                        "first_wall_ms": first_wall,
                        "cpu_ms": statistics.median(cpu for cpu, _, _ in warm),
                        "wall_ms": statistics.median(wall for _, wall, _ in warm),
                        "outcome": outcome,
                    }
                )
        found[name] = rows
    return found


def report(found: dict[str, Any], say: Callable[[str], None]) -> None:
    say(f"\nquery classes, worst query of each (ms; target {TARGET_MS:.0f} ms of CPU):")
    say("| class | first run CPU / wall | warm CPU / wall | within target |")
    say("|---|---|---|---|")
    for name, rows in found.items():
        first_cpu = max(row["first_cpu_ms"] for row in rows)
        first_wall = max(row["first_wall_ms"] for row in rows)
        cpu = max(row["cpu_ms"] for row in rows)
        wall = max(row["wall_ms"] for row in rows)
        if max(first_cpu, cpu) <= TARGET_MS:
            verdict = "yes"
        elif cpu <= TARGET_MS:
            verdict = "warm yes, first run over"
        else:
            verdict = "no"
        say(f"| {name} | {first_cpu:.0f} / {first_wall:.0f} | {cpu:.0f} / {wall:.0f} | {verdict} |")
    say("\neach query, typed in the window (t) or entered (e): first CPU, warm CPU / wall:")
    for rows in found.values():
        for row in rows:
            say(
                f"  {'t' if row['typing'] else 'e'} {row['query'][:34]!r:38}"
                f" {row['first_cpu_ms']:6.1f} {row['cpu_ms']:6.1f} / {row['wall_ms']:6.1f}"
                f"  {row['outcome']}"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--library", type=Path, required=True)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with Desk.open(args.library) as desk:
        papers = desk._library.papers.count()
        searching.find_ids(desk, "graph")  # the index open, as after the first search
        found = measure(desk, args.runs)
    print(f"{papers:,} papers, load average {load:.1f} at the start")
    report(found, print)
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark the headless core: import the seed lists, first search, and (with
../shared/data present) the 13,417-paper corpus and a replicated 100,000-paper library.

Prints figures; not a test. Usage:
    python bench/bench_core.py [--papers 100000] [--skip-large]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import tempfile
import time
from pathlib import Path

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing, searching

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "data" / "corpus.jsonl"
QUERIES = [
    "test-time training",
    '"language models"',
    "graph neural",
    "tag:rnn",
    "year:2018",
    "bandit*",
]


def timed(label: str, action):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = action()
    print(f"{label:<48} {time.perf_counter() - start:8.2f} s")
    return result


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def replicate_corpus(target: Path, papers: int) -> Path:
    """The corpus repeated with fresh titles and ids until it holds `papers` records."""
    lines = CORPUS.read_text(encoding="utf-8").splitlines()
    with target.open("w", encoding="utf-8") as out:
        for n in range(papers):
            record = json.loads(lines[n % len(lines)])
            copy = n // len(lines)
            if copy:
                # Shuffled words: a replica must not look like the same paper to the
                # fuzzy duplicate matcher, or the import would merge it away.
                words = record["abstract"].split()
                random.Random(n).shuffle(words)
                record["title"] = f"{record['title']} (replica {copy})"
                record["abstract"] = " ".join(words)
                record["openreview_id"] = f"{record.get('openreview_id') or 'x'}-{copy}"
                record["url"] = None
            out.write(json.dumps(record) + "\n")
    return target


def bench_library(folder: Path, files: list[Path], label: str) -> None:
    with Desk.open(folder) as desk:
        report = timed(
            f"import {label} (stored + indexed)", lambda: importing.import_files(desk, files)
        )
        print(f"  {report.summary()}")
    desk = timed(f"reopen {label}", lambda: Desk.open(folder))
    with desk:
        for query in QUERIES:
            result = timed(f"  first search {query!r}", lambda q=query: searching.find_ids(desk, q))
            print(f"    {len(result.ids)} hits")
            timed(f"  again {query!r}", lambda q=query: searching.find_ids(desk, q))
        timed("  list all, sorted by title", lambda: searching.find_ids(desk, None, sort="title"))
        ids = searching.find_ids(desk, None).ids
        timed("  load one page of 100 papers", lambda: desk._library.papers.get_many(ids[-100:]))
    print(f"  peak memory so far {peak_mb():.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--skip-large", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        base = Path(scratch)
        bench_library(base / "seeds", sorted((ROOT / "seeds").glob("*.txt")), "2 seed lists")
        if not CORPUS.exists():
            print("../shared/data/corpus.jsonl is absent: skipping the corpus benchmarks")
            return
        bench_library(base / "corpus", [CORPUS], f"corpus ({CORPUS.name})")
        if not args.skip_large:
            big = timed(
                "replicate corpus", lambda: replicate_corpus(base / "big.jsonl", args.papers)
            )
            bench_library(base / "big", [big], f"{args.papers} papers")


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark exporting 10,000 papers in every format, through the export service.

Builds a library from the first N papers of ../shared/data/corpus.jsonl (import time is
printed but is not what this measures), then times each export. Prints figures; not a
test. Usage: python bench/bench_export.py [--papers 10000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from itertools import islice
from pathlib import Path

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import exporting, importing

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "corpus.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--papers", type=int, default=10_000)
    args = parser.parse_args()
    if not CORPUS.exists():
        print("../shared/data/corpus.jsonl is absent; nothing to measure")
        return
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        source = folder / "papers.jsonl"
        with CORPUS.open(encoding="utf-8") as corpus:
            source.write_text("".join(islice(corpus, args.papers)), encoding="utf-8")
        with Desk.open(folder / "library") as desk:
            start = time.perf_counter()
            importing.import_files(desk, [source])
            print(
                f"setup: imported {desk._library.papers.count()} papers in "
                f"{time.perf_counter() - start:.1f} s"
            )
            for name, extension in exporting.EXTENSIONS.items():
                target = folder / f"export{extension}"
                start = time.perf_counter()
                result = exporting.export(desk, exporting.Scope(), target, name)
                elapsed = time.perf_counter() - start
                size = target.stat().st_size / 1e6
                print(
                    f"export {name:<9} {result.count:>6} papers  {elapsed:6.2f} s  {size:6.1f} MB"
                )


if __name__ == "__main__":
    main()

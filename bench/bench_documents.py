"""Index documents for the search benchmarks, made once per size and cached on disk.

The papers are ../shared/data/corpus.jsonl replicated by bench_core.replicate_corpus
(fresh titles and ids, shuffled abstract words). Each becomes the IndexDocument the app
would index (services.runtime.indexing.document_for: plain text, no markup), plus a little user
data so that tag, note, rating, status and shortlist queries have something to find:
every 40th paper is tagged, every 25th has a note, every 150th is in a shortlist.

The documents are written to a JSON Lines cache under the system temp folder, so that
each benchmark variant (each in a process of its own, for its own peak memory) streams
the same documents without holding them whole. Also runnable on its own to print what
the documents hold:
    python bench/bench_documents.py --papers 100000
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict
from itertools import islice
from multiprocessing import get_context
from pathlib import Path
from typing import Any, TypeVar

from bench_core import CORPUS, replicate_corpus

from paperdesk.core.models import PaperRecord, Status
from paperdesk.formats.json_reader import read_json
from paperdesk.search.schema import IndexDocument
from paperdesk.text import to_plain

CACHE = Path(tempfile.gettempdir()) / f"paperdesk-bench-floor-{os.getuid()}"
CORPUS_PAPERS = 13_417
_TAGS = ("rnn", "ml/rnn", "ml/theory", "to-discuss")
_STATUSES = tuple(Status)
T = TypeVar("T")


def peak_mb() -> float:
    """This process's peak resident memory, in MB.

    VmHWM, not ru_maxrss: Linux carries ru_maxrss over fork and exec, so a spawned
    child would report its parent's peak if that was higher.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def folder_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file()) / 1e6


def in_fresh_process(function: Callable[..., T], *args: Any) -> T:
    """Run `function(*args)` in a newly spawned process, so its peak RSS is its own.

    Spawned, never forked: the app must not fork a Qt process, and a forked child would
    inherit the parent's peak RSS.
    """
    with ProcessPoolExecutor(1, mp_context=get_context("spawn")) as pool:
        return pool.submit(function, *args).result()


def corpus_file(papers: int) -> Path:
    """The corpus itself, or its replication to `papers` records (made once)."""
    if papers == CORPUS_PAPERS:
        return CORPUS
    target = CACHE / f"corpus-{papers}.jsonl"
    if not target.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        partial = target.with_suffix(".part")
        replicate_corpus(partial, papers)
        partial.replace(target)
    return target


def iter_records(source: Path, chunk_lines: int = 2000) -> Iterator[PaperRecord]:
    """The file's records, parsed by the app's reader a chunk of lines at a time."""
    with source.open(encoding="utf-8") as lines:
        while chunk := list(islice(lines, chunk_lines)):
            yield from read_json("".join(chunk), source.name).records


def _user_data(number: int) -> dict[str, Any]:
    tags = tuple(t for k, t in enumerate(_TAGS) if number % (40 + 7 * k) == k)
    note = f"discussed in reading group {number % 7}; check the proofs" if number % 25 == 0 else ""
    return {
        "tags": tags,
        "note": note,
        "shortlists": ("reading group",) if number % 150 == 0 else (),
        "status": _STATUSES[number % len(_STATUSES)].value,
        "rating": number % 6,
    }


def document_file(papers: int) -> Path:
    """A JSON Lines file of `papers` IndexDocuments (ids 1..papers), made once."""
    target = CACHE / f"documents-{papers}.jsonl"
    if target.exists():
        return target
    started = time.perf_counter()
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    with partial.open("w", encoding="utf-8") as out:
        for number, record in enumerate(iter_records(corpus_file(papers)), start=1):
            document = IndexDocument(
                id=number,
                title=record.title,
                abstract=to_plain(record.abstract),
                authors=record.authors,
                venue=record.venue,
                year=record.year,
                **_user_data(number),
            )
            out.write(json.dumps(asdict(document)) + "\n")
    partial.replace(target)
    print(f"(made {target.name} in {time.perf_counter() - started:.0f} s)")
    return target


def iter_documents(path: Path, start: int = 0, stop: int | None = None) -> Iterator[IndexDocument]:
    """Documents [start, stop) of a document file, streamed."""
    with path.open(encoding="utf-8") as lines:
        for line in islice(lines, start, stop):
            values = json.loads(line)
            for name in ("authors", "tags", "shortlists"):
                values[name] = tuple(values[name])
            yield IndexDocument(**values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    args = parser.parse_args()
    path = document_file(args.papers)
    counts = {"tagged": 0, "noted": 0, "shortlisted": 0, "characters": 0}
    for document in iter_documents(path):
        counts["tagged"] += bool(document.tags)
        counts["noted"] += bool(document.note)
        counts["shortlisted"] += bool(document.shortlists)
        counts["characters"] += sum(len(str(v)) for v in document.fields().values())
    print(f"{args.papers:,} documents in {path} ({path.stat().st_size / 1e6:.0f} MB)")
    for name, value in counts.items():
        print(f"  {name:<12} {value:>12,}")


if __name__ == "__main__":
    main()

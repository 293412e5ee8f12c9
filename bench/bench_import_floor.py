"""The import pipeline's floor: JSON Lines to rows stored (and visible) in SQLite.

At --papers (the corpus replicated as bench_core does), each in a freshly spawned
process so its peak RSS is its own, in one run:
- floor: streaming the file through the app's reader, then bulk Core inserts of the
  papers and their authors in one transaction (chunks of 2,000, never the whole file
  in memory); the same without `raw_fields`, with the secondary indexes built after
  the rows, and bare sqlite3 with no SQLAlchemy as the lower bound. "visible" adds
  what the table needs for its first page (all ids in order, then 100 papers);
- today: the app's own import (services.use_cases.importing.import_files) up to its commit,
  under cProfile, with the top costs;
- storage: where the bytes of today's database go (SQLite's dbstat table), and what
  building the index documents back out of the database costs.
Not a test. Usage:
    python bench/bench_import_floor.py --papers 100000 [--sections floor today storage]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import sqlite3
import sys
import tempfile
import time
import unicodedata
from collections.abc import Callable
from dataclasses import replace
from itertools import islice
from pathlib import Path
from typing import Any

from bench_documents import corpus_file, in_fresh_process, iter_records, peak_mb
from sqlalchemy import text

from paperdesk.config import DB_FILE
from paperdesk.core.text import _WORD, normalise_for_matching
from paperdesk.services.runtime import indexing
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing
from paperdesk.services.use_cases.matching import record_keys
from paperdesk.store import bulk
from paperdesk.store.library import Library

CHUNK = 2000
PAPER_INDEXES = ("title_key", "doi", "arxiv", "openreview", "status", "added", "fingerprint")


class _Stored(Exception):
    """Raised from the progress callback once today's import has committed its rows."""


def profiled(action: Callable[[], Any], how: str) -> tuple[Any, str]:
    """Run `action` under a profiler; its result and the report ("" for how="none").

    pyinstrument samples (little overhead, so the shares are fair); cProfile counts every
    call and inflates code that makes many small ones, so it runs on the CPU clock here
    (a starved process would otherwise charge the wait to whatever ran last).
    """
    if how == "pyinstrument":
        from pyinstrument import Profiler

        sampler = Profiler(interval=0.002)
        sampler.start()
        try:
            result = action()
        finally:
            sampler.stop()
        return result, sampler.output_text(
            time="percent_of_total", processor_options={"filter_threshold": 0.01}
        )
    if how == "cprofile":
        profiler = cProfile.Profile(time.process_time)
        result = profiler.runcall(action)
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("cumulative").print_stats(40)
        stats.sort_stats("tottime").print_stats(25)
        return result, out.getvalue()
    return action(), ""


def _timer() -> tuple[float, float]:
    return time.perf_counter(), time.process_time()


def _db_figures(folder: Path) -> dict[str, float]:
    database = folder / DB_FILE
    wal = database.with_name(database.name + "-wal")
    return {
        "db_mb": database.stat().st_size / 1e6,
        "wal_mb": wal.stat().st_size / 1e6 if wal.exists() else 0.0,
    }


def _first_page(library: Library) -> int:
    """What the table needs to show its first rows: every id in order, one page of papers."""
    ids = library.sorted_ids("added")
    return len(library.papers(ids[:100]))


def store_with_app_bulk(source: Path, folder: Path, how: str) -> dict[str, Any]:
    """Stream `source` into a new library with store.bulk, in one transaction.

    how: "bulk" as the app's bulk path does it; "no raw" without raw_fields;
    "indexes after" dropping the papers' secondary indexes first, rebuilding them last;
    "16k pages" with SQLite pages of 16 KiB instead of 4 KiB (set before the schema).
    """
    wall, cpu = _timer()
    folder.mkdir(parents=True)
    if how == "16k pages":
        with sqlite3.connect(folder / DB_FILE) as connection:
            connection.execute("PRAGMA page_size = 16384")
            connection.execute("VACUUM")  # an empty database takes the page size when written
        connection.close()
    library = Library.open(f"sqlite:///{folder / DB_FILE}", folder / DB_FILE)
    opened = time.perf_counter() - wall
    ids: list[int] = []
    with library.bulk_write("Import bench") as connection:
        if how == "indexes after":
            for column in PAPER_INDEXES:
                connection.execute(text(f"DROP INDEX ix_papers_{column}"))
        records = iter_records(source)
        while chunk := list(islice(records, CHUNK)):
            if how == "no raw":
                chunk = [replace(r, raw_fields=()) for r in chunk]
            ids += bulk.insert_papers(connection, chunk, [record_keys(r) for r in chunk])
        if how == "indexes after":
            for column in PAPER_INDEXES:
                connection.execute(text(f"CREATE INDEX ix_papers_{column} ON papers ({column})"))
        info = bulk.BatchInfo("bench", source.name, "0" * 64, "json")
        bulk.record_batch(connection, info, {"added": len(ids)}, ids)
    stored = time.perf_counter() - wall
    shown = _first_page(library)
    library.close()
    return {
        "opened_s": opened,
        "stored_s": stored,
        "visible_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": peak_mb(),
        "papers": len(ids),
        "shown": shown,
        **_db_figures(folder),
    }


def parse_only(source: Path, _folder: Path, _how: str) -> dict[str, Any]:
    """The app's JSON reader alone, streamed a chunk at a time (in every row above it)."""
    wall, cpu = _timer()
    papers = sum(1 for _ in iter_records(source))
    elapsed = time.perf_counter() - wall
    return {
        "opened_s": 0.0,
        "stored_s": elapsed,
        "visible_s": elapsed,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": peak_mb(),
        "papers": papers,
        "shown": 0,
        "db_mb": 0.0,
        "wal_mb": 0.0,
    }


def store_with_sqlite3(source: Path, folder: Path, _how: str) -> dict[str, Any]:
    """Lower bound: json.loads and executemany on the app's tables, no reader, no ORM."""
    wall, cpu = _timer()
    folder.mkdir(parents=True)
    Library.open(f"sqlite:///{folder / DB_FILE}", folder / DB_FILE).close()  # the schema
    opened = time.perf_counter() - wall
    connection = sqlite3.connect(folder / DB_FILE)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    stamp = "2025-01-01 00:00:00.000000"
    papers = 0
    with connection, source.open(encoding="utf-8") as lines:
        while chunk := list(islice(lines, CHUNK)):
            rows, states, authors = [], [], []
            for line in chunk:
                item = json.loads(line)
                papers += 1
                rows.append(
                    (papers, item["title"], item.get("venue"), item.get("year"),
                     item.get("abstract") or "", item.get("openreview_id"), stamp,
                     str(papers), line)
                )  # fmt: skip
                states.append((papers, stamp))
                authors += [(papers, k, name) for k, name in enumerate(item.get("authors") or [])]
            connection.executemany(
                "INSERT INTO papers (id, title, title_is_derived, venue, year, abstract,"
                " openreview, added, fingerprint, raw_fields, alternatives)"
                " VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?, ?, '{}')",
                rows,
            )
            connection.executemany(
                "INSERT INTO paper_state (paper_id, status, rating, updated)"
                " VALUES (?, 'new', 0, ?)",
                states,
            )
            connection.executemany(
                "INSERT INTO paper_authors (paper_id, position, name) VALUES (?, ?, ?)", authors
            )
    stored = time.perf_counter() - wall
    connection.close()
    return {
        "opened_s": opened,
        "stored_s": stored,
        "visible_s": stored,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": peak_mb(),
        "papers": papers,
        "shown": 0,
        **_db_figures(folder),
    }


FLOORS = {
    "reader only (parse, no database)": (parse_only, ""),
    "app bulk insert, streamed": (store_with_app_bulk, "bulk"),
    "  same, without raw_fields": (store_with_app_bulk, "no raw"),
    "  same, indexes built after": (store_with_app_bulk, "indexes after"),
    "  same, 16 KiB pages": (store_with_app_bulk, "16k pages"),
    "bare sqlite3 (json.loads, executemany)": (store_with_sqlite3, ""),
}


def import_today(source: Path, folder: Path, how: str) -> dict[str, Any]:
    """services.use_cases.importing.import_files until its commit (indexing is not timed)."""
    desk = Desk.open(folder)
    wall, cpu = _timer()

    def progress(_done: int, _total: int, message: str) -> None:
        if message.startswith("Indexing"):  # sent right after the file's commit
            raise _Stored

    def until_stored() -> None:
        try:
            importing.import_files(desk, [source], progress=progress)
        except _Stored:
            pass

    _, report = profiled(until_stored, how)
    stored = time.perf_counter() - wall
    stored_cpu = time.process_time() - cpu
    shown = _first_page(desk._library)
    visible = time.perf_counter() - wall
    papers = desk._library.count()
    documents = _time_documents(desk._library)
    desk.close()
    return {
        "stored_s": stored,
        "visible_s": visible,
        "cpu_s": stored_cpu,
        "peak_mb": peak_mb(),
        "papers": papers,
        "shown": shown,
        "documents": documents,
        "profile": report,
        **_db_figures(folder),
    }


def profile_floor(source: Path, folder: Path, how: str) -> str:
    """The floor's bulk path under a profiler: what is left to cut there."""
    _, report = profiled(lambda: store_with_app_bulk(source, folder, "bulk"), how)
    return report


def _time_documents(library: Library) -> dict[str, float]:
    """CPU seconds of building every index document back out of the database.

    "papers": Library.iter_papers (whole Paper objects, raw_fields parsed);
    "plain text": documents_for on them (markup to plain text); "lean rows": only the
    columns the index needs, authors by position, straight from SQL.
    """
    cpu = time.process_time()
    papers = 0
    plain = 0.0
    for batch in library.iter_papers():
        papers += len(batch)
        started = time.process_time()
        indexing.documents_for(batch)
        plain += time.process_time() - started
    loaded = time.process_time() - cpu - plain
    assert papers == library.count()
    cpu = time.process_time()
    with library.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT id, title, abstract, venue, year, status, rating FROM papers ORDER BY id"
        ).fetchall()
        names = connection.exec_driver_sql(
            "SELECT paper_id, name FROM paper_authors ORDER BY paper_id, position"
        ).fetchall()
    authors: dict[int, list[str]] = {}
    for paper_id, name in names:
        authors.setdefault(paper_id, []).append(name)
    assert len(rows) == papers and len(authors) <= papers
    return {
        "papers": loaded,
        "plain text": plain,
        "lean rows": time.process_time() - cpu,
    }


# ------------------------------------------------------------------ matching keys


_COMBINING = {code: None for code in range(sys.maxunicode + 1) if unicodedata.combining(chr(code))}


def normalise_translated(text: str) -> str:
    """core.text.normalise_for_matching with the per-character pass done by str.translate."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text).translate(_COMBINING)
    return " ".join(_WORD.findall(text.casefold()))


def matching_keys(source: Path, limit: int) -> list[str]:
    """CPU seconds of the match keys' text normalising, today's and with str.translate."""
    texts = [t for r in islice(iter_records(source), limit) for t in (r.title, r.abstract)]
    lines = []
    for label, function in (
        ("normalise_for_matching today", normalise_for_matching),
        ("  with str.translate for accents", normalise_translated),
    ):
        cpu = time.process_time()
        for value in texts:
            function(value)
        lines.append(f"{label:<40} {time.process_time() - cpu:7.2f} s cpu")
    same = all(normalise_for_matching(t) == normalise_translated(t) for t in texts)
    non_ascii = sum(not t.isascii() for t in texts)
    lines.append(f"({len(texts):,} titles and abstracts, {non_ascii:,} not ASCII; same: {same})")
    return lines


# ------------------------------------------------------------------ storage


def storage_breakdown(database: Path) -> list[str]:
    """Pages per table and index (dbstat), and the big columns of `papers`."""
    connection = sqlite3.connect(database)
    papers = connection.execute("SELECT COUNT(*) FROM papers").fetchone()[0]
    lines = [
        f"{'table or index':<40} {'MB':>8} {'share':>6} {'bytes/paper':>12} {'unused':>7}"
        f" {'overflow pages':>15}"
    ]
    rows = connection.execute(
        "SELECT name, SUM(pgsize), SUM(unused), SUM(pagetype = 'overflow') FROM dbstat"
        " GROUP BY name ORDER BY 2 DESC"
    ).fetchall()
    total = sum(size for _, size, _, _ in rows)
    for name, size, unused, overflow in rows:
        if size / total >= 0.002:
            lines.append(
                f"{name:<40} {size / 1e6:8.1f} {size / total:6.1%} {size / papers:12.0f}"
                f" {unused / size:7.0%} {overflow:15,}"
            )
    lines.append(f"{'all pages':<40} {total / 1e6:8.1f} {1:6.0%} {total / papers:12.0f}")
    freelist = connection.execute("PRAGMA freelist_count").fetchone()[0]
    page = connection.execute("PRAGMA page_size").fetchone()[0]
    lines.append(f"free pages: {freelist * page / 1e6:.1f} MB")
    lines.append("")
    lines.append(f"{'papers column':<40} {'MB':>8} {'bytes/paper':>12}")
    columns = [row[1] for row in connection.execute("PRAGMA table_info(papers)").fetchall()]
    sums = connection.execute(
        "SELECT " + ", ".join(f"SUM(LENGTH(CAST({c} AS BLOB)))" for c in columns) + " FROM papers"
    ).fetchone()
    for column, size in sorted(zip(columns, sums, strict=True), key=lambda p: -(p[1] or 0)):
        if size:
            lines.append(f"{column:<40} {size / 1e6:8.1f} {size / papers:12.0f}")
    redundant = _raw_fields_repeating_columns(connection)
    lines.append(
        f"raw_fields values equal to a column (abstract, title, ...): {redundant / 1e6:.1f} MB"
    )
    history = connection.execute(
        "SELECT COUNT(*), COALESCE(SUM(LENGTH(payload)), 0) FROM history"
    ).fetchone()
    lines.append(f"history: {history[0]} rows, {history[1] / 1e6:.2f} MB of payload")
    connection.close()
    return lines


def _raw_fields_repeating_columns(connection: sqlite3.Connection) -> int:
    """Bytes of raw_fields whose value is already stored verbatim in the row."""
    repeated = 0
    query = "SELECT raw_fields, title, abstract, venue, url, openreview FROM papers"
    for raw, *values in connection.execute(query):
        kept = {v for v in values if v}
        repeated += sum(len(v.encode()) for _, v in json.loads(raw) if v in kept)
    return repeated


# ------------------------------------------------------------------ main


def _has_pyinstrument() -> bool:
    try:
        import pyinstrument  # noqa: F401
    except ImportError:
        return False
    return True


def say(line: str = "") -> None:
    print(line, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument(
        "--sections",
        nargs="+",
        default=["floor", "keys", "today", "storage"],
        choices=["floor", "keys", "today", "storage"],
    )
    parser.add_argument(
        "--profiler",
        choices=["pyinstrument", "cprofile", "none"],
        default="pyinstrument" if _has_pyinstrument() else "cprofile",
        help="profiler of today's import and of the floor's bulk path",
    )
    args = parser.parse_args()
    source = corpus_file(args.papers)
    say(
        f"{args.papers:,} papers from {source.name} ({source.stat().st_size / 1e6:.0f} MB);"
        f" {os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}"
    )
    with tempfile.TemporaryDirectory(prefix="import-floor-") as name:
        scratch = Path(name)
        if "floor" in args.sections:
            say(f"\n## Stored and visible at {args.papers:,} papers (each in its own process)")
            say(
                f"{'path':<42} {'open s':>6} {'stored s':>8} {'visible s':>9} {'cpu s':>7}"
                f" {'peak MB':>8} {'db MB':>7} {'wal MB':>7}"
            )
            for number, (label, (function, how)) in enumerate(FLOORS.items()):
                figures = in_fresh_process(function, source, scratch / f"floor-{number}", how)
                assert figures["papers"] == args.papers, figures
                say(
                    f"{label:<42} {figures['opened_s']:6.1f} {figures['stored_s']:8.1f}"
                    f" {figures['visible_s']:9.1f}"
                    f" {figures['cpu_s']:7.1f} {figures['peak_mb']:8.0f}"
                    f" {figures['db_mb']:7.0f} {figures['wal_mb']:7.0f}"
                )
        if "keys" in args.sections:
            say(f"\n## Match keys of {min(args.papers, 20_000):,} records")
            for line in in_fresh_process(matching_keys, source, 20_000):
                say(line)
        if "today" in args.sections or "storage" in args.sections:
            folder = scratch / "today"
            profiler = args.profiler if "today" in args.sections else "none"
            figures = in_fresh_process(import_today, source, folder, profiler)
            say(f"\n## Today's import of {args.papers:,} papers, up to its commit")
            say(f"  stored (commit)            {figures['stored_s']:8.1f} s wall")
            say(f"  visible (first page)       {figures['visible_s']:8.1f} s wall")
            say(f"  cpu to stored              {figures['cpu_s']:8.1f} s")
            say(f"  peak RSS                   {figures['peak_mb']:8.0f} MB")
            say(
                f"  database / WAL             {figures['db_mb']:8.0f} / {figures['wal_mb']:.0f} MB"
            )
            documents = figures["documents"]
            say("  index documents from the database (a rebuild's reads), cpu:")
            say(f"    Library.iter_papers      {documents['papers']:8.1f} s")
            say(f"    documents_for (to_plain) {documents['plain text']:8.1f} s")
            say(f"    only the columns needed  {documents['lean rows']:8.1f} s (plain SQL)")
            if figures["profile"]:
                say(f"\n### {args.profiler} of today's import (to stored)\n" + figures["profile"])
                report = in_fresh_process(
                    profile_floor, source, scratch / "profiled", args.profiler
                )
                say(f"\n### {args.profiler} of the floor's bulk path\n" + report)
            if "storage" in args.sections:
                say(f"\n## Where today's database bytes go ({args.papers:,} papers)")
                for line in storage_breakdown(folder / DB_FILE):
                    say(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())

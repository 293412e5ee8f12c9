"""What `synchronous=FULL` costs per commit, against NORMAL (issue 26, item 7).

Two figures per setting: a bare SQLite commit (one ~2 KB row updated, WAL, 16 KiB pages,
as a library's database) and a user action through the services (rating one paper of
the seed library: the commit, the history record and the index update). Prints median
and p90 milliseconds per commit; not a test. Usage:
    python bench/bench_sync.py [--commits 200] [--folder DIR]

`--folder` puts the scratch files on the disk to measure (the default is the system's
temporary folder, which may be a tmpfs where fsync costs nothing).
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, importing
from paperdesk.store import db

ROOT = Path(__file__).resolve().parent.parent
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


def per_commit(commits: int, commit: Callable[[int], None]) -> tuple[float, float]:
    """Median and p90 milliseconds of `commit(n)` over `commits` calls."""
    times = []
    for n in range(commits):
        start = time.perf_counter()
        commit(n)
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return statistics.median(times), times[int(len(times) * 0.9)]


def bare_sqlite(folder: Path, setting: str, commits: int) -> tuple[float, float]:
    connection = sqlite3.connect(folder / f"bare-{setting}.sqlite3", isolation_level=None)
    connection.execute("PRAGMA page_size=16384")
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(f"PRAGMA synchronous={setting}")
    connection.execute("CREATE TABLE papers (id INTEGER PRIMARY KEY, abstract TEXT)")
    connection.executemany(
        "INSERT INTO papers VALUES (?, ?)", [(n, "x" * 2000) for n in range(1000)]
    )

    def commit(n: int) -> None:
        connection.execute("BEGIN")
        connection.execute("UPDATE papers SET abstract = ? WHERE id = ?", (f"{n}" * 2000, n))
        connection.execute("COMMIT")

    try:
        return per_commit(commits, commit)
    finally:
        connection.close()


def rating_action(folder: Path, setting: str, commits: int) -> tuple[float, float]:
    db.SYNCHRONOUS = setting  # read by every connection the library opens
    with Desk.open(folder / f"library-{setting}") as desk:
        importing.import_files(desk, SEEDS)
        ids = desk._library.papers.sorted_ids()
        return per_commit(commits, lambda n: editing.set_rating(desk, [ids[n % len(ids)]], n % 6))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=200)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.folder) as scratch:
        folder = Path(scratch)
        print(f"scratch folder: {folder} ({args.commits} commits each)")
        for setting in ("NORMAL", "FULL"):
            median, p90 = bare_sqlite(folder, setting, args.commits)
            print(f"bare SQLite commit, synchronous={setting:<6}  {median:7.2f} ms  p90 {p90:7.2f}")
        for setting in ("NORMAL", "FULL"):
            median, p90 = rating_action(folder, setting, args.commits)
            print(f"rate one paper,     synchronous={setting:<6}  {median:7.2f} ms  p90 {p90:7.2f}")


if __name__ == "__main__":
    main()

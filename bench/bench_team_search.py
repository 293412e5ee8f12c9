"""A team library's search beside a personal library's, in one run: CPU and round trips.

Issue 22 asks team searches to cost at most 1.5x local ones. Both libraries get the
seeds (the team database only if it is empty), then each query is run through
services.searching.listing as the window runs it, warm, `--runs` times; the figures
are the median CPU milliseconds of this process (time.process_time: the server's own
work and the network wait are not counted, the client's driver work is) and the SQL
statements sent per search.
    python bench/bench_team_search.py --team postgresql://alice@localhost:5432/bench
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from sqlalchemy import event

from paperdesk.core.scope import Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import demo, importing, searching

QUERIES = ["graph", "language models", "learning", "rating:>=4", "tag:none-yet", "diffusion"]


class Measured:
    """One library's searches: CPU ms of each, and the SQL statements they sent."""

    def __init__(self, desk: Desk) -> None:
        self.desk = desk
        self.times: list[float] = []
        self.statements = 0
        event.listen(desk._library._db.engine, "before_cursor_execute", self._count)

    def _count(self, *_args: object) -> None:
        self.statements += 1

    def search(self, query: str) -> None:
        started = time.process_time()
        searching.listing(self.desk, Scope(), query)
        self.times.append((time.process_time() - started) * 1000)

    def figures(self) -> tuple[float, float]:
        """Median CPU ms and statements per search."""
        return statistics.median(self.times), self.statements / len(self.times)


def measure(local: Desk, team: Desk, runs: int) -> tuple[Measured, Measured]:
    """Each query on each library in turn (so a busy moment of the machine weighs on
    both alike), after a first round that warms the index and the pool."""
    for query in QUERIES:
        searching.listing(local, Scope(), query)
        searching.listing(team, Scope(), query)
    measured = Measured(local), Measured(team)
    for _ in range(runs):
        for query in QUERIES:
            for library in measured:
                library.search(query)
    return measured


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--team", required=True, help="an empty or seeded team database")
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, Desk.open(Path(folder)) as local:
        importing.import_files(local, demo.seed_files())
        with Desk.open_team(TeamAddress.parse(args.team)) as team:
            if not searching.find_ids(team).ids:
                importing.import_files(team, demo.seed_files())
            measured = measure(local, team, args.runs)
            (local_ms, local_sql), (team_ms, team_sql) = (m.figures() for m in measured)
            papers = len(searching.find_ids(team).ids)
    print(f"{papers} papers, {len(QUERIES)} queries x {args.runs} runs, median CPU per search")
    print(f"local  {local_ms:6.2f} ms  {local_sql:4.1f} statements")
    print(f"team   {team_ms:6.2f} ms  {team_sql:4.1f} statements")
    print(f"team / local: {team_ms / local_ms:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())

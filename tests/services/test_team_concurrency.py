"""Several people triage one team library at once, each from their own process (and
their own local index): every operation is there afterwards, and each client's search
finds the tags the others added."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from paperdesk.core.models import Paper
from paperdesk.core.team_url import TeamAddress
from paperdesk.core.team_values import TeamValues
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import history, importing, searching, shortlists
from tests.postgres_server import USERS, PostgresServer
from tests.services.team_client import SHARED_TAG, SHORTLIST

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))
CLIENTS = 4
OPERATIONS_EACH = 250  # 1,000 in all


@pytest.mark.slow
def test_concurrent_clients_lose_no_operation(
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    with Desk.open_team(TeamAddress.parse(postgres_server.url(team_database))) as alice:
        assert not importing.import_files(alice, SEEDS).failed
        shortlists.create(alice, SHORTLIST)
    users = USERS[:CLIENTS]
    finished = tmp_path / "finished"
    finished.mkdir()
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    processes = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.services.team_client",
                postgres_server.url(team_database, user),
                str(seed),
                str(OPERATIONS_EACH),
                str(finished),
                str(CLIENTS),
            ],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for seed, user in enumerate(users)
    ]
    reports = []
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err
        reports.append(json.loads(out))
    assert sum(len(ops) for r in reports for ops in r["done"].values()) >= 1000

    with Desk.open_team(TeamAddress.parse(postgres_server.url(team_database))) as check:
        papers = {p.id: p for p in check._library.papers.get_many(searching.find_ids(check).ids)}
        expected_tags: dict[int, set[str]] = defaultdict(set)
        for report in reports:
            user = report["user"]
            # Notes and ratings are each user's own (store/member_values.py): every
            # line a user appended is in their note, their last rating is theirs.
            last_rating = {paper: rating for paper, rating in report["done"]["rate"]}
            for paper, tag in report["done"]["tag"]:
                expected_tags[paper].add(tag)
            for paper, rating in last_rating.items():
                assert dict(team_of(papers[paper]).ratings)[user] == rating, (user, paper)
            for paper, line in report["done"]["note"]:
                (note,) = [n for n in team_of(papers[paper]).notes if n.member == user]
                assert line in note.body.splitlines(), (paper, line)
            for (paper,) in report["done"]["shortlist"]:
                assert SHORTLIST in papers[paper].shortlists
        for paper, tags in expected_tags.items():
            assert tags <= {t.lower() for t in papers[paper].tags}, paper
        # Each append is one history row naming its user. (A tag or a shortlist place
        # someone had already added, or a rating a paper already had, changes nothing
        # and leaves no row.)
        entries = history.recent(check, 10_000)
        appends = Counter(e.actor for e in entries if e.action == "Append to note")
        for report in reports:
            assert appends[report["user"]] == len(report["done"]["note"]), report["user"]
        assert {e.actor for e in entries} == set(users)
        shared = sorted(p for p, tags in expected_tags.items() if SHARED_TAG in tags)
    # Each client caught up at the end: its own index finds the others' shared tags.
    for report in reports:
        assert report["found_shared"] == shared, report["user"]


def team_of(paper: Paper) -> TeamValues:
    assert paper.team is not None  # a team library's paper
    return paper.team

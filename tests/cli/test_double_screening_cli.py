"""`paperdesk screenings finish/conflicts/resolve` and `stats` on a blind team screening
(issue 22, "What must hold" 7), run as bob's command line against a real server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperdesk.core.scope import Kind, Scope
from paperdesk.core.team_url import TeamAddress
from paperdesk.core.triage import Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    double_screening,
    importing,
    notes,
    screenings,
    tagging,
    triage,
)
from tests.cli.test_cli import invoke
from tests.cli.test_team_cli import SEEDS, paperdesk
from tests.postgres_server import PostgresServer

ALICE = {1: Decision.KEEP, 2: Decision.DISCARD, 3: Decision.KEEP, 4: Decision.MAYBE}
BOB = {1: Decision.KEEP, 2: Decision.KEEP, 3: Decision.DISCARD, 4: Decision.MAYBE}


def screen(desk: Desk, decisions: dict[int, Decision]) -> None:
    screening = screenings.named(desk, "Pairs")
    for paper_id, decision in decisions.items():
        reason = "off topic" if decision == Decision.DISCARD else None
        triage.decide(desk, paper_id, decision, "Kept", screening=screening, reason=reason)


def test_bob_lists_the_conflicts_resolves_one_and_reads_the_agreement(
    postgres_server: PostgresServer,
    team_database: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.chdir(tmp_path)  # where bob's commands run (in this process: `invoke`)
    alice_url = postgres_server.url(team_database, "alice")
    bob_url = postgres_server.url(team_database, "bob")
    with Desk.open_team(TeamAddress.parse(alice_url)) as alice:
        assert not importing.import_files(alice, SEEDS[:1]).failed
        tagging.add_tags(alice, list(ALICE), ["pairs"])
        screenings.start(
            alice, "Pairs", scope=Scope(Kind.TAG, "pairs"), reasons=("off topic",), blind=True
        )
        screen(alice, ALICE)
        double_screening.finish(alice, screenings.named(alice, "Pairs"))
        with Desk.open_team(TeamAddress.parse(bob_url)) as bob:
            screen(bob, BOB)
            notes.set_note(bob, 2, "bob: the only method that scales")
    hidden = invoke(bob_url, "screenings", "conflicts", "Pairs", check=False)
    assert hidden.returncode != 0 and "finish it to see the conflicts" in hidden.stderr
    finished = invoke(bob_url, "screenings", "finish", "Pairs").stdout
    assert "your decisions are final" in finished
    listed = invoke(bob_url, "screenings", "conflicts", "Pairs").stdout
    assert "alice and bob: agreed on 2 of 4, Cohen's kappa 0.20" in listed
    assert "    alice: Discard (off topic)\n    bob: Keep\n        bob: the only method" in listed
    as_json = json.loads(invoke(bob_url, "screenings", "conflicts", "Pairs", "--json").stdout)
    assert [c["paper"] for c in as_json["conflicts"]] == [2, 3]
    assert as_json["agreement"][0]["kappa"] == pytest.approx(0.2)
    resolved = invoke(bob_url, "screenings", "resolve", "Pairs", "2", "keep")
    assert "Resolve: Keep to Kept: paper 2" in resolved.stdout
    settled = invoke(bob_url, "screenings", "resolve", "Pairs", "--agreed")
    assert "Settle 2 agreed papers of Pairs: 2 papers" in settled.stdout
    stats = json.loads(invoke(bob_url, "stats", "--screening", "Pairs", "--json").stdout)["triage"]
    assert [(m["member"], m["decided"], m["finished"]) for m in stats["members"]] == [
        ("alice", 4, True),
        ("bob", 4, True),
    ]
    assert stats["conflicts"] == 1  # paper 3 is left
    text = invoke(bob_url, "stats", "--screening", "Pairs").stdout
    assert "Conflicts to resolve: 1" in text


def test_a_personal_library_refuses_a_blind_screening_and_says_why(tmp_path: Path) -> None:
    refused = paperdesk(
        tmp_path,
        "triage",
        "--screening",
        "Pairs",
        "--blind",
        library=str(tmp_path / "lib"),
        check=False,
    )
    assert refused.returncode != 0
    assert "a blind screening needs a team library" in refused.stderr

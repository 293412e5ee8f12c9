"""`paperdesk triage` (the terminal loop), `paperdesk stats` and `paperdesk simulate`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli import ROOT, SEEDS, invoke, run
from tests.conftest import CORPUS_SAMPLE


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    invoke(folder, "import", *map(str, SEEDS))
    return folder


def triage(library: Path, keys: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    result = subprocess.run(
        [sys.executable, "-m", "paperdesk", "--library", str(library), "triage", *args],
        input=keys,
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def statuses(library: Path) -> dict[int, str]:
    # What the loop (a real process, reading its keys) left: read in this process.
    papers = json.loads(invoke(library, "list", "--json", "--sort", "added").stdout)
    return {p["id"]: p["status"] for p in papers}


def test_the_terminal_loop_decides_rates_tags_notes_and_undoes(library: Path) -> None:
    out = triage(
        library,
        "s\nx\n4\nt later, maths\nn read the appendix\nm\nu\nq\n",
        "--order",
        "file",
        "--shortlist",
        "Reading",
    ).stdout
    first, second, third = sorted(statuses(library))[:3]
    shown = statuses(library)
    assert shown[first] == "to-read"
    assert shown[second] == "discarded"
    assert shown[third] == "new"  # its maybe was undone
    (paper,) = json.loads(invoke(library, "show", str(third), "--json").stdout)
    assert paper["rating"] == 4 and set(paper["tags"]) == {"later", "maths"}
    assert paper["note"] == "read the appendix"
    kept = json.loads(invoke(library, "shortlist", "show", "Reading", "--json").stdout)
    assert [p["id"] for p in kept] == [first]
    assert "Undo Maybe" in out
    assert "2 of " in out.splitlines()[-1]


def test_keys_the_loop_does_not_know_list_the_keys_and_end_of_input_ends_it(library):
    out = triage(library, "zz\n", "--order", "file").stdout
    assert "s keep" in out and "q quit" in out
    assert set(statuses(library).values()) == {"new"}


def test_stats_prints_the_triage_figures_and_the_stopping_hint(library: Path) -> None:
    triage(library, "s\nx\nx\nq\n", "--order", "file")
    text = " ".join(invoke(library, "stats").stdout.split())  # lines wrap at 80 columns
    assert "3 of " in text and "2 discards in a row since the last keep" in text
    figures = json.loads(invoke(library, "stats", "--json").stdout)["triage"]
    assert figures["decisions"] == 3 and figures["relevant_found"] == 1
    assert figures["discards_since_keep"] == 2


def test_simulate_names_a_bad_rule_in_one_line(tmp_path: Path) -> None:
    result = run(
        tmp_path / "unused", "simulate", str(SEEDS[0]), "--relevant", "colour=red", check=False
    )
    assert result.returncode == 1
    assert result.stderr.strip().count("\n") == 0 and "colour=red" in result.stderr


def test_simulate_on_the_corpus_beats_random_reading(tmp_path: Path) -> None:
    out = run(
        tmp_path / "unused", "simulate", str(CORPUS_SAMPLE), "--relevant", "venue=CORL", "--json"
    ).stdout
    result = json.loads(out)
    runs = {r["method"]: r for r in result["runs"]}
    assert set(runs) == {"ours", "baseline"}
    random_read = result["random_read_to_95"]
    assert runs["ours"]["read_to_95"] < random_read / 2
    # Each replay stops at 95% recall (all WSS@95 needs): the curve ends where it got there.
    for method in runs.values():
        last_read, last_recall = method["recall_at_read"][-1]
        assert last_read == method["read_to_95"] and 0.95 <= last_recall < 1.0


RANKING_PROBE = """
import argparse, io, os, sys
from pathlib import Path
from paperdesk.cli.triage_commands import run_triage
from paperdesk.services.runtime.desk import Desk

class Keys:  # waits for the model after the keep, so the next paper is the model's
    def __init__(self, desk):
        self.desk, self.lines = desk, ["s\\n", "x\\n", "q\\n"]
    def readline(self):
        if len(self.lines) < 3:
            assert self.desk.promise.wait(60)
        return self.lines.pop(0) if self.lines else ""

desk = Desk.open(Path(sys.argv[1]))
args = argparse.Namespace(
    query=None, order="promise", shortlist="Kept", seed=None,
    screening=None, scope=None, confine=False, reasons=None,
)
code = run_triage(desk, args, Keys(desk), io.StringIO())
link = desk.promise.link()
print(code, link.pid != os.getpid(), desk.promise.latest().kind)
desk.close()
print("sklearn" in sys.modules, "scipy" in sys.modules, desk.promise.exit_code)
"""


def test_triage_by_promise_ranks_in_a_process_of_its_own(library: Path) -> None:
    """`paperdesk triage` uses the ranking's process as the window does: the command's
    own process never loads scikit-learn or SciPy, and the ranking ends with it."""
    shown = subprocess.run(
        [sys.executable, "-c", RANKING_PROBE, str(library)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONWARNINGS": "error"},
        check=True,
        timeout=300,
    )
    assert shown.stdout.split() == ["0", "True", "learnt", "False", "False", "0"], shown.stderr

"""`paperdesk triage --screening`, `paperdesk screenings` and the single-key loop at a
terminal (a pseudo-terminal here)."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.test_cli import ROOT, invoke

MOLECULES = ROOT / "tests" / "data" / "molecules.csv"
QUERY = "diffusion models for molecules"


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    invoke(folder, "import", str(MOLECULES))
    return folder


def triage(library: Path, keys: str, *args: str) -> str:
    result = subprocess.run(
        [sys.executable, "-m", "paperdesk", "--library", str(library), "triage", *args],
        input=keys,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONWARNINGS": "error"},
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result.stdout


def titles_shown(out: str) -> list[str]:
    lines = out.splitlines()
    return [lines[i + 2] for i, line in enumerate(lines) if line.startswith("─")]


def test_a_query_seeded_triage_reaches_a_relevant_paper_outside_the_hits(library: Path):
    out = triage(library, "s\ns\ns\nq\n", "--query", QUERY, "--order", "file")
    shown = titles_shown(out)
    hits = {"Diffusion models for molecules", "Equivariant diffusion models for molecules in 3D"}
    assert set(shown[:2]) == hits
    # The third paper misses a query word: the query seeded the order, it did not fence it.
    assert "12 papers to decide" in out and "Score-based generation" in shown[2]
    confined = triage(library, "q\n", "--screening", "Hits", "--query", QUERY, "--confine")
    assert "10 papers of the scope left out" in confined


def test_a_screening_is_resumed_by_name_and_listed_with_its_progress(library: Path) -> None:
    triage(library, "x\nm\nq\n", "--screening", "Review", "--scope", "all", "--order", "file")
    out = triage(library, "q\n", "--screening", "review")  # resumed, whatever the case
    assert "2 of 12 decided" in out and "file order" in out
    listed = json.loads(invoke(library, "screenings", "--json").stdout)
    assert [(s["name"], s["decided"], s["papers"]) for s in listed] == [("Review", 2, 12)]
    assert "Review: 2 of 12 decided" in invoke(library, "screenings").stdout


def test_a_discard_carries_a_reason_and_stats_give_the_prisma_counts(
    library: Path, tmp_path: Path
) -> None:
    args = ("--screening", "Review", "--scope", "all", "--order", "file")
    triage(library, "s\nx 2\nx 1\nx\nq\n", *args, "--reasons", "off topic,not generative")
    text = " ".join(invoke(library, "stats").stdout.split())
    assert "Screening 'Review': 4 of 12 papers decided" in text
    assert "excluded: not generative: 1" in text and "excluded: off topic: 1" in text
    figures = json.loads(invoke(library, "stats", "--json").stdout)["triage"]
    assert figures["prisma"]["records excluded"] == 3
    assert figures["relevant_left_interval"] is not None
    path = tmp_path / "prisma.csv"
    invoke(library, "stats", "--prisma", str(path))
    assert "records included,1" in path.read_text(encoding="utf-8")
    whole = json.loads(invoke(library, "stats", "--json", "--library-wide").stdout)["triage"]
    assert whole["screening"] is None and whole["decisions"] == 4


def read_until(fd: int, wanted: str, timeout: float = 60.0) -> str:
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted.encode() not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"waited for {wanted!r}; the terminal showed:\n{seen.decode()}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # the other end closed
                break
            seen += chunk
    return seen.decode("utf-8", "replace")


def test_at_a_terminal_the_loop_reads_single_keys_without_enter(library: Path) -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: paperdesk at a (pseudo) terminal
        os.chdir(ROOT)
        os.execvpe(
            sys.executable,
            [sys.executable, "-m", "paperdesk", "--library", str(library), "triage"]
            + ["--order", "file", "--reasons", "off topic"],
            {**os.environ, "PYTHONWARNINGS": "error"},
        )
    try:
        assert "one key a paper" in read_until(fd, "[q]uit")
        os.write(fd, b"s")  # no Enter: the key alone keeps the paper
        assert "Keep to Kept" in read_until(fd, "[q]uit")
        os.write(fd, b"x")
        assert "reason? 1 off topic" in read_until(fd, "any other key: none")
        os.write(fd, b"1")
        read_until(fd, "[q]uit")
        os.write(fd, b"q")
        tail = read_until(fd, "decided")
    finally:
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert "2 of 12 decided" in tail
    out = invoke(library, "stats", "--json").stdout
    assert json.loads(out)["triage"]["prisma"]["excluded: off topic"] == 1


REFUSAL_PROBE = """
import sys, time
from paperdesk.cli.main import main
started = time.perf_counter()
code = main(["simulate", sys.argv[1], "--relevant", sys.argv[2]])
print(code, "sklearn" in sys.modules, round(time.perf_counter() - started, 3))
"""


@pytest.mark.parametrize(
    ("rule", "says"),
    [
        ("primary_area<x", "expected FIELD=VALUE"),
        ("colour=red", "has a field 'colour'"),
        ("primary_area", "primary_area is 'generative chemistry', expected 1 or 0"),
    ],
)
def test_simulate_refuses_a_bad_rule_in_under_a_second(rule: str, says: str) -> None:
    shown = subprocess.run(
        [sys.executable, "-c", REFUSAL_PROBE, str(MOLECULES), rule],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
        timeout=60,
    )
    code, imported, seconds = shown.stdout.split()
    assert (code, imported) == ("1", "False") and float(seconds) < 1.0
    assert says in shown.stderr and shown.stderr.strip().count("\n") == 0


def test_simulate_reads_a_label_column_and_any_field_with_the_ai_chosen(tmp_path: Path) -> None:
    out = invoke(
        tmp_path / "unused",
        "simulate",
        str(MOLECULES),
        "--relevant",
        "label_included",
        "--ai",
        "ours",
        "--json",
    ).stdout
    result = json.loads(out)
    assert (result["n_relevant"], [r["method"] for r in result["runs"]]) == (4, ["ours"])
    area = invoke(
        tmp_path / "unused",
        "simulate",
        str(MOLECULES),
        "--relevant",
        "primary_area=generative chemistry",
        "--ai",
        "baseline",
    ).stdout
    assert "4 of 12 papers" in area and "baseline" in area and "\nours" not in area


def test_a_screening_exports_and_imports_as_a_labelled_dataset(library: Path, tmp_path: Path):
    triage(library, "s\nx\nx\nq\n", "--screening", "Review", "--scope", "all", "--order", "file")
    path = tmp_path / "review.csv"
    assert (
        "12 papers written" in invoke(library, "screenings", "export", "Review", str(path)).stdout
    )
    text = path.read_text(encoding="utf-8")
    assert text.splitlines()[0].endswith("label_included,exclusion_reason")
    other = tmp_path / "other"
    out = invoke(other, "screenings", "import", "From ASReview", str(path)).stdout
    assert "3 labels" in out
    listed = json.loads(invoke(other, "screenings", "--json").stdout)
    assert [(s["name"], s["decided"], s["relevant"]) for s in listed] == [("From ASReview", 3, 1)]


def test_terminal_triage_says_it_is_in_file_order_until_the_model_comes(library: Path):
    out = triage(library, "q\n", "--screening", "Ranked", "--scope", "all")
    assert "file order while the ranking prepares its first model" in out

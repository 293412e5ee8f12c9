"""kill -9 at a random moment of every kind of change: all or nothing, every time.

Each trial copies a small library, starts one command (import, tag, note, index
rebuild, export, restore), kills it with SIGKILL after a random delay (anywhere from
start-up to the end of its work), and checks that the library holds either the whole
change or none of it, that `check` finds database and index agreeing, and that the
export target is either absent or whole. The quick run tries each kind once; the slow
one (CI) makes 54 trials.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from paperdesk.core.scope import Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import reading, searching
from tests.cli.test_cli import ROOT, SEEDS, invoke

SEED_PAPERS = 38
IMPORTED = 300
LONG_NOTE = "new note " * 2000


@dataclass(frozen=True)
class Kind:
    name: str
    command: Callable[[Path, Path], list[str]]  # (library, scratch) -> arguments
    # What the library holds afterwards: "before", "after", or raises if a mix.
    outcome: Callable[[Desk, Path], str]


def _either(before: bool, after: bool, what: str) -> str:
    assert before != after, f"{what}: half applied"
    return "after" if after else "before"


def _import_outcome(desk: Desk, _scratch: Path) -> str:
    count = reading.count(desk)
    assert count in (SEED_PAPERS, SEED_PAPERS + IMPORTED), f"import: {count} papers"
    hits = searching.listing(desk, Scope(), "lockstep").ids
    assert len(hits) == count - SEED_PAPERS, "import: the index disagrees"
    return "after" if count > SEED_PAPERS else "before"


def _tag_outcome(desk: Desk, _scratch: Path) -> str:
    tagged = {p.id for p in reading.papers(desk, range(1, SEED_PAPERS + 1)) if "killed" in p.tags}
    assert tagged in (set(), set(range(1, SEED_PAPERS + 1))), f"tag: {len(tagged)} papers"
    assert set(searching.listing(desk, Scope(), "tag:killed").ids) == tagged
    return "after" if tagged else "before"


def _note_outcome(desk: Desk, _scratch: Path) -> str:
    note = reading.paper(desk, 5).note
    return _either(note == "old note", note == LONG_NOTE.strip() or note == LONG_NOTE, "note")


def _unchanged_outcome(desk: Desk, _scratch: Path) -> str:
    assert reading.count(desk) == SEED_PAPERS
    return "before"


def _export_outcome(desk: Desk, scratch: Path) -> str:
    target = scratch / "out.jsonl"
    if not target.exists():
        return "before"
    lines = target.read_text(encoding="utf-8").splitlines()
    assert len(lines) == SEED_PAPERS, f"export: a partial file of {len(lines)} lines"
    assert all(json.loads(line)["title"] for line in lines)
    return "after"


def _restore_outcome(desk: Desk, _scratch: Path) -> str:
    snap = searching.listing(desk, Scope(), "tag:snapshot").ids
    marked = "before-restore" in reading.paper(desk, 2).tags
    return _either(marked, bool(snap), "restore")


KINDS = [
    Kind("import", lambda lib, s: ["import", str(s / "extra.jsonl")], _import_outcome),
    Kind("tag", lambda lib, s: ["tag", *map(str, range(1, 39)), "--add", "killed"], _tag_outcome),
    Kind("note", lambda lib, s: ["note", "5", "--set", LONG_NOTE], _note_outcome),
    Kind("reindex", lambda lib, s: ["reindex"], _unchanged_outcome),
    Kind("export", lambda lib, s: ["export", "-o", str(s / "out.jsonl")], _export_outcome),
    Kind(
        "restore", lambda lib, s: ["restore", "--force", str(s / "snap.sqlite3")], _restore_outcome
    ),
]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library of the seeds with a note, plus the files the commands read."""
    folder = tmp_path_factory.mktemp("kill")
    library = folder / "library"
    invoke(library, "import", *map(str, SEEDS))
    invoke(library, "note", "5", "--set", "old note")
    invoke(library, "tag", "1", "--add", "snapshot")
    invoke(library, "backup", "-o", str(folder / "snap.sqlite3"))
    invoke(library, "tag", "1", "--remove", "snapshot")
    invoke(library, "tag", "2", "--add", "before-restore")
    (folder / "extra.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "title": f"Killed import paper {i}",
                    "abstract": f"A lockstep abstract number {i} " + "words " * 80,
                    "authors": ["Ada Lovelace", f"Author {i}"],
                    "year": 2025,
                }
            )
            + "\n"
            for i in range(IMPORTED)
        )
    )
    return folder


def kill_trial(base: Path, kind: Kind, delay: float, scratch: Path) -> str:
    """One trial; returns "before" or "after" (what the library holds), or fails."""
    shutil.copytree(base, scratch)
    library = scratch / "library"
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    env.pop("PAPERDESK_LIBRARY", None)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "paperdesk",
            "--library",
            str(library),
            *kind.command(library, scratch),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    _, stderr = process.communicate()
    assert b"Traceback" not in stderr, stderr.decode()
    # The next program finds the library sound (rebuilding an index a kill cut short);
    # opened in this process, as the library was never opened here before.
    checked = invoke(library, "check", check=False)
    assert checked.returncode == 0, (kind.name, delay, checked.stdout, checked.stderr)
    with Desk.open(library) as desk:
        return kind.outcome(desk, scratch)


def run_trials(base: Path, tmp_path: Path, per_kind: int, seed: int) -> Counter[tuple[str, str]]:
    chooser = random.Random(seed)
    outcomes: Counter[tuple[str, str]] = Counter()
    for round_number in range(per_kind):
        for kind in KINDS:
            # Up to 6 s: past start-up (1-3 s here) and well into each command's work.
            delay = chooser.uniform(0.2, 6.0)
            scratch = tmp_path / f"{kind.name}-{round_number}"
            outcomes[kind.name, kill_trial(base, kind, delay, scratch)] += 1
            shutil.rmtree(scratch)
    print("kill trials:", dict(outcomes))
    return outcomes


def test_one_kill_of_each_kind(base: Path, tmp_path: Path) -> None:
    outcomes = run_trials(base, tmp_path, per_kind=1, seed=13)
    assert sum(outcomes.values()) == len(KINDS)


@pytest.mark.slow
def test_fifty_four_kills(base: Path, tmp_path: Path) -> None:
    outcomes = run_trials(base, tmp_path, per_kind=9, seed=2025)
    assert sum(outcomes.values()) == 54
    # The delays reach both sides: some changes are cut off, some have landed.
    assert {side for _, side in outcomes} == {"before", "after"}

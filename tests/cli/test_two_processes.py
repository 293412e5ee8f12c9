"""Several programs on one library: every command succeeds or waits, no write is lost.

Issue 13's repro: a tag loop and a note loop in two shells, at once, used to fail 8 of
50 commands (the index was rebuilt under the other program's feet), some of them after
their change had committed.
"""

from __future__ import annotations

import subprocess
import threading
from pathlib import Path

import pytest

from paperdesk.core.scope import Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import maintenance, reading, searching
from tests.cli.test_cli import SEEDS, run


def _loop(library: Path, commands: list[list[str]], results: list[subprocess.CompletedProcess]):
    results.extend(run(library, *command, check=False) for command in commands)


def run_side_by_side(library: Path, *loops: list[list[str]]) -> list[subprocess.CompletedProcess]:
    results: list[list[subprocess.CompletedProcess]] = [[] for _ in loops]
    threads = [
        threading.Thread(target=_loop, args=(library, loop, out))
        for loop, out in zip(loops, results, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [result for out in results for result in out]


def assert_tags_and_notes_all_landed(library: Path, count: int) -> None:
    with Desk.open(library) as desk:
        tags = set(reading.paper(desk, 3).tags)
        assert {f"x{i}" for i in range(1, count + 1)} <= tags
        assert reading.paper(desk, 4).note == f"y{count}"
        assert maintenance.check(desk) == []
        # The index holds every write too, not only the database.
        for i in range(1, count + 1):
            assert searching.listing(desk, Scope(), f"tag:x{i}").ids == [3]
        assert searching.listing(desk, Scope(), f"note:y{count}").ids == [4]


def tag_and_note_loops(count: int) -> tuple[list[list[str]], list[list[str]]]:
    tags = [["tag", "3", "--add", f"x{i}"] for i in range(1, count + 1)]
    notes = [["note", "4", "--set", f"y{i}"] for i in range(1, count + 1)]
    return tags, notes


@pytest.fixture
def library(tmp_path: Path) -> Path:
    library = tmp_path / "library"
    run(library, "import", *map(str, SEEDS))
    return library


def test_a_tag_loop_beside_a_note_loop_loses_nothing(library: Path) -> None:
    results = run_side_by_side(library, *tag_and_note_loops(5))
    failed = [r.stderr for r in results if r.returncode != 0 or "Traceback" in r.stderr]
    assert failed == [] and len(results) == 10
    assert_tags_and_notes_all_landed(library, 5)


@pytest.mark.slow
def test_the_issue_repro_25_tags_beside_25_notes(library: Path) -> None:
    results = run_side_by_side(library, *tag_and_note_loops(25))
    failed = [r.stderr for r in results if r.returncode != 0 or "Traceback" in r.stderr]
    assert failed == [] and len(results) == 50
    assert_tags_and_notes_all_landed(library, 25)


@pytest.mark.slow
def test_an_import_beside_a_tag_loop(library: Path, tmp_path: Path) -> None:
    extra = tmp_path / "extra.jsonl"
    extra.write_text(
        "".join(
            f'{{"title": "Concurrent paper {i}", "abstract": "About locking number {i}.", '
            f'"authors": ["Ada Lovelace"], "year": 2025}}\n'
            for i in range(400)
        )
    )
    tags, _ = tag_and_note_loops(10)
    results = run_side_by_side(library, [["import", str(extra)]], tags)
    failed = [r.stderr for r in results if r.returncode != 0 or "Traceback" in r.stderr]
    assert failed == []
    with Desk.open(library) as desk:
        assert reading.count(desk) == 38 + 400
        assert maintenance.check(desk) == []
        assert set(reading.paper(desk, 3).tags) >= {f"x{i}" for i in range(1, 11)}

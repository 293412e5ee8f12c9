"""Planning a large import in a process of its own (services/use_cases/plan_process.py)."""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import tempfile
from pathlib import Path

import pytest

from paperdesk.core.errors import Cancelled
from paperdesk.core.models import PaperRecord
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing, plan_process, reading, searching
from paperdesk.services.use_cases.import_plan import FilePlan, plan_file


def papers_file(folder: Path, count: int, start: int = 0) -> Path:
    path = folder / "big.jsonl"
    lines = [
        json.dumps(
            {
                "title": f"Paper {n} on {' '.join(['topic'] * (n % 7))} things",
                "abstract": f"We study problem {n} " + "with care and at length. " * 20,
                "authors": [f"Author {n}", "Ada Lovelace"],
                "year": 2020 + n % 5,
                "tags": ["big"] if n % 10 == 0 else [],
            }
        )
        for n in range(start, start + count)
    ]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def records(plan: FilePlan) -> list[PaperRecord]:
    return [paper.record for chunk in plan.new_papers.chunks() for paper in chunk]


@pytest.fixture
def temp_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where plan files go, to see that none is left behind."""
    folder = tmp_path / "temp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


def test_a_file_planned_apart_imports_as_one_planned_here(
    desk: Desk, tmp_path: Path, temp_dir: Path
) -> None:
    path = papers_file(tmp_path, 300)
    # The seeds and the file's first 300 entries are in the library: 100 new, 300 met.
    importing.import_files(desk, [path])
    path = papers_file(tmp_path, 400)
    assert not plan_process.runs_apart(desk._library, path)
    here = plan_file(desk, path)
    seen: list[tuple[int, int, str]] = []
    apart = plan_process.plan_apart(desk._library.file, path, lambda *p: seen.append(p))
    assert list(temp_dir.iterdir()) == []  # its name is gone; the open file is the plan's
    assert apart.report == here.report and apart.report.added == 100
    assert apart.present_ids == here.present_ids and apart.user == here.user
    assert records(apart) == records(here)
    assert seen and "Matching big.jsonl" in seen[-1][2]
    before = reading.count(desk)
    report, _changes = importing.commit(desk, apart)
    assert reading.count(desk) == before + 100 == len(report.added_ids) + before
    assert len(searching.find_ids(desk, '"We study problem 377"').ids) == 1


def test_a_killed_planning_process_is_one_line_naming_the_file_and_changes_nothing(
    desk: Desk, tmp_path: Path, temp_dir: Path
) -> None:
    path = papers_file(tmp_path, 3000)

    def kill_it(*_progress: object) -> None:
        for child in multiprocessing.active_children():
            if child.name == "paperdesk-plan" and child.pid is not None:
                os.kill(child.pid, signal.SIGKILL)

    before, generation = reading.count(desk), desk._library.generation()
    plan = plan_process.plan_apart(desk._library.file, path, kill_it)
    report, changes = importing.commit(desk, plan)
    assert report.summary() == (
        "big.jsonl: not imported: the process reading it stopped (killed by SIGKILL); "
        "nothing from this file was imported"
    )
    assert not changes.paper_ids
    assert reading.count(desk) == before and desk._library.generation() == generation
    assert list(temp_dir.iterdir()) == []


def test_a_cancelled_planning_process_stops_and_leaves_no_file(
    desk: Desk, tmp_path: Path, temp_dir: Path
) -> None:
    path = papers_file(tmp_path, 3000)
    progressed: list[int] = []
    with pytest.raises(Cancelled):
        plan_process.plan_apart(
            desk._library.file,
            path,
            lambda done, *_: progressed.append(done),
            lambda: bool(progressed),
        )
    assert not [c for c in multiprocessing.active_children() if c.name == "paperdesk-plan"]
    assert list(temp_dir.iterdir()) == []


def test_a_large_library_plans_even_a_small_file_apart(
    desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = papers_file(tmp_path, 3)
    assert not plan_process.runs_apart(desk._library, path)
    monkeypatch.setattr(plan_process, "MIN_LIBRARY_PAPERS", reading.count(desk))
    assert plan_process.runs_apart(desk._library, path)
    monkeypatch.setattr(plan_process, "MIN_FILE_BYTES", path.stat().st_size)
    monkeypatch.setattr(plan_process, "MIN_LIBRARY_PAPERS", 10**9)
    assert plan_process.runs_apart(desk._library, path)

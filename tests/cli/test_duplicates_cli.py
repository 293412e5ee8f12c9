"""`paperdesk duplicates` as a user types it: list, mark apart, merge, undo (each
command in this process: `invoke`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli import SEEDS, invoke

TTT_START = "Self-attention performs well in long context"


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The seeds plus a later version of the TTT abstract: too different to merge on import.

    Shared by the tests of this module: each leaves it as it found it (undo, or refusal).
    """
    tmp_path = tmp_path_factory.mktemp("duplicates")
    paragraphs = SEEDS[1].read_text(encoding="utf-8").split("\n\n")
    ttt = next(p.strip() for p in paragraphs if p.startswith(TTT_START))
    first, _second, _third, rest = ttt.split(". ", 3)
    revised = f"{first}. We revisit this question with a new and rather different argument. {rest}"
    later = tmp_path / "later.txt"
    later.write_text(f"ICML 2025 camera-ready\n\n{revised}\n", encoding="utf-8")
    folder = tmp_path / "library"
    invoke(folder, "import", *map(str, SEEDS))
    assert "1 added" in invoke(folder, "import", str(later)).stdout
    return folder


def clusters(library: Path) -> list[dict[str, object]]:
    return json.loads(invoke(library, "duplicates", "--json").stdout)


def test_duplicates_are_listed_marked_apart_merged_and_undone(library: Path) -> None:
    (cluster,) = clusters(library)
    first, second = cluster["ids"]
    assert 0.85 <= cluster["confidence"] < 0.95 and cluster["keep"] == first
    assert cluster["reasons"][0].startswith("similar text")
    text = invoke(library, "duplicates").stdout
    assert f"--merge {first},{second} keeps {first}" in text
    assert max(len(line) for line in text.splitlines()) <= 80

    merged_all = invoke(library, "duplicates", "--merge-all").stdout
    assert merged_all.startswith("No duplicates with confidence 0.95 or more")

    marked = invoke(library, "duplicates", "--not-duplicates", f"{first},{second}").stdout
    assert marked.startswith(f"Mark {min(first, second)}, {max(first, second)} as not duplicates")
    assert clusters(library) == []
    invoke(library, "undo")
    assert len(clusters(library)) == 1

    out = invoke(
        library, "duplicates", "--merge", f"{second},{first}", "--keep", str(second)
    ).stdout
    assert out.startswith(f"Merge {first} into {second}")
    assert "38 papers" in invoke(library, "list").stderr
    invoke(library, "undo")
    shown = json.loads(invoke(library, "show", str(first), str(second), "--json").stdout)
    assert [p["id"] for p in shown] == [first, second]


@pytest.mark.parametrize(
    ("args", "status", "message"),
    [
        (("--merge", "12,x"), 2, "expected paper ids like 12,40"),
        (("--keep", "12"), 1, "--keep goes with --merge"),
        (("--merge", "12"), 1, "name at least two papers to merge"),
        (("--min-confidence", "2"), 1, "a confidence is between 0 and 1"),
    ],
)
def test_bad_requests_exit_with_a_message(
    library: Path, args: tuple[str, ...], status: int, message: str
) -> None:
    result = invoke(library, "duplicates", *args, check=False)
    assert result.returncode == status and message in result.stderr

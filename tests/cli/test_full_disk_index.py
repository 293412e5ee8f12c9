"""A full disk during `reindex` (issue 26, item 1), on a real small filesystem: the
rebuild is refused before it starts, naming the space it needs; the index that worked
stays in use, every later command finds it, and `reindex` works once space is freed."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.cli.test_cli import run
from tests.cli.test_read_only_and_full_disk import in_small_disk


@pytest.fixture(scope="module")
def wordy_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """600 papers of random words: an index of a few MB (no word repeats much)."""
    folder = tmp_path_factory.mktemp("full-disk-index")
    rng = random.Random(26)
    words = [
        "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(4, 9))) for _ in range(8000)
    ]
    papers = folder / "papers.jsonl"
    papers.write_text(
        "".join(
            json.dumps(
                {
                    "title": f"Paper {n} " + " ".join(rng.choices(words, k=6)),
                    "abstract": " ".join(rng.choices(words, k=120)),
                    "year": 2025,
                }
            )
            + "\n"
            for n in range(600)
        ),
        encoding="utf-8",
    )
    run(folder / "L", "import", str(papers))
    return folder / "L"


@pytest.mark.slow  # ~35 s at load 2: an import of 600 papers and seven commands
def test_a_rebuild_without_room_keeps_the_index_that_worked(
    wordy_library: Path, tmp_path: Path
) -> None:
    out = in_small_disk(
        f"""cp -r {wordy_library} $M/L && rm -rf $M/L/backups
size=$(du -sb $M/L/index | cut -f1); avail=$(df -B1 --output=avail $M | tail -1)
head -c $((avail - size)) /dev/zero > $M/filler
$P --library $M/L reindex; echo "reindex=$?"
$P --library $M/L search paper; echo "search=$?"
$P --library $M/L check; echo "check=$?"
ls $M/L/index; echo "index listed"
rm $M/filler
$P --library $M/L reindex; echo "reindex-again=$?"
$P --library $M/L check; echo "check-again=$?"
""",
        "20m",
        tmp_path,
    )
    lines = out.splitlines()
    assert "reindex=1" in lines, out
    (refusal,) = [line for line in lines if line.startswith("paperdesk: not enough space")]
    assert "to rebuild the search index in " in refusal and " MB free, " in refusal
    assert "the index that was there is kept" in refusal and "paperdesk reindex" in refusal
    assert "search=0" in lines and "-- 600 matching papers (600 in the library)" in lines
    assert "check=0" in lines and "ok: database and index agree (600 papers)" in lines
    listed = lines[: lines.index("index listed")]
    assert sorted(name for name in listed if name.startswith("gen-") or name == "rebuilding") != []
    assert "rebuilding" not in listed
    assert "reindex-again=0" in lines and "check-again=0" in lines

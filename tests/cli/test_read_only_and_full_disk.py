"""A read-only library and a full disk, on a real small filesystem.

The commands run in a private mount namespace (`unshare`) on a tmpfs of a chosen size,
remounted read-only where the test needs it: root ignores file permissions, a
read-only mount it cannot. Skipped where such namespaces are not allowed.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli import ROOT, SEEDS, invoke

PAPERDESK = f"{sys.executable} -m paperdesk"


def in_small_disk(script: str, size: str, workdir: Path) -> str:
    """Run `script` (sh) with a fresh tmpfs of `size` at $M; returns its output."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare is not installed")
    mount_point = workdir / "mnt"
    mount_point.mkdir()
    command = (
        f'M={mount_point}; P="{PAPERDESK}"; mount -t tmpfs -o size={size} tmpfs $M || exit 77\n'
    )
    result = subprocess.run(
        [unshare, "--user", "--map-root-user", "--mount", "sh", "-c", command + script],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    if result.returncode == 77 or "unshare failed" in result.stderr:
        pytest.skip(f"no private mount namespace here: {result.stderr.strip()}")
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return result.stdout + result.stderr


@pytest.fixture(scope="module")
def seeds_library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    library = tmp_path_factory.mktemp("small-disk") / "library"
    invoke(library, "import", *map(str, SEEDS))  # the set-up: no interpreter's start
    invoke(library, "tag", "1", "--add", "kept")
    return library


def test_a_read_only_library_can_be_listed_and_searched_not_changed(
    seeds_library: Path, tmp_path: Path
) -> None:
    out = in_small_disk(
        f"""cp -r {seeds_library} $M/L && mount -o remount,ro $M
$P --library $M/L list --limit 1; echo "list=$?"
$P --library $M/L search tag:kept; echo "search=$?"
$P --library $M/L tag 2 --add refused; echo "tag=$?"
$P --library $M/L check; echo "check=$?"
""",
        "8m",
        tmp_path,
    )
    lines = out.splitlines()
    notice = f"paperdesk: the library at {tmp_path}/mnt/L is read-only: it can be read, not changed"
    assert "list=0" in lines and "search=0" in lines and "check=0" in lines
    assert "tag=1" in lines
    assert f"paperdesk: the library at {tmp_path}/mnt/L is read-only: nothing was changed" in lines
    assert lines.count(notice) == 4
    assert "-- 1 matching paper (38 in the library)" in lines


def test_a_full_disk_fails_one_command_cleanly_and_none_after_space_is_freed(
    seeds_library: Path, tmp_path: Path
) -> None:
    extra = tmp_path / "extra.jsonl"
    extra.write_text(
        "".join(
            f'{{"title": "Paper that fills the disk {i}", "abstract": "{"filler words " * 60}", '
            f'"year": 2025}}\n'
            for i in range(600)
        )
    )
    out = in_small_disk(
        f"""cp -r {seeds_library} $M/L && head -c 1900000 /dev/zero > $M/filler
$P --library $M/L import {extra}; echo "import=$?"
head -c 10000000 /dev/zero > $M/filler2 2>/dev/null
$P --library $M/L backup -o $M/copy.sqlite3; echo "backup=$?"
ls -a $M | grep -c -e tmp -e copy; echo "partial files above"
rm $M/filler $M/filler2
$P --library $M/L tag 2 --add after; echo "tag=$?"
$P --library $M/L search tag:after; echo "search=$?"
$P --library $M/L backup -o $M/copy.sqlite3; echo "backup-again=$?"
$P --library $M/L check; echo "check=$?"
""",
        # The seeds' library takes about 2.1 MB (16 KiB pages, a backup, the index).
        "5m",
        tmp_path,
    )
    lines = out.splitlines()
    assert "import=1" in lines and "backup=1" in lines
    assert lines[lines.index("partial files above") - 1] == "0"
    assert any(
        "is full" in line or "disk" in line for line in lines if line.startswith("paperdesk:")
    )
    assert "tag=0" in lines and "search=0" in lines and "backup-again=0" in lines
    assert "check=0" in lines and "ok: database and index agree (38 papers)" in lines

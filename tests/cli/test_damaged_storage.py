"""A missing or damaged database, as a user meets it: one line, a backup offered, restored.

Every command (`check` too) answers a damaged database with one line on stderr naming
the file and the backup to restore, exits 1, and writes nothing; SQLite never gets to
take a deleted or emptied file for a new, empty library.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.test_cli import SEEDS, invoke, run

# A write (or `check`) reads every page first; a read reads only the pages it needs, so
# a bad page it does not reach is found by the first write or check, and from then on
# every command refuses the file (it is marked damaged).
COMMANDS = [("tag", "2", "--add", "after-damage"), ("list",), ("check",), ("search", "model")]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A library with papers and a tag; a daily backup (taken by the tag command's open,
    before the tag) and a manual one after it, the latest."""
    library = tmp_path_factory.mktemp("damage") / "pristine"
    invoke(library, "import", *map(str, SEEDS))
    invoke(library, "tag", "1", "--add", "kept")
    invoke(library, "backup")
    with sqlite3.connect(library / "library.sqlite3") as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return library


@pytest.fixture
def library(pristine: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "library"
    shutil.copytree(pristine, copy)
    return copy


def _bad_page(db: Path) -> None:
    with db.open("r+b") as stream:
        stream.seek(4096 * 4)
        stream.write(b"\xa5" * 4096 * 2)


DAMAGE: dict[str, Callable[[Path], None]] = {
    "deleted": lambda db: db.unlink(),
    "emptied": lambda db: db.write_bytes(b""),
    "cut short": lambda db: db.write_bytes(db.read_bytes()[:20000]),
    "bad header": lambda db: db.write_bytes(b"\0" * 16 + db.read_bytes()[16:]),
    "bad page": _bad_page,
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_every_command_says_one_line_and_nothing_is_written(library: Path, damage: str) -> None:
    db = library / "library.sqlite3"
    DAMAGE[damage](db)
    damaged_bytes = db.read_bytes() if db.exists() else None
    latest = sorted((library / "backups").glob("library-*.sqlite3"))[-1]
    # The first command is a real process (its exit status and stderr as a user meets
    # them); the others run in this process: the same answer without an interpreter's
    # start each (tests/cli/test_cli.py invoke).
    for command, through in zip(COMMANDS, (run, invoke, invoke, invoke), strict=True):
        result = through(library, *command, check=False)
        assert result.returncode == 1, (damage, command, result.stdout)
        lines = result.stderr.splitlines()
        assert len(lines) == 1, (damage, command, result.stderr)
        assert lines[0].startswith(f"paperdesk: the library database {db} is unusable: ")
        assert lines[0].endswith(
            f"restore the latest backup with: paperdesk --library {library} restore {latest}"
        )
    # No command wrote over the damaged file or made a new empty one in its place.
    assert (db.read_bytes() if db.exists() else None) == damaged_bytes


@pytest.mark.parametrize("damage", ["deleted", "bad page"])
def test_the_offered_backup_restores_the_library(library: Path, damage: str) -> None:
    db = library / "library.sqlite3"
    DAMAGE[damage](db)
    offered = invoke(library, "check", check=False).stderr.split(" restore ")[-1].strip()
    restored = invoke(library, "restore", offered)
    assert restored.stdout.startswith(f"restored 38 papers from {offered}")
    assert invoke(library, "check").stdout == "ok: database and index agree (38 papers)\n"
    assert invoke(library, "search", "tag:kept").stdout.split()[0] == "1"
    # The damaged file is kept aside, never deleted.
    assert bool(list(library.glob("library.sqlite3.damaged-*"))) == (damage != "deleted")


def test_a_sound_library_is_replaced_only_with_force(library: Path, tmp_path: Path) -> None:
    backup = tmp_path / "copy.sqlite3"
    invoke(library, "backup", "-o", str(backup))
    invoke(library, "tag", "3", "--add", "newer")
    refused = invoke(library, "restore", str(backup), check=False)
    assert refused.returncode == 1
    assert refused.stderr.splitlines() == [
        f"paperdesk: the library at {library} holds 38 papers, which a restore would replace: "
        "add --force to restore copy.sqlite3 all the same (the library is backed up first)"
    ]
    invoke(library, "restore", "--force", str(backup))
    assert invoke(library, "search", "tag:newer", check=False).stdout == ""
    # The library it replaced went into a backup first.
    assert list((library / "backups").glob("*-restore.sqlite3"))


def test_a_file_that_is_no_backup_is_refused_in_one_line(library: Path, tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.sqlite3"
    with sqlite3.connect(bogus) as connection:
        connection.execute("CREATE TABLE t (x)")
    result = invoke(library, "restore", str(bogus), check=False)
    assert result.returncode == 1
    assert result.stderr == (
        f"paperdesk: {bogus}: not a sound paperdesk backup (it holds no paperdesk library)\n"
    )
    assert invoke(library, "check").returncode == 0


def test_a_new_folder_is_still_a_new_library(tmp_path: Path) -> None:
    assert run(tmp_path / "fresh", "check").stdout == "ok: database and index agree (0 papers)\n"

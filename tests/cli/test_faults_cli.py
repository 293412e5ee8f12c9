"""Issue 26 at the command line: `--force` never writes inside the library folder, and
citation keys are pinned by an explicit command that undo takes back (item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_cli import SEEDS, run


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("faults") / "library"
    run(folder, "import", str(SEEDS[0]))
    return folder


def test_export_force_refuses_the_lock_and_the_backups_folder(library: Path) -> None:
    lock = library / "library.lock"
    before = lock.read_bytes()
    for target in (lock, library / "backups" / "refs.bib", library / "refs.bib"):
        result = run(
            library, "export", "-o", str(target), "--format", "bibtex", "--force", check=False
        )
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and "inside the library folder" in result.stderr
    assert lock.read_bytes() == before
    assert not (library / "refs.bib").exists() and not (library / "backups" / "refs.bib").exists()


def test_pin_keys_is_an_undo_step(library: Path, tmp_path: Path) -> None:
    run(library, "export", "-o", str(tmp_path / "before.bib"))
    assert "Pin" not in run(library, "history", "--limit", "1").stdout
    pinned = run(library, "pin-keys", "--ids", "1,2")
    assert pinned.stdout == "pinned 2 citation keys of 2 selected papers\n"
    assert "Pin 2 citation keys" in run(library, "history", "--limit", "1").stdout
    run(library, "export", "-o", str(tmp_path / "after.bib"))
    assert (tmp_path / "before.bib").read_text() == (tmp_path / "after.bib").read_text()
    assert run(library, "undo").stdout.startswith("Undo Pin 2 citation keys")

"""Issue 26 at the command line: `--force` never writes inside the library folder, and
citation keys are pinned by an explicit command that undo takes back (item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_cli import SEEDS, invoke
from tests.formats.test_reader_faults import random_words_seed_list


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("faults") / "library"
    invoke(folder, "import", str(SEEDS[0]))
    return folder


def test_export_force_refuses_the_lock_and_the_backups_folder(library: Path) -> None:
    lock = library / "library.lock"
    before = lock.read_bytes()
    for target in (lock, library / "backups" / "refs.bib", library / "refs.bib"):
        result = invoke(
            library, "export", "-o", str(target), "--format", "bibtex", "--force", check=False
        )
        assert result.returncode == 1
        assert result.stderr.count("\n") == 1 and "inside the library folder" in result.stderr
    assert lock.read_bytes() == before
    assert not (library / "refs.bib").exists() and not (library / "backups" / "refs.bib").exists()


def test_pin_keys_is_an_undo_step(library: Path, tmp_path: Path) -> None:
    invoke(library, "export", "-o", str(tmp_path / "before.bib"))
    assert "Pin" not in invoke(library, "history", "--limit", "1").stdout
    pinned = invoke(library, "pin-keys", "--ids", "1,2")
    assert pinned.stdout == "pinned 2 citation keys of 2 selected papers\n"
    assert "Pin 2 citation keys" in invoke(library, "history", "--limit", "1").stdout
    invoke(library, "export", "-o", str(tmp_path / "after.bib"))
    assert (tmp_path / "before.bib").read_text() == (tmp_path / "after.bib").read_text()
    assert invoke(library, "undo").stdout.startswith("Undo Pin 2 citation keys")


def test_a_seed_list_of_noise_is_refused_without_yes(tmp_path: Path) -> None:
    noise = random_words_seed_list(tmp_path / "noise.txt", paragraphs=60)
    library = tmp_path / "library"
    refused = invoke(library, "import", str(noise), check=False)
    assert refused.returncode == 1
    assert "only 0 of its 60 paragraphs hold a sentence" in refused.stderr
    assert "nothing was imported (`import --yes` imports it anyway)" in refused.stderr
    assert "-- 0 papers" in invoke(library, "list").stderr
    invoke(library, "import", "--yes", str(noise))
    assert "-- 60 papers" in invoke(library, "list").stderr

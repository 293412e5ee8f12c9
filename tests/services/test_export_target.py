"""An export never writes over what the user did not mean (issue 13, items 3 and 9): an
existing file, a device or a link's target need --force; the library folder, its
database and its lock never (issue 26, item 5); a killed export's temporary file goes
at the next start."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from paperdesk.config import DB_FILE, INDEX_DIR, UNFINISHED_DIR
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.scope import Scope
from paperdesk.formats.atomic import atomic_open
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import exporting


def export(desk: Desk, path: Path, **flags: bool) -> exporting.ExportResult:
    return exporting.export(desk, Scope.of_ids((1, 2)), path, "bibtex", **flags)


def test_a_new_file_is_written(desk: Desk, tmp_path: Path) -> None:
    assert export(desk, tmp_path / "new.bib").count == 2


def test_an_existing_file_needs_force_or_the_dialog_s_yes(desk: Desk, tmp_path: Path) -> None:
    target = tmp_path / "refs.bib"
    target.write_text("my own bibliography", encoding="utf-8")
    with pytest.raises(InvalidValueError, match="already exists; give --force to replace it"):
        export(desk, target)
    assert target.read_text(encoding="utf-8") == "my own bibliography"
    export(desk, target, overwrite=True)  # the GUI, after its file dialog asked
    assert target.read_text(encoding="utf-8").startswith("@")
    target.write_text("again", encoding="utf-8")
    export(desk, target, force=True)
    assert target.read_text(encoding="utf-8").startswith("@")


@pytest.mark.parametrize("name", [DB_FILE, f"{DB_FILE}-wal", f"{INDEX_DIR}/papers.bib"])
def test_the_library_s_own_files_are_refused_even_with_force(desk: Desk, name: str) -> None:
    before = (desk.folder / DB_FILE).read_bytes()
    with pytest.raises(InvalidValueError, match="would destroy the library"):
        exporting.export(desk, Scope(), desk.folder / name, "csv", force=True)
    assert (desk.folder / DB_FILE).read_bytes() == before


@pytest.mark.parametrize("name", ["refs.bib", "library.lock", "backups/refs.bib"])
def test_nothing_is_written_inside_the_library_folder_even_with_force(
    desk: Desk, name: str
) -> None:
    inside = desk.folder / name
    inside.parent.mkdir(exist_ok=True)
    before = inside.read_bytes() if inside.exists() else None
    for force in (False, True):
        with pytest.raises(InvalidValueError, match="inside the library folder .*even with"):
            export(desk, inside, force=force)
    assert (inside.read_bytes() if inside.exists() else None) == before


def test_a_link_is_not_followed_without_force(desk: Desk, tmp_path: Path) -> None:
    real = tmp_path / "real.bib"
    real.write_text("precious", encoding="utf-8")
    link = tmp_path / "link.bib"
    link.symlink_to(real)
    with pytest.raises(InvalidValueError, match="is a link to .*real.bib; give --force"):
        export(desk, link, overwrite=True)
    assert real.read_text(encoding="utf-8") == "precious"
    export(desk, link, force=True)
    assert link.is_symlink()  # the link stays a link; the file it points to is replaced
    assert real.read_text(encoding="utf-8").startswith("@")


def test_a_device_is_written_into_only_with_force(desk: Desk) -> None:
    with pytest.raises(InvalidValueError, match="is a device or a pipe, not a file"):
        export(desk, Path("/dev/null"), overwrite=True)
    assert export(desk, Path("/dev/null"), force=True).count == 2
    assert Path("/dev/null").is_char_device()  # written into, not replaced by a file


def test_a_folder_is_no_target(desk: Desk, tmp_path: Path) -> None:
    folder = tmp_path / "a-folder.bib"
    folder.mkdir()
    with pytest.raises(InvalidValueError, match="is a folder"):
        export(desk, folder, force=True)


def test_the_cli_refuses_to_overwrite_without_force(desk: Desk, tmp_path: Path, capsys) -> None:
    from paperdesk.cli import main

    folder = desk.folder
    desk.close()
    target = tmp_path / "refs.bib"
    target.write_text("mine", encoding="utf-8")
    args = ["--library", str(folder), "export", "-o", str(target), "--ids", "1"]
    assert main(args) != 0
    assert "already exists; give --force" in capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == "mine"
    assert main([*args, "--force", "--flavour", "biblatex"]) == 0
    assert target.read_text(encoding="utf-8").startswith("@")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork to die mid-write")
def test_a_killed_export_s_temporary_file_is_removed_at_the_next_start(tmp_path: Path) -> None:
    folder = tmp_path / "library"
    Desk.open(folder).close()
    target = tmp_path / "out" / "big.bib"
    target.parent.mkdir()
    stranger = target.parent / ".big.bib.0123abcd.tmp"  # not one this library noted
    stranger.write_text("someone else's", encoding="utf-8")
    child = os.fork()
    if child == 0:  # dies inside the block, as under kill -9: no cleanup runs
        with atomic_open(target, unfinished=folder / UNFINISHED_DIR) as stream:
            stream.write("half an export")
            stream.flush()
            os._exit(0)
    os.waitpid(child, 0)
    (leftover,) = [p for p in target.parent.iterdir() if p != stranger]
    assert leftover.name.startswith(".big.bib.") and not target.exists()
    Desk.open(folder).close()
    assert sorted(p.name for p in target.parent.iterdir()) == [stranger.name]
    assert list((folder / UNFINISHED_DIR).iterdir()) == []

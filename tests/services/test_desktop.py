"""`paperdesk menu-entry`: the app in the applications menu, started by absolute path."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from paperdesk.cli.main import main
from paperdesk.config import bundled_dir
from paperdesk.services.use_cases import desktop


def test_the_menu_entry_starts_this_program_with_the_shipped_icon(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    program = tmp_path / "my venv" / "bin" / "paperdesk"
    written = desktop.install_menu_entry([str(program)])
    entry, icon = desktop.entry_paths()
    assert written == [entry, icon]
    assert entry == tmp_path / "share/applications/paperdesk.desktop"
    text = entry.read_text(encoding="utf-8")
    # A path with a blank is quoted as the Desktop Entry Specification says.
    assert f'Exec="{program}" --import %F\n' in text and f"TryExec={program}\n" in text
    assert "Icon=paperdesk\n" in text
    assert icon.read_bytes().startswith(b"<svg") or b"<svg" in icon.read_bytes()[:200]
    assert desktop.remove_menu_entry() == [entry, icon]
    assert not entry.exists() and desktop.remove_menu_entry() == []


def test_the_command_installs_and_removes_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert main(["menu-entry"]) == 0
    entry = Path(tmp_path / "share/applications/paperdesk.desktop")
    assert f"wrote {entry}" in capsys.readouterr().out
    assert "Exec=" in entry.read_text(encoding="utf-8")
    assert main(["menu-entry", "--remove"]) == 0
    assert not entry.exists()


@pytest.mark.skipif(
    shutil.which("desktop-file-validate") is None,
    reason="desktop-file-validate is not installed (Debian package desktop-file-utils)",
)
def test_the_shipped_and_the_installed_entry_pass_desktop_file_validate(tmp_path, monkeypatch):
    # Hints count too: two main categories put the app twice in some menus.
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    installed, _icon = desktop.install_menu_entry([str(tmp_path / "my venv/bin/paperdesk")])
    for entry in (bundled_dir("resources") / desktop.DESKTOP_FILE, installed):
        result = subprocess.run(
            ["desktop-file-validate", str(entry)], capture_output=True, text=True, check=False
        )
        assert (result.returncode, result.stdout + result.stderr) == (0, ""), entry


def test_the_entry_offers_the_app_for_every_format_it_imports():
    # A file manager's "Open With" lists the app only for the types named here.
    text = (bundled_dir("resources") / desktop.DESKTOP_FILE).read_text(encoding="utf-8")
    declared = re.search(r"(?m)^MimeType=(.*)$", text)
    assert declared is not None
    types = set(declared.group(1).rstrip(";").split(";"))
    bibtex, ris, csv, json = (
        "text/x-bibtex",
        "application/x-research-info-systems",
        "text/csv",
        "application/json",
    )
    assert {bibtex, ris, csv, json} <= types

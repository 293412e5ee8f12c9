"""Hostile files on the command line: a one-line message and a non-zero exit where
nothing can be imported, never a traceback, bounded memory (issue 13, items 5, 8, 9)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.cli.test_cli import invoke, run


def test_a_file_name_that_is_not_utf8_imports_and_prints(tmp_path: Path) -> None:
    folder = os.fsencode(tmp_path)
    name = os.path.join(folder, b"refs-\xff.bib")
    with open(name, "wb") as stream:
        stream.write(b"@misc{k, title = {A Paper}}\n")
    out = run(tmp_path / "lib", "import", "--json", os.fsdecode(name)).stdout
    (report,) = json.loads(out)
    assert report["added"] == 1
    assert report["file"].endswith("refs-\ufffd.bib")


def test_dev_zero_is_refused_at_once(tmp_path: Path) -> None:
    result = run(tmp_path / "lib", "import", "/dev/zero", check=False)
    assert result.returncode != 0
    assert "/dev/zero: cannot read the file: it is a device, not a file" in result.stderr


def test_junk_named_txt_is_refused_with_a_message(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    paragraphs = (f"{n:08x} " + "0badc0de" * 20 for n in range(300))
    junk.write_text("junk\n\n" + "\n\n".join(paragraphs), encoding="utf-8")
    result = run(tmp_path / "lib", "import", str(junk), check=False)
    assert result.returncode != 0
    assert "does not look like a seed list: 300 of 300 paragraphs" in (
        result.stdout + result.stderr
    )
    assert json.loads(invoke(tmp_path / "lib", "stats", "--json").stdout)["papers"] == 0


def test_an_export_does_not_replace_a_file_without_force(tmp_path: Path) -> None:
    library = tmp_path / "lib"
    seed = Path(__file__).resolve().parents[2] / "seeds"
    invoke(library, "import", str(next(seed.glob("*.txt"))))
    target = tmp_path / "mine.bib"
    target.write_text("my bibliography", encoding="utf-8")
    result = run(library, "export", "-o", str(target), check=False)
    assert result.returncode != 0
    assert "already exists; give --force to replace it" in result.stderr
    assert target.read_text(encoding="utf-8") == "my bibliography"
    invoke(library, "export", "-o", str(target), "--force")
    assert target.read_text(encoding="ascii").startswith("@inproceedings")

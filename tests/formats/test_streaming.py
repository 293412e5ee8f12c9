"""Reading a file a chunk at a time gives what reading it whole gives."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.formats import streaming
from paperdesk.formats.registry import BackupFileError, read_file
from paperdesk.formats.streaming import open_records

LINE = {"title": "Spectral Normalization", "abstract": "On $K^2$.", "year": 2018}

# name -> file bytes; each is read both ways and must agree.
FILES: dict[str, bytes] = {
    "json lines": b"".join(
        json.dumps({**LINE, "title": f"Paper {n}"}).encode() + b"\n" for n in range(7)
    ),
    "bad lines, untitled and odd years": (
        json.dumps(LINE) + "\n{not json\n\n" + json.dumps({"abstract": "untitled"}) + "\n"
        "[1, 2]\n" + json.dumps({**LINE, "year": 12345}) + "\n"
    ).encode(),
    "windows line endings and a byte-order mark": b"\xef\xbb\xbf"
    + json.dumps(LINE).encode()
    + b"\r\n"
    + json.dumps({**LINE, "title": "Second"}).encode()
    + b"\r\n",
    "a pretty-printed object (read whole)": json.dumps(LINE, indent=2).encode(),
    "a JSON array (read whole)": json.dumps([LINE, {**LINE, "title": "Two"}]).encode(),
    "Windows-1252 (read whole)": (
        json.dumps({**LINE, "title": "Prix 5 €"}, ensure_ascii=False) + "\n"
    ).encode("cp1252"),
    "a stray NUL byte (read whole)": json.dumps(LINE).encode()
    + b"\n\0"
    + json.dumps({**LINE, "title": "After"}).encode()
    + b"\n",
    "BibTeX (read whole)": b"@article{k, title={A}, year={2020}}\n",
}


@pytest.mark.parametrize("name", list(FILES))
def test_chunks_give_the_records_problems_and_warnings_of_a_whole_read(
    name: str, tmp_path: Path
) -> None:
    path = tmp_path / "list.jsonl"
    path.write_bytes(FILES[name])
    whole = read_file(path)
    stream = open_records(path, chunk=2)
    chunks = list(stream.chunks)
    assert all(len(chunk) <= 2 for chunk in chunks)
    assert tuple(record for chunk in chunks for record in chunk) == whole.records
    assert (stream.format, stream.label) == (whole.format, whole.label)
    assert tuple(stream.problems) == whole.problems
    assert tuple(stream.warnings) == whole.warnings
    assert stream.sha256 == hashlib.sha256(FILES[name]).hexdigest()
    assert stream.records == len(whole.records) == stream.estimated_total()


def test_json_lines_are_read_without_reading_the_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "list.jsonl"
    path.write_bytes(FILES["json lines"])

    def whole(_path: Path) -> bytes:
        raise AssertionError("the file was read whole")

    monkeypatch.setattr(streaming, "load_bytes", whole)
    assert sum(len(chunk) for chunk in open_records(path, chunk=3).chunks) == 7


def test_a_file_of_bad_lines_only_says_what_was_wrong(tmp_path: Path) -> None:
    path = tmp_path / "list.jsonl"
    path.write_text(json.dumps({"abstract": "untitled"}) + "\n", encoding="utf-8")
    stream = open_records(path)
    assert list(stream.chunks) == []
    with pytest.raises(FormatError) as whole:
        read_file(path)
    assert str(stream.nothing_found()) == str(whole.value)
    assert str(whole.value).endswith("list.jsonl: no entries found; 1 skipped: line 1: no title")


def test_a_backup_on_one_line_is_refused_as_a_backup(tmp_path: Path) -> None:
    path = tmp_path / "backup.json"
    path.write_text(json.dumps({"paperdesk_backup": 1, "papers": []}) + "\n", encoding="utf-8")
    with pytest.raises(BackupFileError):
        open_records(path)


def test_a_folder_is_refused_before_reading(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="folder"):
        open_records(tmp_path)

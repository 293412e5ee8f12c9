"""Reading a file a chunk of records at a time, so an import never holds it whole.

JSON Lines, the format of paper lists with 100,000 entries (150 MB), is read a line at
a time: a first pass checks the bytes (UTF-8, no stray NUL) and takes their SHA-256,
the second decodes and reads one line after another. Every other file (a bibliography
of a few MB, a JSON array, JSON Lines in another encoding or with binary junk) is read
whole by its reader, as `registry.read_file` does, and handed out in chunks too, so
the caller has one way to read either.
"""

from __future__ import annotations

import codecs
import hashlib
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path, PurePath

from paperdesk.core.errors import FormatError
from paperdesk.core.models import BibtexDefinitions, PaperRecord
from paperdesk.formats import base
from paperdesk.formats.base import Problem, nothing_found, too_many_entries
from paperdesk.formats.field_values import within_limits
from paperdesk.formats.json_reader import FORMAT as JSON_FORMAT
from paperdesk.formats.json_reader import WHAT as JSON_WHAT
from paperdesk.formats.json_reader import is_object_line, json_lines_records
from paperdesk.formats.registry import (
    BackupFileError,
    check_readable,
    detect_format,
    load_bytes,
    printable_path,
    read_data,
)

#: The largest file read whole (every format but JSON Lines). Reading BibTeX takes about
#: eight times the file's size at its peak (27 MB: 242 MB; 59.5 MB: 502 MB); 40 MB keeps
#: a whole import under 500 MB (issue 26; docs/faults.md).
WHOLE_FILE_MAX_BYTES = 40_000_000
#: Records handed out per chunk.
CHUNK = 2000
#: Bytes read at a time by the first pass, and decoded to tell the format.
_BLOCK = 1 << 20


@dataclass
class RecordStream:
    """An open file's records, read on demand: iterate `chunks` once.

    `problems` (entries skipped) and `warnings` grow as chunks are read; `read_bytes`
    over `size` says how far reading has got.
    """

    path: Path
    format: str
    sha256: str
    size: int
    chunks: Iterator[list[PaperRecord]] = field(default_factory=lambda: iter(()))
    label: str = ""
    problems: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    records: int = 0
    read_bytes: int = 0
    what: str = "entries"
    doubt: str | None = None  # see ReadResult.doubt
    definitions: BibtexDefinitions = BibtexDefinitions()  # a BibTeX file's, see ReadResult

    def estimated_total(self) -> int:
        """How many entries the file holds, judged by how far reading has got."""
        if not self.read_bytes:
            return 0
        return max(self.records, self.records * self.size // self.read_bytes)

    def bounded(self, records: list[PaperRecord]) -> list[PaperRecord]:
        """The records within the per-entry limits (formats/field_values.py), each value
        cut or left out named in `warnings`."""
        name = printable_path(self.path)

        def bounded(record: PaperRecord) -> PaperRecord:
            def warn(reason: str) -> None:
                self.warnings.append(Problem(name, record.line, reason))

            return within_limits(record, warn)

        return [bounded(record) for record in records]

    def nothing_found(self) -> FormatError:
        """The error for a file that gave no records (call once `chunks` is exhausted)."""
        return nothing_found(printable_path(self.path), self.problems, self.what)


def open_records(path: Path, chunk: int = CHUNK) -> RecordStream:
    """The file's records, a chunk at a time; FormatError (BackupFileError for a
    paperdesk backup) when it cannot be read at all."""
    size = check_readable(path)
    head = _utf8_head(path) if size is not None else None
    if head is not None and _streams_as_json_lines(path, head):
        sha256 = _checked_sha256(path)
        if sha256 is not None:
            return _json_lines_stream(path, size or 0, sha256, chunk)
    return _whole_file_stream(path, chunk)


def _utf8_head(path: Path) -> str | None:
    """The file's first block as text, or None when it is not UTF-8 there."""
    with path.open("rb") as stream:
        block = stream.read(_BLOCK)
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    try:
        return decoder.decode(block, final=False)
    except UnicodeDecodeError:
        return None


def _streams_as_json_lines(path: Path, head: str) -> bool:
    """Whether the file is JSON Lines whose first line is an object of its own."""
    try:
        if detect_format(path, head) != JSON_FORMAT:
            return False
    except FormatError:
        return False
    first = next((line for line in head.split("\n") if line.strip()), "")
    if not is_object_line(first):
        return False  # a JSON array, or one pretty-printed object: read whole
    if '"paperdesk_backup"' in first and "paperdesk_backup" in json.loads(first):
        name = printable_path(path)
        raise BackupFileError(name, "this is a paperdesk backup: restore it instead of importing")
    return True


def _checked_sha256(path: Path) -> str | None:
    """The file's SHA-256, or None when it is not all UTF-8 or holds a NUL byte (the
    whole-file readers decode other encodings and report stray NULs by line)."""
    digest = hashlib.sha256()
    decoder = codecs.getincrementaldecoder("utf-8")()
    try:
        with path.open("rb") as stream:
            while block := stream.read(_BLOCK):
                if b"\0" in block:
                    return None
                decoder.decode(block)
                digest.update(block)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    return digest.hexdigest()


def _json_lines_stream(path: Path, size: int, sha256: str, chunk: int) -> RecordStream:
    name = printable_path(path)
    label = PurePath(name).name
    stream = RecordStream(path, JSON_FORMAT, sha256, size, label=label, what=JSON_WHAT)

    def chunks() -> Iterator[list[PaperRecord]]:
        with path.open("rb") as binary:
            # newline=None reads \r\n and \r as \n, as registry's decode does for a
            # whole file, so lines are numbered alike.
            text = io.TextIOWrapper(binary, encoding="utf-8-sig", newline=None)
            records = json_lines_records(text, name, stream.problems, stream.warnings)
            while batch := stream.bounded(list(islice(records, chunk))):
                stream.records += len(batch)
                if stream.records > base.MAX_ENTRIES:
                    raise too_many_entries(name)
                stream.read_bytes = binary.tell()
                yield batch
        stream.read_bytes = size

    stream.chunks = chunks()
    return stream


def _whole_file_stream(path: Path, chunk: int) -> RecordStream:
    """A file read whole: its size is bounded first (WHOLE_FILE_MAX_BYTES), as its
    reader holds the text, the parser's blocks and every record at once."""
    size = check_readable(path)
    if size is not None and size > WHOLE_FILE_MAX_BYTES:
        raise FormatError(
            printable_path(path),
            f"{size / 1e6:,.0f} MB: BibTeX, RIS, CSV, JSON arrays and seed lists are read "
            f"whole, up to {WHOLE_FILE_MAX_BYTES // 1_000_000} MB, to keep an import's "
            "memory bounded; split the file, or convert it to JSON Lines (read a line at "
            "a time)",
        )
    data = load_bytes(path)
    result = read_data(path, data)
    stream = RecordStream(
        path,
        result.format,
        hashlib.sha256(data).hexdigest(),
        len(data),
        label=result.label,
        problems=list(result.problems),
        warnings=list(result.warnings),
        doubt=result.doubt,
        definitions=result.definitions,
    )
    records = result.records

    def chunks() -> Iterator[list[PaperRecord]]:
        for start in range(0, len(records), chunk):
            batch = stream.bounded(list(records[start : start + chunk]))
            stream.records += len(batch)
            stream.read_bytes = len(data) * (start + len(batch)) // len(records)
            yield batch

    stream.chunks = chunks()
    return stream

"""Which reader reads a file: by its extension, unless its content clearly says otherwise.

Files arrive misnamed (BibTeX saved as `.txt`, RIS as `.bib`, JSON Lines as `.data`), so
the extension is trusted only when the content agrees with it or says nothing; content
that unmistakably belongs to another format (an `@article{` line, a `TY  - ` line, a
leading `[` or `{`) wins. A paperdesk backup is JSON too, but it is restored, not
imported: it is recognised and refused here so the caller can route it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

from paperdesk.core.errors import FormatError
from paperdesk.formats.base import ReadResult
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.csv_reader import looks_like_csv, read_csv
from paperdesk.formats.encoding import decode
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.ris_reader import read_ris
from paperdesk.formats.seedlist import looks_like_seedlist, read_seedlist

Reader = Callable[[str, str], ReadResult]

READERS: dict[str, Reader] = {
    "bibtex": read_bibtex,
    "ris": read_ris,
    "csv": read_csv,
    "json": read_json,
    "seedlist": read_seedlist,
}
FORMATS = tuple(READERS)
BACKUP = "backup"

EXTENSIONS = {
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".ris": "ris",
    ".csv": "csv",
    ".tsv": "csv",
    ".json": "json",
    ".jsonl": "json",
    ".ndjson": "json",
    ".txt": "seedlist",
}

# Markers are looked for near the top only: enough for any real header, and a 20 MB
# file is not scanned end to end just to be named.
_SNIFF_ZONE = 100_000
_BIBTEX_ENTRY = re.compile(r"^[ \t]*@[A-Za-z]+[ \t]*[{(]", re.MULTILINE)
_FIRST_CHARACTER = re.compile(r"[\ufeff\s]*(\S)")
_RIS_START = re.compile(r"^[ \t]*TY[ \t]*-[ \t]", re.MULTILINE)


class BackupFileError(FormatError):
    """The file is a paperdesk backup: it must be restored, not imported."""


def read_file(path: Path, encoding: str | None = None) -> ReadResult:
    """Read any supported file; FormatError (never another exception) when it cannot be.

    `encoding` is the user's explicit choice; without it the encoding is detected.
    """
    name = str(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise FormatError(name, f"cannot read the file: {error.strerror}") from None
    text = decode(data, name, encoding)
    format = detect_format(path, text)
    if format == BACKUP:
        raise BackupFileError(name, "this is a paperdesk backup: restore it instead of importing")
    return READERS[format](text, name)


def detect_format(path: Path, text: str) -> str:
    """A name from FORMATS, or BACKUP; FormatError when nothing fits."""
    if is_backup(text):
        return BACKUP
    by_extension = EXTENSIONS.get(path.suffix.lower())
    if by_extension is not None and _EVIDENCE[by_extension](text):
        return by_extension
    # Unmistakable whatever the file is called (a table counts once it names a title
    # column); a seed list is just paragraphs, so it never overrides an extension.
    for format in ("json", "bibtex", "ris", "csv"):
        if _EVIDENCE[format](text):
            return format
    if by_extension is not None:
        return by_extension  # the content says nothing either way: the reader will explain
    if looks_like_seedlist(text):
        return "seedlist"
    raise FormatError(
        str(path),
        "unknown file format: expected BibTeX (.bib), RIS (.ris), CSV/TSV (.csv, .tsv), "
        "JSON or JSON Lines (.json, .jsonl) or a seed list (.txt)",
    )


def is_backup(text: str) -> bool:
    """Whether the text is a paperdesk backup: a JSON object with a `paperdesk_backup` key."""
    first = _FIRST_CHARACTER.match(text)
    if first is None or first.group(1) != "{" or '"paperdesk_backup"' not in text:
        return False
    try:
        document = json.loads(text.lstrip("\ufeff"))
    except json.JSONDecodeError:
        return False
    return isinstance(document, dict) and "paperdesk_backup" in document


def _looks_like_json(text: str) -> bool:
    first = _FIRST_CHARACTER.match(text)
    return first is not None and first.group(1) in "[{"


def _looks_like_bibtex(text: str) -> bool:
    return _BIBTEX_ENTRY.search(text, 0, _SNIFF_ZONE) is not None


def _looks_like_ris(text: str) -> bool:
    return _RIS_START.search(text, 0, _SNIFF_ZONE) is not None


_EVIDENCE: dict[str, Callable[[str], bool]] = {
    "bibtex": _looks_like_bibtex,
    "ris": _looks_like_ris,
    "csv": looks_like_csv,
    "json": _looks_like_json,
    "seedlist": looks_like_seedlist,
}

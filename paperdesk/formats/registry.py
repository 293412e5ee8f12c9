"""The file formats paperdesk reads and writes: one registry per direction.

Each format says its name, a label for people, its file extensions (the first one is
what a new file gets) and the function that reads or writes it; a writer also lists the
options it understands. Everything else (import's reader choice, export's format from
a file name, the file dialogs' filters, the CLI's choices) is derived from these tables.

Files arrive misnamed (BibTeX saved as `.txt`, RIS as `.bib`, JSON Lines as `.data`), so
the extension is trusted only when the content agrees with it or says nothing; content
that unmistakably belongs to another format (an `@article{` line, a `TY  - ` line, a
leading `[` or `{`) wins. A paperdesk backup is JSON too, but it is restored, not
imported: it is recognised and refused here so the caller can route it.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import TextIO

from paperdesk.core.citekeys import DEFAULT_PATTERN
from paperdesk.core.errors import FormatError
from paperdesk.core.models import BibtexDefinitions, Paper
from paperdesk.formats import base
from paperdesk.formats.base import Problem, ReadResult, too_many_entries
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_writer import DEFAULT_FLAVOUR, write_bibtex
from paperdesk.formats.csv_reader import looks_like_csv, read_csv
from paperdesk.formats.csv_writer import write_csv
from paperdesk.formats.encoding import decode_telling, without_stray_nul_bytes
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.json_writer import write_json_records
from paperdesk.formats.markdown_writer import write_markdown
from paperdesk.formats.ris_reader import read_ris
from paperdesk.formats.ris_writer import write_ris
from paperdesk.formats.seedlist import looks_like_seedlist, read_seedlist

# A bibliography or paper list is a few MB; 100,000 papers of JSON Lines about 150 MB.
MAX_FILE_BYTES = 250_000_000
_LIMIT = f"paperdesk imports files up to {MAX_FILE_BYTES // 1_000_000:,} MB"
# Markers are looked for near the top only: enough for any real header, and a 20 MB
# file is not scanned end to end just to be named.
_SNIFF_ZONE = 100_000
_BIBTEX_ENTRY = re.compile(r"^[ \t]*@[A-Za-z]+[ \t]*[{(]", re.MULTILINE)
_FIRST_CHARACTER = re.compile(r"[\ufeff\s]*(\S)")
_RIS_START = re.compile(r"^[ \t]*TY[ \t]*-[ \t]", re.MULTILINE)


def _looks_like_json(text: str) -> bool:
    first = _FIRST_CHARACTER.match(text)
    return first is not None and first.group(1) in "[{"


def _looks_like_bibtex(text: str) -> bool:
    return _BIBTEX_ENTRY.search(text, 0, _SNIFF_ZONE) is not None


def _looks_like_ris(text: str) -> bool:
    return _RIS_START.search(text, 0, _SNIFF_ZONE) is not None


# --- readers -------------------------------------------------------------------------


@dataclass(frozen=True)
class ReaderFormat:
    name: str
    label: str
    extensions: tuple[str, ...]
    read: Callable[[str, str], ReadResult]  # (text, file name) -> records and problems
    looks_like: Callable[[str], bool]  # whether the content says it is this format


READERS: dict[str, ReaderFormat] = {
    reader.name: reader
    for reader in (
        ReaderFormat("bibtex", "BibTeX", (".bib", ".bibtex"), read_bibtex, _looks_like_bibtex),
        ReaderFormat("ris", "RIS", (".ris",), read_ris, _looks_like_ris),
        ReaderFormat("csv", "CSV/TSV", (".csv", ".tsv"), read_csv, looks_like_csv),
        ReaderFormat(
            "json",
            "JSON or JSON Lines",
            (".json", ".jsonl", ".ndjson"),
            read_json,
            _looks_like_json,
        ),
        ReaderFormat("seedlist", "a seed list", (".txt",), read_seedlist, looks_like_seedlist),
    )
}
FORMATS = tuple(READERS)
BACKUP = "backup"
BACKUP_EXTENSION = ".json"  # a backup is JSON, written by services.backup

#: File extension -> the reader it names.
EXTENSIONS = {extension: r.name for r in READERS.values() for extension in r.extensions}


# --- writers -------------------------------------------------------------------------


@dataclass(frozen=True)
class WriteOptions:
    """What a user may choose about an export; each writer reads the ones it lists."""

    flavour: str = DEFAULT_FLAVOUR  # BibTeX: "bibtex" (ASCII) or "biblatex" (UTF-8)
    excel_bom: bool = False  # CSV: a byte-order mark so Excel reads UTF-8
    key_pattern: str = DEFAULT_PATTERN  # BibTeX, CSV: keys for papers without one
    heading: str | None = None  # Markdown: the reading list's name
    # The library's tag colours, (tag, "#rrggbb"): the formats that carry them write
    # each paper's tags' colours.
    tag_colours: tuple[tuple[str, str], ...] = ()
    # BibTeX: the preambles and strings of the files the papers came from.
    definitions: BibtexDefinitions = BibtexDefinitions()


@dataclass(frozen=True)
class WriterFormat:
    name: str
    label: str
    extensions: tuple[str, ...]
    write: Callable[[Iterable[Paper], TextIO, WriteOptions], int]  # returns how many
    options: tuple[str, ...] = ()  # the WriteOptions fields it reads
    newline: str | None = None  # how the file is opened: the csv module ends its own lines


WRITERS: dict[str, WriterFormat] = {
    writer.name: writer
    for writer in (
        WriterFormat(
            "bibtex",
            "BibTeX",
            (".bib",),
            lambda papers, stream, o: write_bibtex(
                papers, stream, o.flavour, o.key_pattern, o.tag_colours, o.definitions
            ),
            options=("flavour", "key_pattern", "tag_colours", "definitions"),
        ),
        WriterFormat(
            "csv",
            "CSV spreadsheet",
            (".csv",),
            lambda papers, stream, o: write_csv(
                papers, stream, o.excel_bom, o.key_pattern, o.tag_colours
            ),
            options=("excel_bom", "key_pattern", "tag_colours"),
            newline="",
        ),
        WriterFormat(
            "markdown",
            "Markdown reading list",
            (".md",),
            lambda papers, stream, o: write_markdown(papers, stream, o.heading),
            options=("heading",),
        ),
        WriterFormat(
            "ris",
            "RIS",
            (".ris",),
            lambda papers, stream, o: write_ris(papers, stream, o.tag_colours),
            options=("tag_colours",),
        ),
        WriterFormat(
            "jsonl",
            "JSON Lines",
            (".jsonl",),
            lambda papers, stream, o: write_json_records(
                papers, stream, lines=True, tag_colours=o.tag_colours
            ),
            options=("tag_colours",),
        ),
    )
}

BACKUP_FORMAT = "json"
#: Export format name -> file extension. "json" is the lossless backup of the whole
#: library (services.backup), beside the writers' formats.
EXPORT_EXTENSIONS = {name: w.extensions[0] for name, w in WRITERS.items()} | {
    BACKUP_FORMAT: BACKUP_EXTENSION
}


# --- choosing a reader ---------------------------------------------------------------


class BackupFileError(FormatError):
    """The file is a paperdesk backup: it must be restored, not imported."""


def read_file(path: Path, encoding: str | None = None) -> ReadResult:
    """Read any supported file; FormatError (never another exception) when it cannot be.

    `encoding` is the user's explicit choice; without it the encoding is detected.
    """
    return read_data(path, load_bytes(path), encoding)


def load_bytes(path: Path) -> bytes:
    """The file's bytes, at most MAX_FILE_BYTES of them; FormatError for anything else.

    A device (`/dev/zero` never ends) or a folder is refused before reading; a pipe
    is read up to the limit, so whatever it is, memory stays bounded.
    """
    name = printable_path(path)
    check_readable(path)
    try:
        with path.open("rb") as stream:
            data = stream.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise FormatError(name, f"cannot read the file: {error.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise FormatError(name, f"more than {MAX_FILE_BYTES:,} bytes: {_LIMIT}; split it")
    return data


def check_readable(path: Path) -> int | None:
    """A regular file's size (None for a pipe, read up to the limit); FormatError for a
    folder, a device, a file over MAX_FILE_BYTES or one that cannot be opened."""
    name = printable_path(path)
    try:
        mode = path.stat().st_mode
        if stat.S_ISDIR(mode):
            raise FormatError(name, "cannot read the file: it is a folder (choose the files in it)")
        if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISSOCK(mode):
            raise FormatError(name, "cannot read the file: it is a device, not a file")
        if not stat.S_ISREG(mode):
            return None
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise FormatError(name, f"the file is too large: {_LIMIT}; split it")
        with path.open("rb"):
            return size
    except OSError as error:
        raise FormatError(name, f"cannot read the file: {error.strerror}") from None


def read_data(path: Path, data: bytes, encoding: str | None = None) -> ReadResult:
    """Read a file's bytes (see read_file): decode, find the format, read the entries.

    Stray NUL bytes (binary junk in a text file) are removed with a warning naming
    their lines, instead of making the whole file unreadable.
    """
    name = printable_path(path)
    data, nul_lines = without_stray_nul_bytes(data)
    check_entry_count(path, data)
    text, guess = decode_telling(data, name, encoding)
    format = detect_format(path, text)
    if format == BACKUP:
        raise BackupFileError(name, "this is a paperdesk backup: restore it instead of importing")
    result = READERS[format].read(text, name)
    said = [
        Problem(name, line, "a NUL byte was removed from this line (binary data in a text file?)")
        for line in nul_lines
    ]
    if guess is not None:
        said.insert(0, Problem(name, guess.line, guess.warning()))
    return replace(result, warnings=(*said, *result.warnings)) if said else result


# Where each format's entries start, counted in the bytes before a file is decoded and
# parsed (an ASCII-compatible encoding; a table's rows are counted as they are read).
_ENTRY_STARTS = {
    "bibtex": re.compile(rb"^[ \t]*@[A-Za-z]+[ \t]*[{(]", re.MULTILINE),
    "ris": re.compile(rb"^[ \t]*TY[ \t]*-", re.MULTILINE),
    "json": re.compile(rb'"title"[ \t]*:'),
    "seedlist": re.compile(rb"\n[ \t]*\n(?=[ \t]*\S)"),
}


def check_entry_count(path: Path, data: bytes) -> None:
    """FormatError when the file holds more than MAX_ENTRIES entries (formats/base.py):
    found in its bytes before anything is parsed, stopping at the first entry too many."""
    limit = base.MAX_ENTRIES
    head = data[:_SNIFF_ZONE].decode("utf-8", "replace").replace("\r", "\n")
    try:
        format = detect_format(path, head)
    except FormatError:
        return  # the reader explains
    starts = _ENTRY_STARTS.get(format)
    if starts is not None and len(list(islice(starts.finditer(data), limit + 1))) > limit:
        raise too_many_entries(printable_path(path))


def printable_path(path: Path) -> str:
    """The path as text that can be shown and stored: a byte that is not UTF-8 in a file
    name (Linux allows any) becomes U+FFFD instead of failing wherever it is printed."""
    return os.fsencode(path).decode("utf-8", "replace")


def detect_format(path: Path, text: str) -> str:
    """A name from FORMATS, or BACKUP; FormatError when nothing fits."""
    if is_backup(text):
        return BACKUP
    by_extension = EXTENSIONS.get(path.suffix.lower())
    if by_extension is not None and READERS[by_extension].looks_like(text):
        return by_extension
    # Unmistakable whatever the file is called (a table counts once it names a title
    # column); a seed list is just paragraphs, so it never overrides an extension.
    for format in ("json", "bibtex", "ris", "csv"):
        if READERS[format].looks_like(text):
            return format
    if by_extension is not None:
        return by_extension  # the content says nothing either way: the reader will explain
    if looks_like_seedlist(text):
        return "seedlist"
    known = [f"{r.label} ({', '.join(r.extensions)})" for r in READERS.values()]
    expected = ", ".join(known[:-1]) + " or " + known[-1]
    raise FormatError(str(path), f"unknown file format: expected {expected}")


def is_backup(text: str) -> bool:
    """Whether the text is a paperdesk backup: a JSON object with a `paperdesk_backup` key."""
    first = _FIRST_CHARACTER.match(text)
    if first is None or first.group(1) != "{" or '"paperdesk_backup"' not in text:
        return False
    try:
        document = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):  # not JSON, a huge number, nested too deeply
        return False
    return isinstance(document, dict) and "paperdesk_backup" in document

"""Reading BibTeX and BibLaTeX files into paper records.

bibtexparser 2 splits the file into blocks and tells which blocks failed; the values
it leaves raw, and this module evaluates them the way BibTeX does: `@string` macros
(case-insensitive, the month names predefined), `#` concatenation, braces and quotes.
A value that is not such an expression (`title = {A} author = {B}`, a missing comma)
makes its entry a Problem instead of a silently wrong record. An undefined macro
(`journal = dam`) leaves its field empty with a warning for the entry, as bibtex does;
a second entry with a key already used is kept (the importer gives it a key of its own).
Macro expansion is bounded (`MAX_VALUE_CHARS` per value, `MAX_EXPANSION_CHARS` per
file), so a doubling `@string` bomb is refused instead of filling the memory.

Display values (title, authors, venue) are converted from LaTeX to Unicode by
paperdesk.text; the evaluated fields stay in `raw_fields` with their LaTeX, for export.
The user's data (tags, note, status...) is read from the fields bibtex_writer puts it
in (see formats.bibtex_user_fields).

The file's `@preamble` texts and `@string` macros come back as its BibtexDefinitions:
the import keeps them and a BibTeX export writes them back, so that entries using the
macros a preamble defines (`\\acro`, `\\Dash`, `\\MF`) still compile.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import replace

import bibtexparser
from bibtexparser.exceptions import BlockAbortedException, ParsingException
from bibtexparser.middlewares.names import (
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from bibtexparser.model import (
    Block,
    DuplicateBlockKeyBlock,
    DuplicateFieldKeyBlock,
    Entry,
    String,
)

from paperdesk.core.errors import FormatError
from paperdesk.core.identifiers import identifiers_from
from paperdesk.core.models import BibtexDefinitions, PaperRecord
from paperdesk.formats.base import Problem, ReadResult, result_or_error
from paperdesk.formats.bibtex_user_fields import read_user_data
from paperdesk.formats.field_values import year_from_text
from paperdesk.text import decode_commands, to_plain
from paperdesk.text.latex_ascii import decode_placeholders
from paperdesk.text.preamble_macros import Macro, expand, preamble_macros

log = logging.getLogger(__name__)
# The splitter logs every aborted block as a warning, with 0-based line numbers; each
# one is already a Problem here, so the user would read it twice, once off by one.
logging.getLogger("bibtexparser.splitter").setLevel(logging.ERROR)

FORMAT = "bibtex"

# The macros every standard BibTeX style defines.
_MONTHS = {
    name[:3].lower(): name
    for name in (
        "January February March April May June July August September October November December"
    ).split()
}

# No real field comes near these; a doubling `@string` bomb passes them in ~20 steps.
MAX_VALUE_CHARS = 1_000_000
MAX_EXPANSION_CHARS = 20_000_000

_BLOCK_KIND = re.compile(r"\s*@\s*[A-Za-z]+")
_WORD = re.compile(r"[^\s#{}\",=]+")
_VENUE_FIELDS = ("booktitle", "journaltitle", "journal")
# Where a report, a thesis or a `@misc` names where it appeared (bibtex_writer writes a
# venue there for such entries); a URL in `howpublished` is no venue.
_OTHER_VENUE_FIELDS = ("institution", "school", "howpublished")
# Where the parent of a crossref/xref names itself: its own venue, else its title
# (a @proceedings' title is its children's booktitle, as biblatex maps it).
_PARENT_VENUE_FIELDS = (*_VENUE_FIELDS, "title")
# What a file's one `@proceedings` is the parent of, when they name no crossref.
_PAPERS_OF_PROCEEDINGS = frozenset({"inproceedings", "conference"})
_PARTS_OF_A_WHOLE = frozenset(
    "article inbook incollection inproceedings inreference bookinbook suppbook "
    "suppcollection suppperiodical".split()
)
# Containers, not works: a @set groups entries that are imported on their own.
_NOT_PAPERS = frozenset({"set", "xdata"})
_ID_MENTION_FIELDS = ("journal", "note", "howpublished", "eprint", "pdf")
_ARXIV_PREFIXES = {"", "arxiv"}
_URL_LIKE = re.compile(r"\\url|://|\bwww\.", re.IGNORECASE)


class _MalformedValue(ValueError):
    """A field value that is not a BibTeX expression; the message says what is wrong."""


def read_bibtex(text: str, file_name: str) -> ReadResult:
    """Records for every entry with a title; a Problem with its line for the others."""
    try:
        library = bibtexparser.parse_string(text, parse_stack=[])
    except ParsingException as error:  # the parser's own invariant broke: not a user error
        raise FormatError(file_name, f"the BibTeX parser gave up: {error}") from None

    problems: list[Problem] = []
    warnings: list[Problem] = []
    entries: list[Entry] = list(library.entries)
    redefined: list[String] = []
    for block in library.failed_blocks:
        line = _line(block)
        kept = block.ignore_error_block
        if isinstance(kept, String):
            # A macro defined again (concatenated .bib files repeat `@string{jn=...}`):
            # bibtex warns and keeps going; the definitions are read in file order below.
            redefined.append(kept)
        elif isinstance(block, DuplicateFieldKeyBlock) and isinstance(kept, Entry):
            # BibTeX itself warns and keeps the first value; one repeated `url` line
            # should not cost the user the whole paper.
            log.info("%s:%s: repeated field %s", file_name, line, sorted(block.duplicate_keys))
            entries.append(kept)
        elif isinstance(block, DuplicateBlockKeyBlock) and isinstance(kept, Entry):
            # Two papers under one key (JabRef writes `@Article{,` freely; conference
            # exports repeat keys): both are papers. The importer gives the second a
            # key of its own and says so.
            entries.append(kept)
        else:
            problems.append(Problem(file_name, line, _failure_reason(block.raw, block.error)))
    expansion = _Expansion(file_name)
    string_blocks = [*library.strings, *redefined]
    strings = _evaluate_strings(string_blocks, expansion, problems, warnings)
    definitions = _definitions(library, string_blocks, strings, expansion, problems)
    macros = preamble_macros("\n".join(definitions.preamble))

    fields_by_key: dict[str, dict[str, str]] = {}
    evaluated: list[tuple[Entry, dict[str, str], dict[str, str]]] = []
    for entry in sorted(entries, key=lambda e: e.start_line or 0):
        undefined: list[str] = []
        try:
            fields = _evaluate_fields(entry, strings, expansion, undefined)
        except _MalformedValue as error:
            problems.append(Problem(file_name, _line(entry), str(error)))
            continue
        warnings += _undefined(file_name, _line(entry), undefined)
        lowered = {key.lower(): value for key, value in fields.items()}
        fields_by_key.setdefault(entry.key.lower(), lowered)
        evaluated.append((entry, fields, lowered))

    volume = _the_proceedings(evaluated)
    records: list[PaperRecord] = []
    for entry, fields, lowered in evaluated:
        entry_type = entry.entry_type.lower()
        if entry_type in _NOT_PAPERS:
            reason = f"@{entry_type} only groups or feeds other entries; nothing to import"
            problems.append(Problem(file_name, _line(entry), reason))
            continue
        lineage = _lineage(lowered, entry.key, fields_by_key)
        if len(lineage) == 1 and entry_type in _PAPERS_OF_PROCEEDINGS and volume is not None:
            lineage.append(volume)

        def warn(reason: str, line: int | None = _line(entry)) -> None:
            warnings.append(Problem(file_name, line, reason))

        record = _record(entry, fields, lineage, warn, macros)
        if record is None and entry_type == "proceedings" and lowered is volume:
            reason = "@proceedings without a title: its venue and year go to the file's papers"
            problems.append(Problem(file_name, _line(entry), reason))
        elif record is None:
            problems.append(Problem(file_name, _line(entry), "no title"))
        else:
            records.append(record)

    problems.sort(key=lambda p: p.line or 0)
    warnings.sort(key=lambda p: p.line or 0)
    result = result_or_error(
        file_name, FORMAT, records, problems, "BibTeX entries", warnings=warnings
    )
    return replace(result, definitions=definitions) if definitions else result


def _definitions(
    library: bibtexparser.Library,
    string_blocks: list[String],
    strings: dict[str, str],
    expansion: _Expansion,
    problems: list[Problem],
) -> BibtexDefinitions:
    """The file's preambles (evaluated: they may join strings with `#`) and the
    `@string` macros it defines, each name once with its final value."""
    preamble: list[str] = []
    for block in library.preambles:
        try:
            text = _evaluate(block.value, strings, expansion, [])
        except _MalformedValue as error:
            problems.append(Problem(expansion.file_name, _line(block), f"@preamble: {error}"))
            continue
        if text.strip():
            preamble.append(text.strip())
    in_order = sorted(string_blocks, key=lambda s: s.start_line or 0)
    names = {string.key.lower(): string.key for string in in_order}
    defined = tuple((name, strings[key]) for key, name in names.items() if key in strings)
    return BibtexDefinitions(tuple(preamble), defined)


class _Expansion:
    """What `@string` macros have put into the file's values so far, and its limit."""

    def __init__(self, file_name: str) -> None:
        self.file_name = file_name
        self.spent = 0

    def spend(self, characters: int) -> None:
        self.spent += characters
        if self.spent > MAX_EXPANSION_CHARS:
            raise FormatError(
                self.file_name,
                f"@string macros expand to more than {MAX_EXPANSION_CHARS:,} characters; "
                "the file is not imported (a macro that doubles itself?)",
            )


def _line(block: Block) -> int | None:
    """The line a block starts on, counted from 1 (bibtexparser counts from 0)."""
    return None if block.start_line is None else block.start_line + 1


def _failure_reason(raw: str | None, error: Exception) -> str:
    """Why a block failed, in one line (`@misc(` and the parser's reason may span more)."""
    kind = _BLOCK_KIND.match(raw or "")
    what = kind.group(0) if kind else "block"
    reason = error.abort_reason if isinstance(error, BlockAbortedException) else str(error)
    return f"cannot read this {what}: {' '.join(reason.split())}"


def _evaluate_strings(
    definitions: list[String],
    expansion: _Expansion,
    problems: list[Problem],
    warnings: list[Problem],
) -> dict[str, str]:
    """@string macros in file order, each able to use the ones defined before it; a
    macro defined twice takes its later value, with a warning."""
    strings = dict(_MONTHS)
    defined: set[str] = set()
    for string in sorted(definitions, key=lambda s: s.start_line or 0):
        undefined: list[str] = []
        name = string.key.lower()
        if name in defined:
            reason = f"@string {string.key} is defined again: its last definition is used"
            warnings.append(Problem(expansion.file_name, _line(string), reason))
        defined.add(name)
        try:
            strings[name] = _evaluate(string.value, strings, expansion, undefined)
        except _MalformedValue as error:
            reason = f"@string {string.key}: {error}"
            problems.append(Problem(expansion.file_name, _line(string), reason))
        warnings += _undefined(expansion.file_name, _line(string), undefined)
    return strings


def _undefined(file_name: str, line: int | None, names: list[str]) -> list[Problem]:
    reason = "@string {!r} is not defined: its field is left empty, as bibtex does"
    return [Problem(file_name, line, reason.format(name)) for name in dict.fromkeys(names)]


def _evaluate_fields(
    entry: Entry, strings: dict[str, str], expansion: _Expansion, undefined: list[str]
) -> dict[str, str]:
    """The entry's fields as text, keys as written; the first of repeated keys wins."""
    fields: dict[str, str] = {}
    for field in entry.fields:
        if field.key in fields:
            continue
        try:
            value = _evaluate(field.value, strings, expansion, undefined)
        except _MalformedValue as error:
            raise _MalformedValue(f"field {field.key!r}: {error}") from None
        fields[field.key] = decode_placeholders(value)
    return fields


def _evaluate(
    raw: str, strings: dict[str, str], expansion: _Expansion, undefined: list[str]
) -> str:
    """A BibTeX value expression (`{A} # macro # "B" # 2020`) as the text it stands for.

    An undefined macro stands for nothing and is added to `undefined`; a bare word
    starting with a digit (`12--15`, which bibtex would refuse) is kept as text.
    """
    parts: list[str] = []
    length = 0
    position, end = 0, len(raw)
    expecting_operand = True
    while True:
        while position < end and raw[position].isspace():
            position += 1
        if position >= end:
            break
        char = raw[position]
        if not expecting_operand:
            if char != "#":
                rest = raw[position:].split("\n", 1)[0][:40]
                raise _MalformedValue(f"unexpected {rest!r} after the value (missing comma?)")
            position += 1
            expecting_operand = True
            continue
        if char in '{"':
            closing = _closing_delimiter(raw, position)
            part = raw[position + 1 : closing]
            position = closing + 1
        else:
            word = _WORD.match(raw, position)
            if word is None:
                raise _MalformedValue(f"unexpected {char!r} in the value")
            name = word.group(0)
            position = word.end()
            if name[0].isdigit():
                part = name
            elif name.lower() in strings:
                part = strings[name.lower()]
                expansion.spend(len(part))
            else:
                undefined.append(name)
                part = ""
        length += len(part)
        if length > MAX_VALUE_CHARS:
            raise _MalformedValue(f"longer than {MAX_VALUE_CHARS:,} characters")
        parts.append(part)
        expecting_operand = False
    if expecting_operand and parts:
        raise _MalformedValue("the value ends with '#'")
    return "".join(parts)


def _closing_delimiter(raw: str, start: int) -> int:
    """Index of the `}` or `"` that closes the group opened at `start` (braces nest).

    A delimiter right after a backslash is escaped, as bibtexparser's splitter (which
    found the value's ends) counts it.
    """
    depth = 0
    quoted = raw[start] == '"'
    index = start + 1
    while index < len(raw):
        char = raw[index]
        if char == "\\":
            index += 1
        elif char == "{":
            depth += 1
        elif char == "}":
            if depth == 0 and not quoted:
                return index
            depth -= 1
        elif char == '"' and quoted and depth == 0:
            return index
        index += 1
    raise _MalformedValue("unbalanced braces or quotes in the value")


def _the_proceedings(
    evaluated: list[tuple[Entry, dict[str, str], dict[str, str]]],
) -> dict[str, str] | None:
    """The fields of the file's one `@proceedings`, if it has exactly one: a PMLR volume's
    bibliography names its venue and year there once, and its papers cite no crossref."""
    found = [
        lowered for entry, _, lowered in evaluated if entry.entry_type.lower() == "proceedings"
    ]
    return found[0] if len(found) == 1 else None


def _lineage(
    own: dict[str, str], key: str, fields_by_key: dict[str, dict[str, str]]
) -> list[dict[str, str]]:
    """The entry's own fields, then its crossref/xref parent's, grandparent's...

    Stops at a missing parent or when the chain loops back (`circ1` -> `circ2` ->
    `circ1`), so broken references cost the inherited values, never the entry.
    """
    lineage = [own]
    seen = {key.lower()}
    parent = own.get("crossref") or own.get("xref")
    while parent and (parent_key := parent.strip().lower()) not in seen:
        seen.add(parent_key)
        fields = fields_by_key.get(parent_key)
        if fields is None:
            log.debug("crossref to missing entry %r", parent_key)
            break
        lineage.append(fields)
        parent = fields.get("crossref") or fields.get("xref")
    return lineage


def _record(
    entry: Entry,
    fields: dict[str, str],
    lineage: list[dict[str, str]],
    warn: Callable[[str], None],
    macros: dict[str, Macro],
) -> PaperRecord | None:
    """The paper an entry describes; its title, names and venue read as the document
    prints them, with the macros the file's preamble defines."""
    own, parents = lineage[0], lineage[1:]
    title = to_plain(expand(_title_field(entry.entry_type.lower(), lineage), macros))
    if not title:
        return None
    author_field = _first(lineage, ("author",))
    venue = (
        _first([own], _VENUE_FIELDS)
        or _first(parents, _PARENT_VENUE_FIELDS)
        or _first([own], _OTHER_VENUE_FIELDS, skip_urls=True)
    )
    year_text = _first(lineage, ("year",)) or _first(lineage, ("date",))
    year = year_from_text(year_text or "", warn)
    archive = (own.get("archiveprefix") or own.get("eprinttype") or "").strip().lower()
    user, derived = read_user_data(own, warn)
    return PaperRecord(
        title=title,
        abstract=own.get("abstract", "").strip(),
        authors=_authors(expand(author_field or "", macros)),
        venue=to_plain(expand(venue, macros)) if venue else None,
        year=year,
        title_is_derived=derived,
        ids=identifiers_from(
            doi=own.get("doi"),
            arxiv=own.get("arxiv")
            or own.get("arxivid")
            or (own.get("eprint") if archive in _ARXIV_PREFIXES else None),
            openreview=own.get("openreview_id") or own.get("openreview"),
            url=own.get("url"),
            mentions=[own[name] for name in _ID_MENTION_FIELDS if name in own],
        ),
        entry_type=entry.entry_type.lower(),
        raw_fields=tuple(fields.items()),
        line=_line(entry),
        citation_key=entry.key or None,
        user=user,
    )


def _title_field(entry_type: str, lineage: list[dict[str, str]]) -> str:
    """`title` (with its `subtitle`), inherited like biblatex does it.

    A part of a larger work (`@inproceedings`, `@inbook`, an `@article` in a journal)
    never takes its parent's title: that is its venue. Other children do (a
    `@softwareversion` of its `@software`, a `@book` volume of a multi-volume work).
    """
    sources = lineage[:1] if entry_type in _PARTS_OF_A_WHOLE else lineage
    for fields in sources:
        title = fields.get("title", "").strip()
        if title:
            subtitle = fields.get("subtitle", "").strip()
            return f"{title}: {subtitle}" if subtitle else title
    return ""


def _first(
    lineage: list[dict[str, str]], names: tuple[str, ...], skip_urls: bool = False
) -> str | None:
    for fields in lineage:
        for name in names:
            value = fields.get(name, "").strip()
            if value and not (skip_urls and _URL_LIKE.search(value)):
                return fields[name]
    return None


# biblatex's extended name format: `family=Vries, given=Hugo, prefix=de, useprefix=true`.
_NAME_PART = re.compile(r"\s*(family|given|prefix|suffix|useprefix)\s*=", re.IGNORECASE)
_NAME_ORDER = ("given", "prefix", "family", "suffix")


def _extended_name(name: str) -> str:
    """A biblatex `family=..., given=...` name as "given prefix family suffix"."""
    parts: dict[str, str] = {}
    depth, start = 0, 0
    for index, char in enumerate(name + ","):
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            key, _, value = name[start:index].partition("=")
            parts[key.strip().lower()] = value.strip()
            start = index + 1
    return " ".join(parts[key] for key in _NAME_ORDER if parts.get(key))


def _authors(field: str) -> tuple[str, ...]:
    """`Last, First and First Last and others` -> ("First Last", "First Last").

    `and others` is BibTeX's "et al."; the list keeps only the people it names. Commands
    are read first: the splitter takes `Jo\\~{a}o` for two words.
    """
    names = []
    for name in split_multiple_persons_names(decode_commands(field)):
        if name.strip().lower() == "others":
            continue
        if _NAME_PART.match(name):
            display = to_plain(_extended_name(name))
        else:
            parts = parse_single_name_into_parts(name, strict=False)
            display = to_plain(parts.merge_first_name_first)
        if display:
            names.append(display)
    return tuple(names)

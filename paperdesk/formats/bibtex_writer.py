"""Writing papers as a BibTeX file that bibtex, biber, bibtexparser and pybtex all accept.

Two flavours, named as users know them: `bibtex` (the default) writes pure ASCII for
classic 8-bit BibTeX and pdflatex, non-ASCII letters as accent commands and math
symbols as math (`{$\\ell_p$}`, `{$\\alpha$}`); `biblatex` writes UTF-8, for biber.
formats.bibtex_values makes each value LaTeX that cannot break the file or the LaTeX
run (balanced braces, escaped specials, no file or shell commands).

What goes where:
- entry type: the paper's own if it is a BibTeX or biblatex type (a BibTeX import),
  else its venue's (`@inproceedings` for conferences, `@article` for journals, see
  core.venues), else `@misc`; the venue, as stored ("ICML"), goes to `booktitle`,
  `journal`, `school`, `institution` or `howpublished` to match, and
  formats.bibtex_reader reads it back from there.
- key: the paper's stored key when it is valid, else one made by core.citekeys,
  unique within the file. A non-ASCII key a user's file had (`Müller2020`) is kept
  as it was, in both flavours: bibtex and pdflatex take it, and `\\cite` must find it.
  An entry without authors or editors gets a `key` field
  (its title), which natbib styles sort and label by.
- title, author, year, abstract, doi, url (http and https only, see core.links),
  eprint + archiveprefix (arXiv), openreview.
- the user's data (formats.bibtex_user_fields): `keywords` (tags), `annote` (the note)
  and `x-paperdesk-*` fields for the rest.
- a paper imported from BibTeX keeps its source's title, author and venue (already
  LaTeX) while they still say what the paper says, and its other standard fields
  (pages, volume, publisher...) verbatim; `month` is written as the bare macro
  (`month = oct`) that bibtex and biber both read. Other formats' raw fields (RIS
  tags, CSV columns, JSON keys) are not BibTeX and are not copied.
- before the entries, the `@preamble` and `@string`s of the files the papers came
  from (core.models.BibtexDefinitions): the preamble defines the macros their fields
  use (`\\acro`, `\\Dash`, `\\MF`), and may define macros (`\\providecommand`,
  `#1`) where a field may not; commands touching files or programs stay text there too.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TextIO

from bibtexparser.middlewares.names import (
    InvalidNameError,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)

from paperdesk.core.citekeys import DEFAULT_PATTERN, assign_keys
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.fields import pages
from paperdesk.core.links import safe_url
from paperdesk.core.models import BibtexDefinitions, Paper
from paperdesk.core.text import normalise_for_matching
from paperdesk.core.venues import find_venue
from paperdesk.formats.bibtex_titles import protect_title
from paperdesk.formats.bibtex_user_fields import user_fields
from paperdesk.formats.bibtex_values import escape, finish, render, verbatim
from paperdesk.text import decode_commands, to_plain
from paperdesk.text.latex_ascii import to_ascii
from paperdesk.text.latex_escape import (
    BIBTEX,
    LITERAL_CLOSE,
    LITERAL_OPEN,
    PLAIN,
    PREAMBLE,
    WEB_TEXT,
    Dialect,
    tokens_of,
)
from paperdesk.text.preamble_macros import Macro, expand, preamble_macros

FLAVOURS = ("bibtex", "biblatex")
DEFAULT_FLAVOUR = "bibtex"

# --- names --------------------------------------------------------------------------

# BibTeX splits names at a free-standing "and"; one inside a name must be braced.
_AND_WORD = re.compile(r"(?<!\S)(and)(?!\S)", re.IGNORECASE)


def _bibtex_name(name: str) -> str:
    """A "First von Last" display name as BibTeX's "von Last, Jr, First"."""
    escaped = _AND_WORD.sub(r"{\1}", render(tokens_of(name, PLAIN), ascii_only=False))
    if LITERAL_OPEN in escaped or LITERAL_CLOSE in escaped:
        return "{" + escaped + "}"  # reordering words could split a `\{...\}` pair
    try:
        parts = parse_single_name_into_parts(escaped)
    except InvalidNameError:  # commas where a name has none: keep it as one unit
        return "{" + escaped + "}"
    if not parts.last:  # ", Yi"
        return "{" + escaped + "}"
    written = " ".join(parts.von + parts.last)
    for part in (parts.jr, parts.first):
        if part:
            written += ", " + " ".join(part)
    return written


def _authors_value(authors: Sequence[str], ascii_only: bool) -> str:
    value = " and ".join(filter(None, (_bibtex_name(name) for name in authors if name.strip())))
    return finish(to_ascii(value) if ascii_only else value)


# --- entries ------------------------------------------------------------------------

# The entry types of BibTeX and biblatex. Every reader keeps its source's own fields in
# `raw_fields` (RIS tags, CSV columns, JSON keys): only a paper with one of these types
# came from a BibTeX file, so only its raw fields are BibTeX.
_BIBTEX_TYPES = frozenset(
    """article book booklet collection conference dataset inbook incollection inproceedings
    inreference manual mastersthesis misc mvbook mvcollection mvproceedings online patent
    periodical phdthesis proceedings report software techreport thesis unpublished""".split()
)
_VENUE_FIELD = {
    "article": "journal",
    "inproceedings": "booktitle",
    "conference": "booktitle",
    "incollection": "booktitle",
    "techreport": "institution",
    "report": "institution",
    "phdthesis": "school",
    "mastersthesis": "school",
    "thesis": "school",
}
# The raw fields of a BibTeX import that are copied: standard data fields the paper's
# own data does not already give (not crossref, a source's private fields, file paths).
_COPIED_FIELDS = frozenset(
    """address booktitle chapter date edition editor eventdate eventtitle howpublished
    institution isbn issn issue journal journaltitle key language location month note
    number organization pages primaryclass publisher school series type volume""".split()
)
# The month macros every style defines, and what else names a month.
_MONTHS = "jan feb mar apr may jun jul aug sep oct nov dec".split()
_MONTH_NAMES = {
    name: macro
    for number, macro in enumerate(_MONTHS, start=1)
    for name in (macro, str(number), f"{number:02d}")
} | {
    full.lower(): macro
    for full, macro in zip(
        "January February March April May June July August September October November "
        "December".split(),
        _MONTHS,
        strict=True,
    )
}


def _bibtex_type(paper: Paper) -> str | None:
    """The entry type the paper's BibTeX source gave it, if it came from one."""
    own = (paper.entry_type or "").strip().lower()
    return own if own in _BIBTEX_TYPES else None


def _entry_type(paper: Paper) -> str:
    venue = find_venue(paper.venue)
    return _bibtex_type(paper) or (venue.entry_type if venue else "misc")


# The macros a file's preamble defines, by name (text.preamble_macros): the reader
# showed the imported fields with them, so they are compared with them.
Macros = dict[str, Macro]


def _source(macros: Macros) -> Dialect:
    """How an imported field is read: as BibTeX, free to use the preamble's commands
    (outside the allow-list, `\\acro` would be written as text, "\\acro TUG")."""
    return replace(BIBTEX, defined=frozenset(macros)) if macros else BIBTEX


def _same_text(latex: str, plain: str, macros: Macros) -> bool:
    return normalise_for_matching(to_plain(expand(latex, macros))) == normalise_for_matching(plain)


def _raw_title(raw: dict[str, str], paper: Paper, macros: Macros) -> str | None:
    """The imported title (and subtitle) as LaTeX, if it is still the paper's title."""
    title = raw.get("title", "").strip()
    if raw.get("subtitle", "").strip():
        title = f"{title}: {raw['subtitle'].strip()}"
    return title if title and _same_text(title, paper.title, macros) else None


def _raw_author(raw: dict[str, str], paper: Paper, ascii_only: bool, macros: Macros) -> str | None:
    """The imported author list as LaTeX, if it still names the paper's authors.

    Not when a name in it has more commas than BibTeX allows: importers read that
    leniently, but pybtex and BibTeX would refuse the file.
    """
    field = escape(raw.get("author", ""), _source(macros), ascii_only)
    names = [n for n in split_multiple_persons_names(field) if n.strip().lower() != "others"]
    if not field or len(names) != len(paper.authors):
        return None
    for latex, display in zip(names, paper.authors, strict=True):
        try:
            parse_single_name_into_parts(latex)
        except InvalidNameError:
            return None
        shown = to_plain(decode_commands(expand(latex, macros)).replace(",", " "))
        words = sorted(normalise_for_matching(shown).split())
        if words != sorted(normalise_for_matching(display).split()):
            return None
    return field


def _title_value(paper: Paper, raw_title: str | None, ascii_only: bool, macros: Macros) -> str:
    if raw_title:
        return escape(raw_title, _source(macros), ascii_only)
    tokens = tokens_of(paper.title, WEB_TEXT)
    protect_title(tokens)
    return render(tokens, ascii_only)


def _venue(paper: Paper, raw: dict[str, str], field: str, ascii_only: bool, macros: Macros) -> str:
    """The stored venue; the imported field's own LaTeX while it still says the same."""
    imported = raw.get(field, "").strip()
    if imported and paper.venue and _same_text(imported, paper.venue, macros):
        return escape(imported, _source(macros), ascii_only)
    return escape(paper.venue or "", PLAIN, ascii_only)


def _year(year: int | None) -> str:
    """`2020`; a year before the common era as biblatex writes it: `-0197`."""
    if not year:
        return ""
    return f"-{-year:04d}" if year < 0 else str(year)


def _month(value: str, ascii_only: bool) -> str:
    """A month macro's name (written bare), else the braced value."""
    macro = _MONTH_NAMES.get(value.strip().lower().rstrip("."))
    return macro or "{" + escape(value, BIBTEX, ascii_only) + "}"


def _fields(
    paper: Paper, ascii_only: bool, tag_colours: Sequence[tuple[str, str]], macros: Macros
) -> list[tuple[str, str]]:
    """(name, value as written) pairs in the order a person reads them; empty ones left out.

    Values are braced, except a month macro.
    """
    raw: dict[str, str] = {}
    if _bibtex_type(paper):
        for name, value in paper.raw_fields:
            raw.setdefault(name.strip().lower(), value)
    venue_field = _VENUE_FIELD.get(_entry_type(paper), "howpublished")

    def plain(text: str) -> str:
        return escape(text, PLAIN, ascii_only)

    author = _raw_author(raw, paper, ascii_only, macros) or _authors_value(
        paper.authors, ascii_only
    )
    fields = [
        ("title", _title_value(paper, _raw_title(raw, paper, macros), ascii_only, macros)),
        ("author", author),
        (venue_field, _venue(paper, raw, venue_field, ascii_only, macros)),
        ("year", _year(paper.year)),
    ]
    written = {name for name, value in fields if value}
    for name, value in raw.items():
        if name in _COPIED_FIELDS and name not in written:
            fields.append((name, escape(value, _source(macros), ascii_only)))
    if "pages" not in raw:
        # The Pages field as the detail pane shows and edits it, whatever the paper's
        # source: an edit on a paper with no BibTeX type is exported too.
        fields.append(("pages", plain(pages(paper))))
    if not author and "editor" not in raw and "key" not in raw:
        fields.append(("key", plain(to_plain(paper.title))))
    ids = paper.ids
    fields += [
        ("doi", verbatim(ids.doi or "")),
        ("url", verbatim(safe_url(ids.url) or "")),
        ("eprint", verbatim(ids.arxiv or "")),
        ("archiveprefix", "arXiv" if ids.arxiv else ""),
        ("openreview", verbatim(ids.openreview or "")),
        ("abstract", escape(paper.abstract, WEB_TEXT, ascii_only)),
    ]
    fields += [(name, plain(value)) for name, value in user_fields(paper, tag_colours)]
    return [
        (name, _month(value, ascii_only) if name == "month" else "{" + value + "}")
        for name, value in fields
        if value
    ]


def bibtex_entry(
    paper: Paper,
    key: str,
    flavour: str = DEFAULT_FLAVOUR,
    tag_colours: Sequence[tuple[str, str]] = (),
    macros: Macros | None = None,
) -> str:
    """One `@type{key, ...}` entry, ending with a newline; `macros` are those the
    preambles written with it define."""
    ascii_only = flavour == "bibtex"
    lines = [f"@{_entry_type(paper)}{{{key},"]
    for name, value in _fields(paper, ascii_only, tag_colours, macros or {}):
        lines.append(f"  {name} = {value},")
    lines.append("}\n")
    return "\n".join(lines)


NO_DEFINITIONS = BibtexDefinitions()
# A name bibtex reads as a `@string` macro: no delimiter, quote or blank, no leading digit.
_MACRO_NAME = re.compile(r"[^\W\d][^\s\"#%'(),={}]*")


def definitions_text(definitions: BibtexDefinitions, flavour: str = DEFAULT_FLAVOUR) -> str:
    """The `@preamble` and `@string` blocks, each ending with a blank line."""
    ascii_only = flavour == "bibtex"
    defined = frozenset(preamble_macros("\n".join(definitions.preamble)))
    preamble, source = replace(PREAMBLE, defined=defined), replace(BIBTEX, defined=defined)
    blocks = [
        "@preamble{{" + escape(text, preamble, ascii_only) + "}}\n" for text in definitions.preamble
    ]
    blocks += [
        f"@string{{{name} = {{{escape(value, source, ascii_only)}}}}}\n"
        for name, value in definitions.strings
        if _MACRO_NAME.fullmatch(name) and name.lower() not in _MONTH_NAMES
    ]
    return "".join(block + "\n" for block in blocks)


def write_bibtex(
    papers: Iterable[Paper],
    stream: TextIO,
    flavour: str = DEFAULT_FLAVOUR,
    key_pattern: str = DEFAULT_PATTERN,
    tag_colours: Sequence[tuple[str, str]] = (),
    definitions: BibtexDefinitions = NO_DEFINITIONS,
) -> int:
    """Write `papers` in order as BibTeX entries; return how many were written.

    Keys are the papers' stored keys when valid, else made with `key_pattern`; every
    key is unique in the file. `tag_colours` pairs tags with their `#rrggbb` colours.
    `definitions` (the files' preambles and strings) come first.
    """
    if flavour not in FLAVOURS:
        raise InvalidValueError(
            f"unknown BibTeX flavour {flavour!r}; choose one of: bibtex, biblatex"
        )
    papers = list(papers)
    stream.write(definitions_text(definitions, flavour))
    macros = preamble_macros("\n".join(definitions.preamble))
    for index, (paper, key) in enumerate(
        zip(papers, assign_keys(papers, key_pattern), strict=True)
    ):
        if index:
            stream.write("\n")
        stream.write(bibtex_entry(paper, key, flavour, tag_colours, macros))
    return len(papers)

"""Writing papers as a BibTeX file that BibTeX, biber, bibtexparser and pybtex all accept.

What goes where:
- entry type: the paper's own if it is a BibTeX or biblatex type (a BibTeX import),
  else its venue's (`@inproceedings` for conferences, `@article` for journals, see
  core.venues), else `@misc`; the venue goes to `booktitle`, `journal` or
  `howpublished` to match.
- key: the paper's stored key when it is valid, else one made by core.citekeys,
  unique within the file.
- title, author, year, abstract, doi, url, eprint + archiveprefix (arXiv),
  openreview, keywords (the tags), annote (the note), and the user's triage in
  `x-paperdesk-status` and `x-paperdesk-rating` (unrated papers have none).
- a paper imported from BibTeX keeps its source's title and author (already LaTeX)
  while they still say what the paper says, and its other standard fields (pages,
  volume, publisher...) verbatim. Other formats' raw fields (RIS tags, CSV columns,
  JSON keys) are not BibTeX and are not copied.

Text is escaped for LaTeX by what it is. Titles and abstracts from the web are
LaTeX-ish (OpenReview and PMLR abstracts mix `$math$`, `\\emph{}` and `\\%` with bare
`%` and `&`): math, commands and existing escapes are kept, bare special characters are
escaped. Notes, names and tags are plain text (a backslash is a backslash), except the
`$math$` in notes. Whatever the input, every value has balanced braces: an unmatched
brace becomes `\\textbraceleft{}`/`\\textbraceright{}` (`\\lbrace{}` in math), because
BibTeX counts even escaped braces. Titles get their acronyms, CamelCase words and
(in sentence-case titles) proper nouns wrapped in braces, so styles that lower-case
titles keep `{SGSI}`, `{MoE}` and `{Gaussian}`.

With `ascii_only` every non-ASCII character becomes a LaTeX command (pylatexenc), for
classic 8-bit BibTeX; characters LaTeX has no command for are written as `U+XXXX`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TextIO
from urllib.parse import quote

from bibtexparser.middlewares.names import (
    InvalidNameError,
    parse_single_name_into_parts,
    split_multiple_persons_names,
)
from pylatexenc.latexencode import UnicodeToLatexEncoder

from paperdesk.core.citekeys import DEFAULT_PATTERN, assign_keys
from paperdesk.core.models import Paper
from paperdesk.core.text import normalise_for_matching
from paperdesk.core.venues import find_venue
from paperdesk.text import to_plain

STATUS_FIELD = "x-paperdesk-status"
RATING_FIELD = "x-paperdesk-rating"

# --- text to a BibTeX field value -------------------------------------------------


@dataclass(frozen=True)
class _Dialect:
    """How to read a piece of text before escaping it."""

    latex: bool  # backslashes and braces are LaTeX markup, not literal characters
    math: bool  # $...$ (and, with latex, \(...\), \[...\]) is math, kept as written
    from_bibtex: bool  # a BibTeX source: `~` is a tie, and `$` pairs need no heuristics


_PLAIN = _Dialect(latex=False, math=False, from_bibtex=False)  # names, tags, venue names
_NOTE = _Dialect(latex=False, math=True, from_bibtex=False)  # the user's Markdown notes
_WEB_TEXT = _Dialect(latex=True, math=True, from_bibtex=False)  # titles, abstracts
_BIBTEX = _Dialect(latex=True, math=True, from_bibtex=True)  # raw fields of a BibTeX import

_OPEN, _CLOSE = "{", "}"  # grouping braces
_LITERAL_OPEN, _LITERAL_CLOSE = "\\{", "\\}"  # escaped braces, printed as braces
_TEXT, _FIXED, _MATH = "text", "fixed", "math"


@dataclass(slots=True)
class _Token:
    kind: str  # one of the brace strings above, _TEXT (words), _FIXED or _MATH
    text: str


_ESCAPES = {
    "%": "\\%",
    "&": "\\&",
    "#": "\\#",
    "_": "\\_",
    "$": "\\$",
    "^": "\\textasciicircum{}",
    "~": "\\textasciitilde{}",
    "\\": "\\textbackslash{}",
}
# Control symbols LaTeX knows in text: accents, escapes, spacing, `\\` line breaks.
_CONTROL_SYMBOLS = frozenset("\"'`^~=.{}$%&#_,;:! /-@\\\n\t")
_MATH_DELIMITERS = {"\\(": "\\)", "\\[": "\\]", "$$": "$$", "$": "$"}

_LATEX_TOKEN = re.compile(r"\\[A-Za-z]+|\\.?|\$\$?|[{}%&#_~^]|[^\\{}$%&#_~^]+", re.DOTALL)
_PLAIN_TOKEN = re.compile(r"\$\$?|[\\{}%&#_~^]|[^\\{}$%&#_~^]+")
# A backslash before a non-ASCII character stands alone: `\é` is no command, and with
# ascii_only the é would become `{\'e}`, making `\{` of it.
_MATH_TOKEN = re.compile(r"\\[\x00-\x7f]?|[{}%]|[^\\{}%]+")

_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# An even run of backslashes before a brace (or the value's closing brace): `\\{` is a
# line break and a group, but bibtexparser takes the brace for an escaped one, so a
# space goes between them.
_LINE_BREAK_BEFORE_BRACE = re.compile(r"(?<!\\)((?:\\\\)+)(?=[{}]|\Z)")
# bibtexparser ends an entry at any line starting with `@word{`, even inside a value.
_AT_LINE_START = re.compile(r"^([^\S\n]*)@", re.MULTILINE)

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_to_latex = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    unknown_char_policy="unihex",
    unknown_char_warning=False,
)


def _clean(text: str) -> str:
    """NFC, `\\n` line ends, no control characters or lone surrogates, no outer blanks."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    return _CONTROL_CHARACTERS.sub("", text).strip()


def _math_end(text: str, start: int, closer: str, strict: bool) -> int | None:
    """Where the math opened just before `start` closes, or None if it does not.

    Without `strict`, `$` follows Pandoc's rule so that "$5 and $10" stays money: the
    opening `$` has a non-blank right after it, the closing one a non-blank right before
    it and no digit after it, and math never spans a blank line.
    """
    dollar_rule = closer == "$" and not strict
    if dollar_rule and (start >= len(text) or text[start].isspace()):
        return None
    index = start
    while index < len(text):
        if text.startswith(closer, index) and index > start:
            if not dollar_rule:
                return index
            after = text[index + 1 : index + 2]
            if not text[index - 1].isspace() and not after.isdigit():
                return index
        if text[index] == "\\":
            index += 2
            continue
        if not strict and text.startswith("\n\n", index):
            return None
        index += 1
    return None


def _math_tokens(content: str) -> list[_Token]:
    tokens = []
    for piece in _MATH_TOKEN.findall(content):
        if piece in (_OPEN, _CLOSE, _LITERAL_OPEN, _LITERAL_CLOSE):
            tokens.append(_Token(piece, piece))
        elif piece == "%":  # would comment out the rest of the line in LaTeX
            tokens.append(_Token(_FIXED, "\\%"))
        elif piece == "\\":
            tokens.append(_Token(_FIXED, "\\backslash{}"))
        else:
            tokens.append(_Token(_FIXED, piece))
    return tokens


def _math(opener: str, content: str, closer: str) -> _Token:
    """One math segment as written, with its braces balanced within it."""
    tokens = _math_tokens(content)
    _balance(tokens, "\\lbrace{}", "\\rbrace{}")
    return _Token(_MATH, opener + "".join(t.text for t in tokens) + closer)


def _tokens(text: str, dialect: _Dialect) -> list[_Token]:
    """Text split into words, grouping/escaped braces, math and fixed LaTeX."""
    pattern = _LATEX_TOKEN if dialect.latex else _PLAIN_TOKEN
    tokens: list[_Token] = []
    position = 0
    while position < len(text):
        match = pattern.match(text, position)
        assert match is not None  # either pattern matches any character
        piece = match.group(0)
        position += len(piece)
        closer = _MATH_DELIMITERS.get(piece) if dialect.math else None
        if closer and (dialect.latex or piece.startswith("$")):
            end = _math_end(text, position, closer, dialect.from_bibtex)
            if end is None and piece == "$$":  # maybe `$$` opens and closes nothing
                position -= 1
                piece, closer = "$", "$"
                end = _math_end(text, position, closer, dialect.from_bibtex)
            if end is not None:
                tokens.append(_math(piece, text[position:end], closer))
                position = end + len(closer)
                continue
        if piece == "{":
            tokens.append(_Token(_OPEN, piece) if dialect.latex else _Token(_LITERAL_OPEN, "\\{"))
        elif piece == "}":
            tokens.append(_Token(_CLOSE, piece) if dialect.latex else _Token(_LITERAL_CLOSE, "\\}"))
        elif piece in (_LITERAL_OPEN, _LITERAL_CLOSE):
            tokens.append(_Token(piece, piece))
        elif piece == "~" and dialect.from_bibtex:
            tokens.append(_Token(_FIXED, "~"))
        elif piece == "$$":
            tokens.append(_Token(_FIXED, "\\$\\$"))
        elif piece in _ESCAPES:
            tokens.append(_Token(_FIXED, _ESCAPES[piece]))
        elif piece.startswith("\\"):
            if len(piece) == 2 and piece[1] not in _CONTROL_SYMBOLS:
                # An unknown control symbol (`\*`, a `\(` that never closes): as written.
                tokens.append(_Token(_FIXED, "\\textbackslash{}"))
                tokens.append(_Token(_TEXT, piece[1]))
            else:
                tokens.append(_Token(_FIXED, piece))
        else:
            tokens.append(_Token(_TEXT, piece))
    return tokens


def _balance(tokens: list[_Token], unmatched_open: str, unmatched_close: str) -> None:
    """Turn every brace without a partner into a printed brace command, in place.

    Grouping braces and escaped braces are paired separately: then LaTeX (which pairs
    only the first), bibtexparser (likewise) and BibTeX and pybtex (which count both)
    all see balanced values.
    """
    for opening, closing in ((_OPEN, _CLOSE), (_LITERAL_OPEN, _LITERAL_CLOSE)):
        open_tokens: list[_Token] = []
        for token in tokens:
            if token.kind == opening:
                open_tokens.append(token)
            elif token.kind == closing:
                if open_tokens:
                    open_tokens.pop()
                else:
                    token.kind, token.text = _FIXED, unmatched_close
        for token in open_tokens:
            token.kind, token.text = _FIXED, unmatched_open


# Words Title Case leaves in lower case: they say nothing about a title's case.
_MINOR_WORDS = frozenset(
    "a an and as at but by for from in into nor of on or over per than the to via vs with".split()
)
# Names common in ML titles that lower-casing styles would spoil even in "Title Case".
_PROPER_NOUNS = frozenset(
    """Bayes Bayesian Bellman Bernoulli Boltzmann Brownian Dirichlet Euclidean Fisher
    Fourier Gaussian Gibbs Hamiltonian Hessian Hilbert Kalman Kullback Lagrangian Langevin
    Laplace Laplacian Leibler Lipschitz Markov Markovian Monte Carlo Nash Nesterov Newton
    Poisson Riemannian Shapley Sobolev Stein Thompson Wasserstein Wiener""".split()
)
_WORD = re.compile(r"[^\W_]+")
_ACCENTS = frozenset(('\\"', "\\'", "\\`", "\\^", "\\~", "\\=", "\\."))
_SENTENCE_END = re.compile(r"[:.?!]\s*$")


@dataclass(frozen=True)
class _TitleWord:
    token: _Token
    match: re.Match[str]
    starts_part: bool  # first word of the title or of a subtitle: capitalised anyway
    in_compound: bool  # after a hyphen, where title case may stay lower case

    @property
    def text(self) -> str:
        return self.match.group(0)


def _title_words(tokens: list[_Token]) -> list[_TitleWord]:
    """The words outside braces and math, in order.

    A word right after an accent (`\\'Ecole`) is left out: braces there would put the
    accent on the whole word.
    """
    words = []
    depth = 0
    starts_part = True
    previous = _Token(_FIXED, "")
    for token in tokens:
        if token.kind == _OPEN:
            depth += 1
        elif token.kind == _CLOSE:
            depth -= 1
        if depth == 0 and token.kind == _TEXT:
            position = 0
            for match in _WORD.finditer(token.text):
                before = token.text[position : match.start()]
                starts_part = starts_part or bool(_SENTENCE_END.search(before))
                if match.start() or previous.text not in _ACCENTS:
                    words.append(_TitleWord(token, match, starts_part, before.endswith("-")))
                starts_part = False
                position = match.end()
            starts_part = starts_part or bool(_SENTENCE_END.search(token.text[position:]))
        elif token.kind != _FIXED:
            starts_part = False
        previous = token
    return words


def _has_capital(text: str) -> bool:
    return text != text.lower()


def _is_sentence_case(words: list[_TitleWord]) -> bool:
    """True when the plain words after the first are mostly lower case."""
    telling = [
        word.text
        for word in words
        if not (word.starts_part or word.in_compound)
        and len(word.text) > 1
        and word.text.isalpha()
        and word.text.lower() not in _MINOR_WORDS
        and not _has_capital(word.text[1:])
    ]
    capitalised = sum(text[0].isupper() for text in telling)
    return 0 < len(telling) - capitalised >= capitalised


def _needs_protection(word: _TitleWord, sentence_case: bool) -> bool:
    text = word.text
    if _has_capital(text[1:]):  # SGSI, MoE, iPhone, 3D
        return True
    if not text[0].isupper() or word.starts_part:
        return False
    if len(text) == 1 or not text.isalpha():  # Option A, K2 (words are letters and digits)
        return True
    return sentence_case or text in _PROPER_NOUNS


def _protect_title(tokens: list[_Token]) -> None:
    """Wrap words a bibliography style must not lower-case in braces, in place.

    In a sentence-case title every capital after the first word is a name; in a
    title-case title only acronyms, CamelCase, letters with digits and known names are.
    """
    words = _title_words(tokens)
    sentence_case = _is_sentence_case(words)
    protect: dict[int, list[re.Match[str]]] = {}
    for word in words:
        if _needs_protection(word, sentence_case):
            protect.setdefault(id(word.token), []).append(word.match)
    depth = 0
    for token in tokens:
        if token.kind == _OPEN:
            depth += 1
        elif token.kind == _CLOSE:
            depth -= 1
        elif token.kind == _MATH and depth == 0:
            token.text = "{" + token.text + "}"  # BibTeX would lower-case $K^2$ too
        elif id(token) in protect:
            pieces, position = [], 0
            for match in protect[id(token)]:
                pieces += [token.text[position : match.start()], "{", match.group(0), "}"]
                position = match.end()
            token.text = "".join(pieces) + token.text[position:]


def _finish(value: str, ascii_only: bool) -> str:
    if ascii_only and not value.isascii():
        # Only the non-ASCII runs: the encoder walks its input a character at a time.
        value = _NON_ASCII.sub(lambda run: _to_latex.unicode_to_latex(run.group()), value)
    if "\\" in value:
        value = _LINE_BREAK_BEFORE_BRACE.sub(r"\1 ", value)
    if "@" in value:
        value = _AT_LINE_START.sub(r"\1{@}", value)
    return value


def _escape(text: str, dialect: _Dialect) -> str:
    """`text` as LaTeX with balanced braces, before _finish."""
    tokens = _tokens(_clean(text), dialect)
    _balance(tokens, "\\textbraceleft{}", "\\textbraceright{}")
    return "".join(token.text for token in tokens)


def _title_value(title: str) -> str:
    tokens = _tokens(_clean(title), _WEB_TEXT)
    _balance(tokens, "\\textbraceleft{}", "\\textbraceright{}")
    _protect_title(tokens)
    return "".join(token.text for token in tokens)


def _verbatim(text: str) -> str:
    """A URL or id as written, minus what no BibTeX value may hold (braces, blanks)."""
    return quote(_clean(text), safe="!#$%&'()*+,/:;=?@[]^`|~<>\"")


# --- names --------------------------------------------------------------------------

# BibTeX splits names at a free-standing "and"; one inside a name must be braced.
_AND_WORD = re.compile(r"(?<!\S)(and)(?!\S)", re.IGNORECASE)


def _bibtex_name(name: str) -> str:
    """A "First von Last" display name as BibTeX's "von Last, Jr, First"."""
    escaped = _AND_WORD.sub(r"{\1}", _escape(name, _PLAIN))
    if _LITERAL_OPEN in escaped or _LITERAL_CLOSE in escaped:
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


def _authors_value(authors: Sequence[str]) -> str:
    return " and ".join(filter(None, (_bibtex_name(name) for name in authors if name.strip())))


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
    "phdthesis": "school",
    "mastersthesis": "school",
    "thesis": "school",
}
# The raw fields of a BibTeX import that are copied: standard data fields the paper's
# own data does not already give (not crossref, a source's private fields, file paths).
_COPIED_FIELDS = frozenset(
    """address booktitle chapter date edition editor eventdate eventtitle howpublished
    institution isbn issn issue journal journaltitle language location month note number
    organization pages primaryclass publisher school series type volume""".split()
)


def _bibtex_type(paper: Paper) -> str | None:
    """The entry type the paper's BibTeX source gave it, if it came from one."""
    own = (paper.entry_type or "").strip().lower()
    return own if own in _BIBTEX_TYPES else None


def _entry_type(paper: Paper) -> str:
    venue = find_venue(paper.venue)
    return _bibtex_type(paper) or (venue.entry_type if venue else "misc")


def _same_text(latex: str, plain: str) -> bool:
    return normalise_for_matching(to_plain(latex)) == normalise_for_matching(plain)


def _raw_title(raw: dict[str, str], paper: Paper) -> str | None:
    """The imported title (and subtitle) as LaTeX, if it is still the paper's title."""
    title = raw.get("title", "").strip()
    if raw.get("subtitle", "").strip():
        title = f"{title}: {raw['subtitle'].strip()}"
    return title if title and _same_text(title, paper.title) else None


def _raw_author(raw: dict[str, str], paper: Paper) -> str | None:
    """The imported author list as LaTeX, if it still names the paper's authors.

    Not when a name in it has more commas than BibTeX allows: importers read that
    leniently, but pybtex and BibTeX would refuse the file.
    """
    field = _escape(raw.get("author", ""), _BIBTEX)
    names = [n for n in split_multiple_persons_names(field) if n.strip().lower() != "others"]
    if not field or len(names) != len(paper.authors):
        return None
    for latex, display in zip(names, paper.authors, strict=True):
        try:
            parse_single_name_into_parts(latex)
        except InvalidNameError:
            return None
        words = sorted(normalise_for_matching(to_plain(latex.replace(",", " "))).split())
        if words != sorted(normalise_for_matching(display).split()):
            return None
    return field


def _fields(paper: Paper) -> list[tuple[str, str]]:
    """(name, LaTeX value) pairs in the order a person reads them; empty ones left out."""
    raw: dict[str, str] = {}
    if _bibtex_type(paper):
        for name, value in paper.raw_fields:
            raw.setdefault(name.strip().lower(), value)
    entry_type = _entry_type(paper)
    venue = find_venue(paper.venue)
    venue_field = _VENUE_FIELD.get(entry_type, "howpublished")

    raw_title = _raw_title(raw, paper)
    raw_author = _raw_author(raw, paper)
    fields = [
        ("title", _escape(raw_title, _BIBTEX) if raw_title else _title_value(paper.title)),
        ("author", raw_author or _authors_value(paper.authors)),
    ]
    if raw.get(venue_field, "").strip():
        fields.append((venue_field, _escape(raw[venue_field], _BIBTEX)))
    elif paper.venue:
        fields.append((venue_field, _escape(venue.full_name if venue else paper.venue, _PLAIN)))
    fields.append(("year", str(paper.year) if paper.year else ""))
    written = {name for name, _ in fields}
    for name, value in raw.items():
        if name in _COPIED_FIELDS and name not in written:
            fields.append((name, _escape(value, _BIBTEX)))
    ids = paper.ids
    fields += [
        ("doi", _verbatim(ids.doi or "")),
        ("url", _verbatim(ids.url or "")),
        ("eprint", _verbatim(ids.arxiv or "")),
        ("archiveprefix", "arXiv" if ids.arxiv else ""),
        ("openreview", _verbatim(ids.openreview or "")),
        ("abstract", _escape(paper.abstract, _WEB_TEXT)),
        ("keywords", ", ".join(_escape(tag, _PLAIN) for tag in paper.tags)),
        ("annote", _escape(paper.note, _NOTE)),
        (STATUS_FIELD, paper.status.value),
        (RATING_FIELD, str(paper.rating) if paper.rating else ""),
    ]
    return [(name, value) for name, value in fields if value]


def bibtex_entry(paper: Paper, key: str, ascii_only: bool = False) -> str:
    """One `@type{key, ...}` entry, ending with a newline."""
    lines = [f"@{_entry_type(paper)}{{{key},"]
    for name, value in _fields(paper):
        lines.append(f"  {name} = {{{_finish(value, ascii_only)}}},")
    lines.append("}\n")
    return "\n".join(lines)


def write_bibtex(
    papers: Iterable[Paper],
    stream: TextIO,
    ascii_only: bool = False,
    key_pattern: str = DEFAULT_PATTERN,
) -> int:
    """Write `papers` in order as BibTeX entries; return how many were written.

    Keys are the papers' stored keys when valid, else made with `key_pattern`; every
    key is unique in the file. `ascii_only` writes a pure ASCII file (see module doc).
    """
    papers = list(papers)
    for index, (paper, key) in enumerate(
        zip(papers, assign_keys(papers, key_pattern), strict=True)
    ):
        if index:
            stream.write("\n")
        stream.write(bibtex_entry(paper, key, ascii_only))
    return len(papers)

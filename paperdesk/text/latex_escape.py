"""Text as LaTeX: escaped, balanced, and unable to make LaTeX touch the file system;
the half of the one text engine that writes (the lexer reads).

Text is escaped by what it is. Titles and abstracts from the web are LaTeX-ish
(OpenReview and PMLR abstracts mix `$math$`, `\\emph{}` and `\\%` with bare `%` and
`&`): math, commands and existing escapes are kept, bare special characters are
escaped (`WEB_TEXT`; a BibTeX import's own fields are `BIBTEX`). Notes, names, tags
and venues are plain text: every special character is escaped (`PLAIN`), and
`read_plain_value` gives the text back exactly. Whatever the input, every value has
balanced braces: an unmatched brace becomes `\\textbraceleft{}`/`\\textbraceright{}`
(`\\lbrace{}` in math), because BibTeX counts even escaped braces.

With `ascii_only` every non-ASCII character becomes LaTeX (text/latex_ascii.py).

Only the formatting, accent and symbol commands of an allow-list (text/tex_allow_list.py)
are written as commands. Every other control word (`\\input`, `\\pdffiledump`,
`\\openin`, `\\write18`, `\\csname` that could spell them, a paper's own macros) and
`^^5c`, which could spell a backslash, are written as text (`\\textbackslash{}input`),
in every field and in math, so a LaTeX run over the text never acts on what it says.
What a BibTeX file needs besides (where a value ends) is formats/bibtex_values.py.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from paperdesk.text.latex_ascii import to_ascii
from paperdesk.text.macros import PRINTED_CHARACTERS
from paperdesk.text.plain import BRACE_GROUP, to_plain
from paperdesk.text.tex_allow_list import is_safe


@dataclass(frozen=True)
class Dialect:
    """How to read a piece of text before escaping it."""

    latex: bool  # backslashes and braces are LaTeX markup, not literal characters
    math: bool  # $...$ (and, with latex, \(...\), \[...\]) is math, kept as written
    from_bibtex: bool  # a BibTeX source: `~` is a tie, and `$` pairs need no heuristics
    # A `@preamble`: it defines the macros its entries use (`\\providecommand`, `\\def`,
    # `#1`), which no field may; commands touching files or programs stay text.
    definitions: bool = False
    # The commands the preambles written with the value define (`\\acro`, `\\MF`): the
    # value may use them, as the file did.
    defined: frozenset[str] = frozenset()


PLAIN = Dialect(latex=False, math=False, from_bibtex=False)  # names, tags, notes, venues
WEB_TEXT = Dialect(latex=True, math=True, from_bibtex=False)  # titles, abstracts
BIBTEX = Dialect(latex=True, math=True, from_bibtex=True)  # raw fields of a BibTeX import
PREAMBLE = Dialect(latex=True, math=True, from_bibtex=True, definitions=True)

OPEN, CLOSE = "{", "}"  # grouping braces
LITERAL_OPEN, LITERAL_CLOSE = "\\{", "\\}"  # escaped braces, printed as braces
TEXT, FIXED, MATH = "text", "fixed", "math"


@dataclass(slots=True)
class Token:
    kind: str  # one of the brace strings above, TEXT (words), FIXED or MATH
    text: str


_ESCAPES = {
    "%": "\\%",
    "&": "\\&",
    "#": "\\#",
    "_": "\\_",
    "$": "\\$",
    "^": PRINTED_CHARACTERS["^"],
    "~": PRINTED_CHARACTERS["~"],
    "\\": PRINTED_CHARACTERS["\\"],
}
# Control symbols LaTeX knows in text: accents, escapes, spacing, `\\` line breaks.
_CONTROL_SYMBOLS = frozenset("\"'`^~=.{}$%&#_,;:! /-@\\\n\t")
_MATH_DELIMITERS = {"\\(": "\\)", "\\[": "\\]", "$$": "$$", "$": "$"}

# What a preamble is for (`\\providecommand{\\acro}[1]{...}`). Without `\\csname`,
# `\\catcode` or `^^` no definition can spell a file command that is not written as
# one, and those stay text.
_DEFINING = frozenset("def edef gdef xdef let newcommand renewcommand providecommand".split())
# TeX reads `^^5c` as a backslash (and `^^` before any character as another character)
# before it looks for commands; in math `x^^2` is an error anyway.
_CARETS = "^^"

_LATEX_TOKEN = re.compile(r"\\[A-Za-z]+|\\.?|\$\$?|[{}%&#_~^]|[^\\{}$%&#_~^]+", re.DOTALL)
# In plain text a backquote is escaped too: the text engine reads `` `x` `` as code and
# `` `x' `` as quotes.
_PLAIN_TOKEN = re.compile(r"\$\$?|[\\{}%&#_~^`]|[^\\{}$%&#_~^`]+")
# A backslash before a non-ASCII character stands alone: `\é` is no command, and with
# ascii_only the é would become `{\'e}`, making `\{` of it.
_MATH_TOKEN = re.compile(r"\\(?:[A-Za-z]+|[\x00-\x7f])?|[{}%]|\^\^|[^\\{}%^]+|\^")

_CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def clean(text: str) -> str:
    """NFC, `\\n` line ends, no control characters or lone surrogates, no outer blanks."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if not text.isascii():
        text = unicodedata.normalize("NFC", text)
    return _CONTROL_CHARACTERS.sub("", text).strip()


def _math_end(text: str, start: int, closer: str, strict: bool) -> int | None:
    """Where the math opened just before `start` closes, or None if it does not.

    Without `strict`, `$` follows Pandoc's rule so that "$5 and $10" stays money: the
    opening `$` has a non-blank right after it, the closing one a non-blank right before
    it and, when the math starts with a digit, no digit after it; math never spans a
    blank line.
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
            # `$5 and $10` is money, but `($\sim$1B requests)` is math before a number,
            # as the text engine reads it: only an amount may not close before a digit.
            if not text[index - 1].isspace() and not (after.isdigit() and text[start].isdigit()):
                return index
        if text[index] == "\\":
            index += 2
            continue
        if not strict and text.startswith("\n\n", index):
            return None
        index += 1
    return None


def _math_tokens(content: str) -> list[Token]:
    tokens = []
    for piece in _MATH_TOKEN.findall(content):
        if piece in (OPEN, CLOSE, LITERAL_OPEN, LITERAL_CLOSE):
            tokens.append(Token(piece, piece))
        elif piece == "%":  # would comment out the rest of the line in LaTeX
            tokens.append(Token(FIXED, "\\%"))
        elif piece == "\\":
            tokens.append(Token(FIXED, "\\backslash{}"))
        elif piece == _CARETS:
            tokens.append(Token(FIXED, "\\wedge\\wedge{}"))
        elif piece.startswith("\\") and piece[1:].isalpha() and not is_safe(piece[1:]):
            tokens.append(Token(FIXED, "\\backslash{}" + piece[1:]))
        else:
            tokens.append(Token(FIXED, piece))
    return tokens


def _math(opener: str, content: str, closer: str) -> Token:
    """One math segment as written, with its braces balanced within it."""
    tokens = _math_tokens(content)
    balance(tokens, "\\lbrace{}", "\\rbrace{}")
    return Token(MATH, opener + "".join(t.text for t in tokens) + closer)


def tokens_of(text: str, dialect: Dialect) -> list[Token]:
    """Text split into words, grouping/escaped braces, math and fixed LaTeX, balanced."""
    tokens = _tokens(clean(text), dialect)
    if dialect.latex and not dialect.from_bibtex:
        _underscore_emphasis(tokens)
    balance(tokens, PRINTED_CHARACTERS["{"], PRINTED_CHARACTERS["}"])
    return tokens


_UNDERSCORE = _ESCAPES["_"]


def _underscore_emphasis(tokens: list[Token]) -> None:
    """Markdown's `_e3nn_` and `__bold__` in web text as `\\emph{}` and `\\textbf{}`.

    Web abstracts mix Markdown into their LaTeX; `*x*` survives in BibTeX (the text
    engine reads it back), but an underscore must be escaped, and `\\_e3nn\\_` would
    read back as the underscores themselves. `snake_case` is no emphasis: the opening
    underscores follow no word character, the closing ones precede none.
    """
    for run, command in ((2, "\\textbf{"), (1, "\\emph{")):
        for start in range(len(tokens) - 2 * run):
            window = tokens[start : start + 2 * run + 1]
            inner = window[run]
            marks = window[:run] + window[run + 1 :]
            if inner.kind != TEXT or any(t.text != _UNDERSCORE for t in marks):
                continue
            before = tokens[start - 1].text[-1:] if start else ""
            end = start + 2 * run + 1
            after = tokens[end].text[:1] if end < len(tokens) else ""
            if inner.text.strip() != inner.text or before.isalnum() or after.isalnum():
                continue
            if before == "_" or after == "_":  # part of a longer run of underscores
                continue
            for mark in marks:
                mark.kind, mark.text = FIXED, ""
            window[0].text, window[-1].text = command, "}"


def _tokens(text: str, dialect: Dialect) -> list[Token]:
    pattern = _LATEX_TOKEN if dialect.latex else _PLAIN_TOKEN
    tokens: list[Token] = []
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
            tokens.append(Token(OPEN, piece) if dialect.latex else Token(LITERAL_OPEN, "\\{"))
        elif piece == "}":
            tokens.append(Token(CLOSE, piece) if dialect.latex else Token(LITERAL_CLOSE, "\\}"))
        elif piece in (LITERAL_OPEN, LITERAL_CLOSE):
            tokens.append(Token(piece, piece))
        elif piece == "~" and dialect.from_bibtex:
            tokens.append(Token(FIXED, "~"))
        elif piece == "$$":
            tokens.append(Token(FIXED, "\\$\\$"))
        elif piece == "`":  # only plain text cuts it out
            tokens.append(Token(FIXED, _GRAVE))
        elif piece == "#" and dialect.definitions:  # a macro's parameter, `#1`
            tokens.append(Token(FIXED, "#"))
        elif piece in _ESCAPES:
            tokens.append(Token(FIXED, _ESCAPES[piece]))
        elif piece.startswith("\\"):
            tokens += _command(piece, dialect)
        else:
            tokens.append(Token(TEXT, piece))
    return tokens


def _command(piece: str, dialect: Dialect) -> list[Token]:
    """A command kept as written, unless it is one to show as text instead."""
    name = piece[1:]
    if name.isalpha() and not is_safe(name) and not _defined_here(name, dialect):
        return [Token(FIXED, "\\textbackslash{}"), Token(TEXT, name)]
    if len(name) == 1 and not (name.isascii() and name.isalpha()) and name not in _CONTROL_SYMBOLS:
        # An unknown control symbol (`\*`, a `\(` that never closes, `\é`): as written.
        return [Token(FIXED, "\\textbackslash{}"), Token(TEXT, name)]
    return [Token(FIXED, piece)]


def _defined_here(name: str, dialect: Dialect) -> bool:
    """Whether a command outside the allow-list may stay one here: the preamble written
    with the value defines it, or (in that preamble) it is how a definition begins."""
    return name in dialect.defined or (dialect.definitions and name in _DEFINING)


def balance(tokens: list[Token], unmatched_open: str, unmatched_close: str) -> None:
    """Turn every brace without a partner into a printed brace command, in place.

    Grouping braces and escaped braces are paired separately: then LaTeX (which pairs
    only the first), bibtexparser (likewise) and BibTeX and pybtex (which count both)
    all see balanced values.
    """
    for opening, closing in ((OPEN, CLOSE), (LITERAL_OPEN, LITERAL_CLOSE)):
        open_tokens: list[Token] = []
        for token in tokens:
            if token.kind == opening:
                open_tokens.append(token)
            elif token.kind == closing:
                if open_tokens:
                    open_tokens.pop()
                else:
                    token.kind, token.text = FIXED, unmatched_close
        for token in open_tokens:
            token.kind, token.text = FIXED, unmatched_open


def latex_of(tokens: list[Token], ascii_only: bool = False) -> str:
    """The tokens as LaTeX; with `ascii_only`, every non-ASCII character as LaTeX too."""
    if ascii_only:
        return "".join(
            t.text if t.text.isascii() else to_ascii(t.text, math=t.kind == MATH) for t in tokens
        )
    return "".join(t.text for t in tokens)


# --- reading a plain value back --------------------------------------------------------

_GRAVE = PRINTED_CHARACTERS["`"]
_UNESCAPES = {**{command: char for char, command in PRINTED_CHARACTERS.items()}, "{@}": "@"}
_PLAIN_PIECE = re.compile(
    r"(?P<escape>"
    + "|".join(re.escape(command) for command in PRINTED_CHARACTERS.values())
    + r"""|\\[{}%&\#_$]|\{@\})
      | (?P<latex>"""
    + BRACE_GROUP
    + r"""|\$[^$]*\$
          |\\[a-zA-Z]+\*?(?:\{[^{}]*\})*|\\.|~)""",
    re.VERBOSE | re.DOTALL,
)


def read_plain_value(value: str) -> str:
    """A PLAIN value as the text it was written from; other tools' LaTeX readable.

    Every escape `escape(text, PLAIN)` makes is undone exactly; what is left of LaTeX
    (the accent and math commands of `ascii_only`, another tool's `{\\em x}`) is read
    as a reader sees it. Line breaks and Markdown stay as they are.
    """
    return _PLAIN_PIECE.sub(_plain_piece, value)


def _plain_piece(piece: re.Match[str]) -> str:
    text = piece.group()
    if piece.group("escape"):
        return _UNESCAPES.get(text, text[-1])
    if text == "~":
        return " "
    return to_plain(text)

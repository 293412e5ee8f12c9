"""Text as the value of a BibTeX field: escaped for LaTeX, balanced, ASCII if asked,
and unable to make LaTeX touch the file system.

Text is escaped by what it is. Titles and abstracts from the web are LaTeX-ish
(OpenReview and PMLR abstracts mix `$math$`, `\\emph{}` and `\\%` with bare `%` and
`&`): math, commands and existing escapes are kept, bare special characters are
escaped (`WEB_TEXT`; a BibTeX import's own fields are `BIBTEX`). Notes, names, tags
and venues are plain text: every special character is escaped (`PLAIN`), and
`read_plain_value` gives the text back exactly. Whatever the input, every value has
balanced braces: an unmatched brace becomes `\\textbraceleft{}`/`\\textbraceright{}`
(`\\lbrace{}` in math), because BibTeX counts even escaped braces.

With `ascii_only` (the `bibtex` flavour) every non-ASCII character becomes LaTeX:
letters get accent commands (`{\\'e}`), math symbols math (`{$\\ell_p$}`, `{$\\alpha$}`,
`√` as `{$\\surd$}`), and characters LaTeX has no command for pylatexenc's visible
`⟨U+4E2D⟩` placeholder, which formats.bibtex_reader reads back as the character.

Only the formatting, accent and symbol commands of an allow-list (formats.
tex_allow_list) are written as commands. Every other control word (`\\input`,
`\\pdffiledump`, `\\openin`, `\\write18`, `\\csname` that could spell them, a
paper's own macros) and `^^5c`, which could spell a backslash, are written as text
(`\\textbackslash{}input`), in every field and in math, so a LaTeX run over the export
never acts on what a paper's fields say.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

from pylatexenc.latexencode import UnicodeToLatexEncoder

from paperdesk.formats.tex_allow_list import is_safe
from paperdesk.text import to_plain


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
    "^": "\\textasciicircum{}",
    "~": "\\textasciitilde{}",
    "\\": "\\textbackslash{}",
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
# An even run of backslashes before a brace (or the value's closing brace): `\\{` is a
# line break and a group, but bibtexparser takes the brace for an escaped one, so a
# space goes between them.
_LINE_BREAK_BEFORE_BRACE = re.compile(r"(?<!\\)((?:\\\\)+)(?=[{}]|\Z)")
# bibtexparser ends an entry at any line starting with `@word{`, even inside a value.
_AT_LINE_START = re.compile(r"^([^\S\n]*)@", re.MULTILINE)


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
    balance(tokens, "\\textbraceleft{}", "\\textbraceright{}")
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


def render(tokens: list[Token], ascii_only: bool) -> str:
    """The tokens as a field value, ready to write between braces."""
    if ascii_only:
        text = "".join(
            t.text if t.text.isascii() else to_ascii(t.text, math=t.kind == MATH) for t in tokens
        )
    else:
        text = "".join(t.text for t in tokens)
    return finish(text)


def escape(text: str, dialect: Dialect, ascii_only: bool = False) -> str:
    """`text` as a balanced, safe field value."""
    return render(tokens_of(text, dialect), ascii_only)


def finish(value: str) -> str:
    """What every value needs whatever made it: parsers must find its end."""
    if "\\" in value:
        value = _LINE_BREAK_BEFORE_BRACE.sub(r"\1 ", value)
    if "@" in value:
        value = _AT_LINE_START.sub(r"\1{@}", value)
    return value


def verbatim(text: str) -> str:
    """A URL or id as written, minus what no BibTeX value may hold (braces, blanks) and
    the `^^` that TeX would read as another character (a backslash: `^^5c`)."""
    return quote(clean(text), safe="!#$%&'()*+,/:;=?@[]`|~<>\"")


# --- ASCII for classic BibTeX --------------------------------------------------------

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_MATH_WRAPPER = ("{\\ensuremath{", "}}")
_encoder = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    unknown_char_policy="unihex",
    unknown_char_warning=False,
)
# pylatexenc writes √ as `\sqrt{}`, a root of nothing; `\surd` is the sign itself.
_OWN_MATH = {"√": "\\surd"}


@lru_cache(maxsize=4096)
def _latex_for(char: str) -> tuple[str, bool]:
    """(LaTeX, whether it is math) for one non-ASCII character.

    Where pylatexenc's command only looks like the character (`Ħ` as `\\=H`, an H with
    a macron), or reads back as something else, the placeholder is written instead: a
    paper must come back from its export as it was.
    """
    if char in _OWN_MATH:
        return _OWN_MATH[char], True
    latex = _encoder.unicode_to_latex(char)
    opening, closing = _MATH_WRAPPER
    if latex.startswith(opening) and latex.endswith(closing) and latex.count("\\ensuremath") == 1:
        math = latex[len(opening) : -len(closing)]
        known = not _NOT_IN_LATEX.intersection(_CONTROL_WORD.findall(math))
        if known and to_plain("$" + math + "$") == char:
            return math, True
    elif latex.startswith("{") and to_plain(latex) == char:
        return latex, False
    return "{" + _PLACEHOLDER_FORMAT.format(ord(char)) + "}", False


# Math commands pylatexenc writes that neither LaTeX nor amssymb defines (from a
# pdflatex run with `\ifdefined` over every command it writes; the 164 amssymb ones,
# `\mathbb` among them, are named in docs/formats.md): such a character gets the
# placeholder, or its export would not compile.
_NOT_IN_LATEX = frozenset(
    """DownArrowUpArrow VDash allequal approxnotequal arrowwaveleft arrowwaveright
    clockoint clwintegral dblarrowupdown estimates forcesextra hermitconjmatrix homothetic
    iiint iint image lazysinv notgreaterless notlessgreater original precedesnotsimilar
    recorder rightangle rightanglearc sqrint starequal surfintegral tildetrpl truestate udots
    varperspcorrespond verymuchgreater verymuchless volintegral""".split()
)
_CONTROL_WORD = re.compile(r"(?<=\\)[A-Za-z]+")
# pylatexenc's placeholder for a character LaTeX has no command for, as to_ascii writes it.
_PLACEHOLDER_FORMAT = "\\ensuremath{{\\langle}}\\texttt{{U+{:04X}}}\\ensuremath{{\\rangle}}"
_PLACEHOLDER = re.compile(
    r"(\{)?\\ensuremath\{\\langle\}\\texttt\{U\+([0-9A-F]{4,6})\}\\ensuremath\{\\rangle\}(?(1)\})"
)


def decode_placeholders(value: str) -> str:
    """The characters `⟨U+4E2D⟩` placeholders stand for (to_ascii's, or pylatexenc's)."""
    if "U+" not in value:
        return value
    return _PLACEHOLDER.sub(lambda m: _character(int(m.group(2), 16)), value)


def _character(code: int) -> str:
    return chr(code) if code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"


def to_ascii(text: str, math: bool = False) -> str:
    """Every non-ASCII run of `text` as LaTeX; `math` when the text is a math segment."""
    return _NON_ASCII.sub(lambda run: _run_to_ascii(run.group(), math), text)


def _run_to_ascii(run: str, in_math: bool) -> str:
    pieces: list[str] = []
    formula: list[str] = []  # math pieces waiting to be set in one `{$...$}`

    def close_formula() -> None:
        if formula:
            pieces.append("{$" + "".join(formula) + "$}")
            formula.clear()

    for char in run:
        latex, is_math = _latex_for(char)
        if in_math:
            pieces.append("{" + latex + "}" if is_math else "\\mbox{" + latex + "}")
        elif is_math:
            if formula and formula[-1][-1:].isalpha() and latex[:1].isalpha():
                formula.append(" ")
            formula.append(latex)
        else:
            close_formula()
            pieces.append(latex)
    close_formula()
    return "".join(pieces)


# --- reading a plain value back --------------------------------------------------------

_GRAVE = "\\textasciigrave{}"
_UNESCAPES = {
    _GRAVE: "`",
    "\\textbraceleft{}": "{",
    "\\textbraceright{}": "}",
    "\\textbackslash{}": "\\",
    "\\textasciitilde{}": "~",
    "\\textasciicircum{}": "^",
    "{@}": "@",
}
_PLAIN_PIECE = re.compile(
    r"""(?P<escape>\\text(?:braceleft|braceright|backslash|asciitilde|asciicircum|asciigrave)\{\}
          |\\[{}%&\#_$]|\{@\})
      | (?P<latex>\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}|\$[^$]*\$
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

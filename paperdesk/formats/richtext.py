"""Show the raw text of titles and abstracts the way a reader should see it.

Abstracts mix three markups: inline LaTeX (`$O(d \\log n)$`, `\\textit{...}`,
`Rockt{\\"a}schel`, `---`), Markdown (`**DocVXQA**`, `*e.g.*`, `_e3nn_`, `` `x` ``) and a
little HTML (`<em>`, `&mdash;`). One lexer turns a text into a flat list of events
(text, style on, style off, an HTML tag we do not render, a Markdown delimiter still to
be paired); `to_plain` and `to_html` render the same events, so the two views never
disagree about what a text says.

pylatexenc does the LaTeX-to-Unicode work, but only on the small pieces the lexer cuts
out (one math segment, one macro with its arguments), cached: parsing a whole abstract
with it costs ~10 ms, which the indexer cannot pay 100,000 times. Text with no markup
character at all (most abstracts) returns before any of this.
"""

from __future__ import annotations

import html
import logging
import os.path
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from pylatexenc import latex2text, latexwalker
from whoosh.lang.porter import stem

from paperdesk.core.text import collapse_whitespace

logger = logging.getLogger(__name__)

ITALIC, BOLD, CODE, SUP, SUB = "i", "b", "code", "sup", "sub"


@dataclass(frozen=True, slots=True)
class _Toggle:
    style: str
    on: bool


@dataclass(frozen=True, slots=True)
class _Tag:
    """An HTML tag that is not rendered: HTML shows it as text, plain text drops real HTML."""

    raw: str
    is_html: bool


@dataclass(slots=True)
class _Delim:
    """A Markdown emphasis run (`*`, `**`, `_`, `__`) waiting for its partner."""

    marker: str
    can_open: bool
    can_close: bool


_Event = str | _Toggle | _Tag | _Delim
_ON = {s: _Toggle(s, True) for s in (ITALIC, BOLD, CODE, SUP, SUB)}
_OFF = {s: _Toggle(s, False) for s in (ITALIC, BOLD, CODE, SUP, SUB)}

# Anything that can start markup. Text without any of these is already what a reader sees.
_MARKUP_CHARS = "$\\{}<&`~*_"


def _has_markup(text: str) -> bool:
    # A loop of `in` (memchr) is ~5x faster than one regex search over an abstract.
    for char in _MARKUP_CHARS:
        if char in text:
            return True
    return "--" in text or "''" in text


def to_plain(text: str) -> str:
    """Readable Unicode plain text: for the search index, table cells, CSV, citation keys."""
    if not _has_markup(text):
        return collapse_whitespace(text)
    try:
        return "".join(run_text for run_text, _ in _runs(_events(text), html_mode=False))
    except Exception:  # a display helper must never take the indexer or a view down
        logger.warning("could not render %.60r as plain text", text, exc_info=True)
        return collapse_whitespace(text)


def to_html(text: str, highlight: Iterable[str] = ()) -> str:
    """A safe fragment of Qt rich text (the HTML 4 subset of QLabel and QTextBrowser).

    Nothing from the source is interpreted as HTML, except that <em>/<i>, <b>/<strong>,
    <sub> and <sup> without attributes are shown as the formatting they name: abstracts
    copied from venue pages carry them, a reader wants the emphasis rather than the tag
    text, and the output tags are our own (`<i>`, `<b>`...), so no source attribute ever
    reaches the output. Every other tag (<script>, <a href>, <img>, <think>) is escaped.

    `highlight` holds search terms; see `_hit_pattern` for which words they mark.
    """
    try:
        if not _has_markup(text):
            runs = [(collapse_whitespace(text), frozenset())]
        else:
            runs = _runs(_events(text), html_mode=True)
        return _runs_to_html(runs, _hit_pattern(highlight))
    except Exception:  # see to_plain
        logger.warning("could not render %.60r as HTML", text, exc_info=True)
        return html.escape(collapse_whitespace(text), quote=False)


def protect_markup(text: str) -> str:
    """Text that `to_plain` shows as `text` (whitespace collapsed): for writers.

    Titles and names in JSON, RIS and CSV files are read as markup (the sources write
    `$K^2$-GNN` there), so a display text such as `A *B* c` or `strings {and` must be
    written escaped to come back as it was. Text that already reads as itself, nearly
    every title, is returned unchanged, so other tools see no backslashes.
    """
    shown = collapse_whitespace(text)
    if to_plain(shown) == shown:
        return shown
    return _MARKUP_CHARACTER.sub(lambda m: _PROTECTED[m.group()], shown)


_PROTECTED = {
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "`": "\\textasciigrave{}",
    "-": "-{}",  # `--` is a dash, `-{}-` two hyphens
    "'": "'{}",  # `''` is a closing quote
    **{char: "\\" + char for char in "{}$&_*<"},
}
_MARKUP_CHARACTER = re.compile(r"[\\{}$&_*<~`]|-(?=-)|'(?=')")


# --------------------------------------------------------------------------- lexer

# Text-mode macros whose braced argument the lexer opens as a scope (so Markdown and
# HTML inside still work), and the style they give it; None keeps the text plain.
# The LaTeX walker uses the same table for these macros inside math and fragments.
_STYLE_MACROS: dict[str, str | None] = {
    "textit": ITALIC,
    "emph": ITALIC,
    "textsl": ITALIC,
    "mathit": ITALIC,
    "textbf": BOLD,
    "mathbf": BOLD,
    "boldsymbol": BOLD,
    "bm": BOLD,
    "pmb": BOLD,
    "texttt": CODE,
    "mathtt": CODE,
    "textsuperscript": SUP,
    "textsubscript": SUB,
    "text": None,
    "textrm": None,
    "textsf": None,
    "textsc": None,
    "textnormal": None,
    "textup": None,
    "textmd": None,
    "mbox": None,
    "hbox": None,
    "underline": None,
    "uline": None,
    # Math alphabets show as plain letters: the Unicode math letters (𝒪, 𝐱) lie outside
    # the BMP, are often missing from UI fonts, and would stop a search for "O(n)".
    "mathrm": None,
    "mathsf": None,
    "mathcal": None,
    "mathscr": None,
    "mathfrak": None,
    "mathnormal": None,
    "operatorname": None,
    "ensuremath": None,
    "smash": None,
}
# Old-style declarations (`{\em x}`, `{\bf x}`) style the rest of the enclosing group.
_DECLARATIONS: dict[str, str | None] = {
    "em": ITALIC,
    "it": ITALIC,
    "itshape": ITALIC,
    "sl": ITALIC,
    "slshape": ITALIC,
    "bf": BOLD,
    "bfseries": BOLD,
    "tt": CODE,
    "ttfamily": CODE,
    "rm": None,
    "sf": None,
    "sc": None,
    "scshape": None,
    "normalfont": None,
    "upshape": None,
    "cal": None,
    "mit": None,
}
# Tags shown as formatting in HTML; any attribute makes a tag plain escaped text.
_HTML_STYLE_TAGS = {"em": ITALIC, "i": ITALIC, "b": BOLD, "strong": BOLD, "sub": SUB, "sup": SUP}
# Real HTML elements, dropped from plain text. Anything else in angle brackets
# (`<think>`, `<EOS>`) is what the author wrote about and stays.
_HTML_ELEMENTS = frozenset(
    "a abbr b big blockquote br cite code del div em font h1 h2 h3 h4 h5 h6 hr i img ins "
    "kbd li ol p pre q s samp script small span strike strong style sub sup table tbody "
    "td th thead tr tt u ul".split()
)
_MATH_ENVIRONMENTS = "equation|align|gather|multline|eqnarray|displaymath|math"
# biblatex and csquotes quote their argument: `\mkbibquote{De Motu}` shows “De Motu”.
_QUOTE_MACROS = ("mkbibquote", "enquote", "textquote")
_OPEN_QUOTE, _CLOSE_QUOTE = "\u201c", "\u201d"
# Macros that only steer TeX (`{\relax Yu}` keeps BibTeX from abbreviating "Yu").
_INVISIBLE_MACROS = ("relax", "protect", "nobreak", "noindent", "ignorespaces", "xspace")

_TOKEN = re.compile(
    r"""
      (?P<math>\\\(.*?\\\)|\\\[.*?\\\]
        |\\begin\{(?:"""
    + _MATH_ENVIRONMENTS
    + r""")\*?\}.*?\\end\{(?:"""
    + _MATH_ENVIRONMENTS
    + r""")\*?\})
    | (?P<dollar>\$)
    | (?P<escaped>\\[%&$\#_{}])
    | (?P<space>\\[\\,;:!\s])
    | (?P<nothing>\\[-/@]|\\(?:begin|end)\{[^{}]*\}|\\(?:"""
    + "|".join(_INVISIBLE_MACROS)
    + r""")(?![a-zA-Z])\s*)
    | (?P<item>\\item(?![a-zA-Z])\s*)
    | (?P<accent>\\(?:["'^`~=.]|[cHvkurdb](?![a-zA-Z])\s*)(?:\{[^{}]*\}|\\?[a-zA-Z]))
    | (?P<quote>\\(?:"""
    + "|".join(_QUOTE_MACROS)
    + r""")\s*\{)
    | (?P<style>\\(?:"""
    + "|".join(sorted(_STYLE_MACROS, key=len, reverse=True))
    + r""")\s*\{)
    | (?P<declaration>\\(?:"""
    + "|".join(sorted(_DECLARATIONS, key=len, reverse=True))
    + r""")(?![a-zA-Z])\s*)
    | (?P<macro>\\[a-zA-Z]+\*?(?:\[[^\[\]{}$]*\])*(?:\{[^{}$]*\})*)
    | (?P<backslash>\\.?)
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<tag><(?P<slash>/?)(?P<tagname>[a-zA-Z][a-zA-Z0-9]*)(?P<attrs>\s[^<>]*)?>)
    | (?P<entity>&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|\#[0-9]{1,7}|\#[xX][0-9a-fA-F]{1,6});)
    | (?P<code>(?<!`)`(?!`)[^`'\n]+`(?!`))
    | (?P<typography>---?|``|''|`)
    | (?P<tilde>~)
    | (?P<delim>\*+|_+)
    """,
    re.VERBOSE | re.DOTALL,
)
_TOKEN_START = re.compile(r"[$\\{}<&`~*_]|--|''")
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_AMOUNT = re.compile(r"\d[\d,.]*")
_LATEXISH = re.compile(r"[\\^_{}]")
_PROSE = re.compile(r"[^\W\d_]{2,} [^\W\d_]{2,} [^\W\d_]{2,}")  # three words in a row


@dataclass(slots=True)
class _Scope:
    """A brace group: the events that end what it opened (styles, a quotation)."""

    closers: list[_Event] = field(default_factory=list)


def _events(source: str) -> list[_Event]:
    events = _lex(source)
    _pair_emphasis(events)
    return events


def _lex(source: str) -> list[_Event]:
    events: list[_Event] = []
    scopes = [_Scope()]
    pos, end = 0, len(source)
    text_start = 0  # where the plain text not yet emitted begins
    while pos < end:
        # A plain scan finds where a token may start; the big pattern only runs there
        # (searching with it directly is ~100x slower).
        candidate = _TOKEN_START.search(source, pos)
        if candidate is None:
            break
        m = _TOKEN.match(source, candidate.start())
        if m is None:  # a `<` or `&` that starts no tag or entity
            pos = candidate.end()
            continue
        if m.start() > text_start:
            events.append(source[text_start : m.start()])
        pos = text_start = m.end()
        kind, token = m.lastgroup, m.group()  # the outer group closes last
        if kind == "math":
            events.extend(_math_events(_strip_math_delimiters(token)))
        elif kind == "dollar":
            pos = text_start = _lex_dollar(source, m.start(), events)
        elif kind == "escaped":
            events.append(token[1])
        elif kind == "space":
            events.append(" ")
        elif kind == "item":
            events.append(" • ")
        elif kind in ("accent", "macro", "typography"):
            events.extend(_text_fragment_events(token))
        elif kind == "quote":
            events.append(_OPEN_QUOTE)
            scopes.append(_Scope([_CLOSE_QUOTE]))
        elif kind == "style":
            style = _STYLE_MACROS[token[1:].rstrip("{ \t\r\n")]
            scope = _Scope()
            if style:
                events.append(_ON[style])
                scope.closers.append(_OFF[style])
            scopes.append(scope)
        elif kind == "declaration":
            style = _DECLARATIONS[token[1:].rstrip()]
            if style:
                events.append(_ON[style])
                scopes[-1].closers.append(_OFF[style])
        elif kind == "backslash":
            events.append(token[1:] or "\\")  # `\|`, `\*`; a lone trailing `\` stays
        elif kind == "open":
            scopes.append(_Scope())
        elif kind == "close":
            if len(scopes) > 1:  # a stray `}` is dropped, as TeX's error recovery would
                events.extend(reversed(scopes.pop().closers))
        elif kind == "tag":
            events.append(_tag_event(m))
        elif kind == "entity":
            events.append(html.unescape(token))
        elif kind == "code":
            events.extend((_ON[CODE], token[1:-1], _OFF[CODE]))
        elif kind == "tilde":
            events.append(_tilde(source, m.start()))
        elif kind == "delim":
            events.extend(_delims(token, source, m.start(), m.end()))
    if text_start < end:
        events.append(source[text_start:])
    for scope in reversed(scopes):
        events.extend(reversed(scope.closers))
    return events


def _strip_math_delimiters(token: str) -> str:
    if token.startswith(("\\(", "\\[")):
        return token[2:-2]
    return token[token.index("}") + 1 : token.rindex("\\end")]  # \begin{align}...\end{align}


def _lex_dollar(source: str, start: int, events: list[_Event]) -> int:
    """Read the math segment starting at `$` (or `$$`); returns where lexing goes on.

    A `$` before an amount of money (`$15 per model`, `$5.2K USD`) is a dollar sign, not
    math; an unclosed `$` makes the rest of the text math, as it would in LaTeX.
    """
    if source.startswith("$$", start):
        close = source.find("$$", start + 2)
        if close != -1:
            events.extend(_math_events(source[start + 2 : close]))
            return close + 2
    found = _UNESCAPED_DOLLAR.search(source, start + 1)
    close = found.start() if found else -1
    if _looks_like_money(source, start, close):
        events.append("$")
        return start + 1
    stop = close if close != -1 else len(source)
    events.extend(_math_events(source[start + 1 : stop]))
    return stop + 1


def _looks_like_money(source: str, start: int, close: int) -> bool:
    amount = _AMOUNT.match(source, start + 1)
    if amount is None or amount.end() == close:  # `$9$`, `$94.2$` are math
        return False
    if close == -1 or source[close - 1].isspace():  # `$0.23 - $0.27 per image`
        return True
    # `$15 per model. ... $x$`: prose up to the next `$`; `$1 - \delta$`, `$3 + O(1/m)$`,
    # `$0.03-0.15$` are math.
    body = source[start + 1 : close]
    return bool(_PROSE.search(body)) and not _LATEXISH.search(body)


def _tag_event(m: re.Match[str]) -> _Event:
    name = m.group("tagname").lower()
    style = _HTML_STYLE_TAGS.get(name)
    if style and not m.group("attrs"):
        return _OFF[style] if m.group("slash") else _ON[style]
    return _Tag(m.group(), is_html=name in _HTML_ELEMENTS)


def _tilde(source: str, at: int) -> str:
    """`~` is LaTeX's unbreakable space (`Fig.~3`, `et al.~(2019)`), except `~5x`,
    `(~6%)`: before a number and not joined to the word before, it means "about"."""
    before = source[at - 1] if at else " "
    after = source[at + 1 : at + 2]
    if after.isdigit() and (before.isspace() or before in "([{"):
        return "~"
    return " "


def _is_punctuation(char: str) -> bool:
    return unicodedata.category(char).startswith(("P", "S"))


def _delims(run: str, source: str, start: int, end: int) -> list[_Event]:
    """A `*`/`_` run as Markdown delimiters, with CommonMark's flanking rules.

    The neighbours are looked for past LaTeX braces, which BibTeX writers put around
    words (`{Q}*-learning`) and which show as nothing.
    """
    before_at = start - 1
    while before_at >= 0 and source[before_at] in "{}":
        before_at -= 1
    after_at = end
    while after_at < len(source) and source[after_at] in "{}":
        after_at += 1
    before = source[before_at] if before_at >= 0 else " "
    after = source[after_at] if after_at < len(source) else " "
    if len(run) > 3 or (run[0] == "*" and before.isdigit() and after.isdigit()):
        return [run]  # `2*3 = 6`, `2**10` are arithmetic
    left = not after.isspace() and (
        not _is_punctuation(after) or before.isspace() or _is_punctuation(before)
    )
    right = not before.isspace() and (
        not _is_punctuation(before) or after.isspace() or _is_punctuation(after)
    )
    if run[0] == "_":  # `snake_case_name` is not emphasis
        can_open = left and (not right or _is_punctuation(before))
        can_close = right and (not left or _is_punctuation(after))
    else:
        can_open, can_close = left, right
    if len(run) < 3:
        return [_Delim(run, can_open, can_close)]
    # `***x***`: bold outside italic, so an opener reads `**` `*` and a closer `*` `**`
    single, double = run[0], run[:2]
    first, second = (double, single) if can_open and not can_close else (single, double)
    return [_Delim(first, can_open, can_close), _Delim(second, can_open, can_close)]


def _pair_emphasis(events: list[_Event]) -> None:
    """Turn paired Markdown delimiters into style toggles, the rest back into text."""
    openers: list[tuple[int, str]] = []  # (index in events, marker), innermost last
    for index, event in enumerate(events):
        if not isinstance(event, _Delim):
            continue
        if event.can_close:
            partner = next(
                (k for k in reversed(range(len(openers))) if openers[k][1] == event.marker), None
            )
            if partner is not None:
                style = BOLD if len(event.marker) == 2 else ITALIC
                events[openers[partner][0]] = _ON[style]
                events[index] = _OFF[style]
                del openers[partner:]  # delimiters inside the pair can no longer pair
                continue
        if event.can_open:
            openers.append((index, event.marker))
    for index, event in enumerate(events):
        if isinstance(event, _Delim):
            events[index] = event.marker


# --------------------------------------------------------------------------- LaTeX
#
# LaTeX fragments become a small tree of _Chars, _Group, _Macro and _Math nodes, which
# one walker turns into events. Math that uses only braces, scripts and macros we can
# look up (pylatexenc's symbol table, or our own handling) is read by `_parse_simple`
# (~30x faster); anything else goes through pylatexenc's parser and `_adapt`.

_WALKER_CONTEXT = latexwalker.get_default_latex_context_db()
_TEXT_CONTEXT = latex2text.get_default_latex_context_db()
_LATEX_TO_TEXT = latex2text.LatexNodes2Text(latex_context=_TEXT_CONTEXT, math_mode="text")
_PLAIN_MATH = re.compile(r"[^\\{}^_~&%']*")
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)%")
_TEXT_SPECIALS = re.compile(r"--|`|''|~")  # typography only pylatexenc's parser reads

_FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sfrac", "binom"})
_CITATIONS = re.compile(r"(?:no)?cite[a-z]*|(?:paren|text|auto|foot)cite")
_COMBINING_ACCENTS = {
    "tilde": "\u0303",
    "Tilde": "\u0303",
    "widetilde": "\u0303",
    "hat": "\u0302",
    "widehat": "\u0302",
    "check": "\u030c",
    "breve": "\u0306",
    "bar": "\u0304",
    "overline": "\u0305",
    "vec": "\u20d7",
    "dot": "\u0307",
    "ddot": "\u0308",
}
# Macros whose arguments we read ourselves, with how many.
_OWN_ARGUMENTS = {
    **dict.fromkeys(_STYLE_MACROS, 1),
    **dict.fromkeys(_COMBINING_ACCENTS, 1),
    **dict.fromkeys(_FRACTIONS, 2),
    **dict.fromkeys(_QUOTE_MACROS, 1),
    "sqrt": 1,
    "mathbb": 1,
    "mathds": 1,
    "mathbbm": 1,
    "url": 1,
    "footnote": 1,
    "href": 2,
    "textcolor": 2,
}
# Macros pylatexenc has no (or another) text for: `\|`, ones papers often define for
# themselves, and the escapes BibTeX writers put in text (`\textbraceleft{}`).
_OWN_SYMBOLS = {
    "eps": "ε",
    "R": "ℝ",
    "N": "ℕ",
    "Z": "ℤ",
    "|": "‖",
    "textbraceleft": "{",
    "textbraceright": "}",
    "textasciicircum": "^",
    "textunderscore": "_",
    "textless": "<",
    "textgreater": ">",
    "textbar": "|",
    "textquotedbl": '"',
}
_DELIMITER_SIZES = re.compile(r"m?left|m?right|middle|[bB]igg?[lrm]?|limits|nolimits")
_CALLIGRAPHIC_SHORTHAND = re.compile(r"c[A-Z]")  # \cO, \cA: \mathcal{O}, \mathcal{A}
# Scripts that read as part of the symbol: x*, f′, θ⋆ rather than x^*.
_INLINE_SCRIPTS = frozenset({"*", "'", "''", "′", "″", "∗", "⋆", "†", "‡", "∘"})


@dataclass(slots=True)
class _Chars:
    text: str


@dataclass(slots=True)
class _Group:
    children: list[_Node]
    verbatim: str  # the source between the braces, for URLs and citation keys


@dataclass(slots=True)
class _Math:
    children: list[_Node]


@dataclass(slots=True)
class _Macro:
    name: str
    args: list[_Node | None]  # as pylatexenc parsed them; None for an absent optional one
    post_space: bool
    parsed: latexwalker.LatexMacroNode | None = None  # for pylatexenc's own conversion


_Node = _Chars | _Group | _Math | _Macro


@lru_cache(maxsize=1 << 14)
def _math_events(content: str) -> tuple[_Event, ...]:
    """One math segment. A lone letter is italic, as a variable is in typeset math."""
    letter = content.strip()
    if len(letter) == 1 and letter.isascii() and letter.isalpha():
        return (_ON[ITALIC], letter, _OFF[ITALIC])
    if _PLAIN_MATH.fullmatch(content):  # `9`, `94.2`, `0.03-0.15`: nothing to convert
        return (content,)
    nodes = _parse_simple(content)
    if nodes is None:
        return _latex_events("$" + content + "$", math=False)  # pylatexenc sees the `$`
    return tuple(_node_list_events(nodes, math=True))


@lru_cache(maxsize=1 << 14)
def _text_fragment_events(source: str) -> tuple[_Event, ...]:
    """A macro with its arguments, a dash or a quote, outside math."""
    nodes = None if _TEXT_SPECIALS.search(source) else _parse_simple(source)
    if nodes is None:
        return _latex_events(source, math=False)
    return tuple(_node_list_events(nodes, math=False))


@lru_cache(maxsize=1 << 14)
def _latex_events(source: str, math: bool) -> tuple[_Event, ...]:
    """A LaTeX fragment as events, through pylatexenc's parser."""
    # A bare `%` in an abstract is a percent sign, never a LaTeX comment.
    source = _UNESCAPED_PERCENT.sub(r"\\%", source)
    try:
        walker = latexwalker.LatexWalker(
            source, latex_context=_WALKER_CONTEXT, tolerant_parsing=True
        )
        nodes = walker.get_latex_nodes()[0]
        return tuple(_node_list_events([_adapt(n) for n in nodes], math))
    except Exception:  # pylatexenc parses a big language; no fragment may break a view
        logger.debug("pylatexenc could not read %r", source, exc_info=True)
        return (re.sub(r"[\\{}$]", "", source),)


def _adapt(node: latexwalker.LatexNode) -> _Node:
    """A pylatexenc node as one of ours."""
    if isinstance(node, latexwalker.LatexCharsNode):
        return _Chars(node.chars)
    if isinstance(node, latexwalker.LatexGroupNode):
        return _Group([_adapt(n) for n in node.nodelist], node.latex_verbatim()[1:-1])
    if isinstance(node, latexwalker.LatexMathNode):
        return _Math([_adapt(n) for n in node.nodelist])
    if isinstance(node, latexwalker.LatexMacroNode):
        argnlist = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else ()
        args = [None if a is None else _adapt(a) for a in argnlist]
        return _Macro(node.macroname, args, bool(node.macro_post_space), node)
    if isinstance(node, latexwalker.LatexEnvironmentNode):
        children = [_adapt(n) for n in node.nodelist]
        is_math = re.fullmatch(rf"(?:{_MATH_ENVIRONMENTS})\*?", node.environmentname)
        return _Math(children) if is_math else _Group(children, "")
    if isinstance(node, latexwalker.LatexCommentNode):
        return _Chars("%" + node.comment)
    if isinstance(node, latexwalker.LatexSpecialsNode):
        if node.specials_chars in ("~", "&"):  # unbreakable space, alignment tab
            return _Chars(" ")
        if node.parsing_state.in_math_mode:  # `f''(x)` is a double prime, not a quote
            return _Chars(node.specials_chars)
    return _Chars(_LATEX_TO_TEXT.node_to_text(node))


_FORMAT_FIELD = re.compile(r"%[s(\d]")  # pylatexenc fills these from the arguments
_SIMPLE_TOKEN = re.compile(r"\\([a-zA-Z]+)(\s*)|\\(.)|([{}])|([^\\{}~&]+)|([~&])", re.DOTALL)


def _parse_simple(source: str) -> list[_Node] | None:
    """Math made of characters, braces, scripts and macros we know, or None."""
    stack: list[tuple[list[_Node], int]] = [([], 0)]
    for m in _SIMPLE_TOKEN.finditer(source):
        name, space, symbol, brace, chars, blank = m.groups()
        if chars is not None:
            stack[-1][0].append(_Chars(chars))
        elif blank is not None:
            stack[-1][0].append(_Chars(" "))
        elif brace == "{":
            stack.append(([], m.end()))
        elif brace == "}":
            if len(stack) == 1:
                return None
            children, start = stack.pop()
            stack[-1][0].append(_Group(children, source[start : m.start()]))
        else:
            macro_name = name or symbol
            if not _simple_macro(macro_name):
                return None
            stack[-1][0].append(_Macro(macro_name, [], bool(space)))
    if len(stack) != 1 or not _attach_arguments(stack[0][0]):
        return None
    return stack[0][0]


@lru_cache(maxsize=4096)
def _simple_macro(name: str) -> bool:
    """Can `_parse_simple` read this macro without pylatexenc's parser?"""
    spec = _WALKER_CONTEXT.get_macro_spec(name)
    argspec = spec.args_parser.argspec if spec is not None else ""
    if name in _OWN_ARGUMENTS or name in _DECLARATIONS or _DELIMITER_SIZES.fullmatch(name):
        return set(argspec) <= {"{", "["}
    if argspec:
        return False
    text_spec = _TEXT_CONTEXT.get_macro_spec(name)
    if text_spec is None:  # an author's own macro
        return True
    repl = text_spec.simplify_repl
    return isinstance(repl, str) and not _FORMAT_FIELD.search(repl)


def _attach_arguments(nodes: list[_Node]) -> bool:
    """Move the braced arguments pylatexenc would parse into their macros (recursively).

    False when an argument is not braced (`\\frac12`, `\\sqrt[3]{x}`): pylatexenc then.
    """
    index = 0
    while index < len(nodes):
        node = nodes[index]
        index += 1
        if isinstance(node, _Group) and not _attach_arguments(node.children):
            return False
        if not isinstance(node, _Macro):
            continue
        spec = _WALKER_CONTEXT.get_macro_spec(node.name)
        for kind in spec.args_parser.argspec if spec is not None else "":
            following = nodes[index] if index < len(nodes) else None
            if kind == "[":
                if isinstance(following, _Chars) and following.text.lstrip().startswith("["):
                    return False
                node.args.append(None)
            elif isinstance(following, _Group):
                if not _attach_arguments(following.children):
                    return False
                node.args.append(following)
                del nodes[index]
            elif isinstance(following, _Chars) and following.text.strip():
                # `\frac1n`, `\hat x`: a single character is the argument
                text = following.text.lstrip()
                node.args.append(_Chars(text[0]))
                if text[1:]:
                    following.text = text[1:]
                else:
                    del nodes[index]
            elif isinstance(following, _Macro) and not following.args:
                node.args.append(following)  # `\hat\theta`
                del nodes[index]
            else:
                return False
    return True


def _node_list_events(nodes: Sequence[_Node], math: bool) -> list[_Event]:
    out: list[_Event] = []
    script: str | None = None  # `^` or `_` seen, waiting for what it applies to
    index = 0
    while index < len(nodes):
        node = nodes[index]
        index += 1
        if math and isinstance(node, _Chars):
            for part in re.split(r"([\^_])", node.text):
                if part in ("^", "_"):
                    script = SUP if part == "^" else SUB
                    continue
                if script:
                    part = part.lstrip()  # `x^ 2` is `x^2`
                    if not part:
                        continue
                    out.extend(_script(script, [part[0]]))
                    script, part = None, part[1:]
                if part:
                    out.append(part)
            continue
        if isinstance(node, _Macro) and node.name in _DECLARATIONS:
            # `{\bf x}`, `{\cal O}`: the declaration styles the rest of its group.
            style = _DECLARATIONS[node.name]
            rest = _node_list_events(nodes[index:], math)
            events = [_ON[style], *rest, _OFF[style]] if style else rest
            index = len(nodes)
        elif isinstance(node, _Macro):
            events, taken = _macro_events(node, nodes[index:], math)
            index += taken
        elif isinstance(node, _Group):
            events = _node_list_events(node.children, math)
        elif isinstance(node, _Math):
            events = _node_list_events(node.children, True)
        else:
            events = [node.text]
        if script:
            out.extend(_script(script, events))
            script = None
        else:
            out.extend(events)
    return out


def _script(kind: str, events: Sequence[_Event]) -> list[_Event]:
    text = _events_text(events)
    if text.strip() in _INLINE_SCRIPTS:
        return list(events)
    if all(isinstance(e, str) for e in events):
        # Converted now, so that a script inside a script (`e^{-x^2/2}`) keeps its own.
        unicode_text = _unicode_script(text, kind)
        if unicode_text is not None:
            return [unicode_text]
    return [_ON[kind], *events, _OFF[kind]]


def _events_text(events: Iterable[_Event]) -> str:
    return "".join(e for e in events if isinstance(e, str))


def _take_arguments(node: _Macro, rest: Sequence[_Node], count: int) -> tuple[list[_Node], int]:
    """The macro's last `count` arguments, and how many following nodes supplied them.

    Macros pylatexenc does not know (`\\bm`, `\\tfrac`, an author's `\\vct`) get no
    parsed arguments: the groups after them are their arguments.
    """
    args = [a for a in node.args if a is not None]
    if len(args) >= count:
        return args[len(args) - count :], 0
    taken = 0
    while len(args) < count and taken < len(rest) and isinstance(rest[taken], _Group):
        args.append(rest[taken])
        taken += 1
    return args, taken


def _walk_argument(arg: _Node, math: bool) -> list[_Event]:
    return _node_list_events(arg.children if isinstance(arg, _Group) else [arg], math)


def _verbatim(arg: _Node) -> str:
    if isinstance(arg, _Group):
        return arg.verbatim
    return arg.text if isinstance(arg, _Chars) else ""


def _macro_events(node: _Macro, rest: Sequence[_Node], math: bool) -> tuple[list[_Event], int]:
    """A macro's events, and how many of the nodes after it it took as arguments."""
    name = node.name
    if _DELIMITER_SIZES.fullmatch(name):  # `\left(`: the delimiter itself follows
        return [], 0
    if name in _INVISIBLE_MACROS:
        return [], 0
    if name == "verb":
        args = [a for a in node.args if a is not None]
        return ([_ON[CODE], _verbatim(args[-1]), _OFF[CODE]] if args else []), 0
    if _CITATIONS.fullmatch(name):
        args, taken = _take_arguments(node, rest, 1)
        keys = _verbatim(args[-1]) if args else ""
        return ([f"[{keys}]"] if keys else []), taken
    if name not in _OWN_ARGUMENTS:
        return _symbol_events(node, rest, math)
    args, taken = _take_arguments(node, rest, _OWN_ARGUMENTS[name])
    if len(args) < _OWN_ARGUMENTS[name]:
        return [], taken
    return _own_macro_events(node, args, math), taken


def _own_macro_events(node: _Macro, args: list[_Node], math: bool) -> list[_Event]:
    name = node.name
    last = args[-1]
    if name in _STYLE_MACROS:
        style = _STYLE_MACROS[name]
        in_math = (math or name == "ensuremath") and not name.startswith(("text", "mbox", "hbox"))
        events = _walk_argument(last, in_math)
        return [_ON[style], *events, _OFF[style]] if style else events
    if name in _QUOTE_MACROS:
        return [_OPEN_QUOTE, *_walk_argument(last, math), _CLOSE_QUOTE]
    if name in _FRACTIONS:
        top, bottom = _walk_argument(args[0], math), _walk_argument(last, math)
        if name == "binom":
            return ["(", *top, " choose ", *bottom, ")"]
        return [*_operand(top), "/", *_operand(bottom)]
    if name == "sqrt":
        degree_arg = node.args[0] if len(node.args) == 2 else None
        degree = _walk_argument(degree_arg, math) if degree_arg is not None else []
        radicand = _operand(_walk_argument(last, math))
        return [*_script(SUP, degree), "√", *radicand] if degree else ["√", *radicand]
    if name in _COMBINING_ACCENTS:
        base = _events_text(_walk_argument(last, math)).strip()
        accented = "".join(c + _COMBINING_ACCENTS[name] for c in base)
        return [unicodedata.normalize("NFC", accented)]
    if name in ("mathbb", "mathds", "mathbbm"):
        return [_double_struck(_events_text(_walk_argument(last, math)))]
    if name == "url":
        return [_verbatim(last)]
    if name == "footnote":
        return [" (", *_walk_argument(last, math), ")"]
    return _walk_argument(last, math)  # \href, \textcolor: the text, not its target


def _double_struck(text: str) -> str:
    """ℝ, ℕ, ℤ where Unicode has a double-struck letter in its main plane, else the letter.

    The rest (𝔼, 𝟙) lie outside the BMP, like the other math alphabets (see \\mathcal).
    """
    letters = []
    for char in text:
        try:
            letters.append(unicodedata.lookup(f"DOUBLE-STRUCK CAPITAL {char}"))
        except KeyError:
            letters.append(char)
    return "".join(letters)


def _symbol_events(node: _Macro, rest: Sequence[_Node], math: bool) -> tuple[list[_Event], int]:
    """A macro standing for a symbol or word: `\\alpha`, `\\log`, `\\"a`, an author's own."""
    name = node.name
    text_spec = None if name in _OWN_SYMBOLS else _TEXT_CONTEXT.get_macro_spec(name)
    if text_spec is None:
        return _unknown_macro_events(node, rest, math)
    if node.parsed is None:  # `_parse_simple` only lets plain replacement strings through
        text = str(text_spec.simplify_repl)
    else:
        try:
            text = _LATEX_TO_TEXT.node_to_text(node.parsed)
        except Exception:  # pylatexenc's own specs disagree on a few argument counts
            logger.debug("pylatexenc could not convert \\%s", name, exc_info=True)
            text = name
    text = unicodedata.normalize("NFC", text)
    # The blank after `\log` in `\log n` stays readable; the one in `\c c` only parted
    # the accent from its argument.
    takes_argument = any(arg is not None for arg in node.args)
    return [text + " " if text and node.post_space and not takes_argument else text], 0


def _unknown_macro_events(
    node: _Macro, rest: Sequence[_Node], math: bool
) -> tuple[list[_Event], int]:
    """An author's own macro: `\\vct{x}` shows `x`, `\\eps` shows `ε`, `\\ModelName` its name."""
    name = node.name
    if name in _OWN_SYMBOLS:
        text = _OWN_SYMBOLS[name]
    elif _CALLIGRAPHIC_SHORTHAND.fullmatch(name):
        text = name[1]
    else:
        args, taken = _take_arguments(node, rest, 1)
        if args:
            return _walk_argument(args[-1], math), taken
        text = name
    return [text + " " if node.post_space else text], 0


def _operand(events: list[_Event]) -> list[_Event]:
    """Bracket a fraction or root operand unless it is one number or name: 1/(n+1), √T."""
    text = _events_text(events).strip()
    if re.fullmatch(r"[\w.]+|\(.*\)", text):
        return events
    return ["(", *events, ")"]


# --------------------------------------------------------------------------- rendering


def _script_table(tag: str) -> dict[str, str]:
    """Derived from Unicode's own decompositions (`²` is `<super> 2`), not typed in."""
    table: dict[str, str] = {}
    for code in range(0xA0, 0x2C80):  # later blocks hold letters few fonts draw
        char = chr(code)
        if char in "ªº":  # ordinal indicators, not superscript letters
            continue
        parts = unicodedata.decomposition(char).split()
        if len(parts) == 2 and parts[0] == tag:
            table[chr(int(parts[1], 16))] = char
    table["-"] = table["\u2212"]  # a hyphen in `^{-1}` means minus
    if tag == "<super>":
        table["⊤"] = table["T"]  # `x^\top` is a transpose
    return table


_SUPERSCRIPTS = _script_table("<super>")
_SUBSCRIPTS = _script_table("<sub>")

_Run = tuple[str, frozenset[str]]


def _unicode_script(text: str, kind: str) -> str | None:
    """`K^2` -> `K²` when every character has a Unicode superscript (subscript)."""
    table = _SUPERSCRIPTS if kind == SUP else _SUBSCRIPTS
    converted = []
    for char in text:
        if char.isspace():  # spaces inside math scripts are not meant to be seen
            continue
        if char not in table:
            return None
        converted.append(table[char])
    return "".join(converted)


def _runs(events: Iterable[_Event], html_mode: bool) -> list[_Run]:
    """Styled runs of text with whitespace collapsed as a browser would."""
    counts: dict[str, int] = {}
    styles: frozenset[str] = frozenset()
    merged: list[list] = []
    for event in events:
        if isinstance(event, _Toggle):
            counts[event.style] = max(counts.get(event.style, 0) + (1 if event.on else -1), 0)
            styles = frozenset(s for s, n in counts.items() if n)
            continue
        if isinstance(event, _Tag):
            text = event.raw if html_mode or not event.is_html else " "
        else:
            text = str(event)
        if not text:
            continue
        if merged and merged[-1][1] == styles:
            merged[-1][0] += text
        else:
            merged.append([text, styles])

    runs: list[_Run] = []
    after_space = True  # no leading blank
    for text, run_styles in merged:
        for kind in (SUP, SUB):
            if kind in run_styles:
                text, run_styles = _render_script(text.strip(), kind, run_styles, html_mode)
        text = _collapse_keeping_ends(text)
        if after_space:
            text = text.lstrip(" ")
        if text:
            runs.append((text, run_styles))
            after_space = text.endswith(" ")
    while runs and runs[-1][0].endswith(" "):
        text, run_styles = runs.pop()
        if text.rstrip(" "):
            runs.append((text.rstrip(" "), run_styles))
            break
    return runs


def _collapse_keeping_ends(text: str) -> str:
    """Whitespace runs as one space, keeping a blank at either end for the next run."""
    inner = collapse_whitespace(text)
    if not inner:
        return " " if text else ""
    return (" " if text[0].isspace() else "") + inner + (" " if text[-1].isspace() else "")


def _render_script(
    text: str, kind: str, styles: frozenset[str], html_mode: bool
) -> tuple[str, frozenset[str]]:
    unicode_text = _unicode_script(text, kind)
    if unicode_text is not None:
        return unicode_text, styles - {kind}
    if html_mode or not text:
        return text, styles
    if text in _INLINE_SCRIPTS:  # `K\textsuperscript{*}` reads K*, as `$K^*$` does
        return text, styles - {kind}
    mark = "^" if kind == SUP else "_"
    return (mark + text if len(text) == 1 else f"{mark}({text})"), styles - {kind}


_HTML_ORDER = (BOLD, ITALIC, CODE, SUP, SUB)
_HIT_OPEN = '<span class="hit" style="background-color:#ffe066;color:#000">'


def _runs_to_html(runs: list[_Run], hits: re.Pattern[str] | None) -> str:
    spans = [m.span() for m in hits.finditer("".join(t for t, _ in runs))] if hits else []
    parts: list[str] = []
    offset = 0
    for text, styles in runs:
        ordered = [s for s in _HTML_ORDER if s in styles]
        parts.extend(f"<{s}>" for s in ordered)
        parts.append(_highlighted(text, offset, spans))
        parts.extend(f"</{s}>" for s in reversed(ordered))
        offset += len(text)
    return "".join(parts)


def _highlighted(text: str, offset: int, spans: list[tuple[int, int]]) -> str:
    """Escape one run, wrapping the parts of it that search hits cover."""
    out: list[str] = []
    cursor = 0
    for start, stop in spans:
        start, stop = max(start - offset, cursor), min(stop - offset, len(text))
        if start >= stop:
            continue
        out.append(html.escape(text[cursor:start], quote=False))
        out.append(_HIT_OPEN + html.escape(text[start:stop], quote=False) + "</span>")
        cursor = stop
    out.append(html.escape(text[cursor:], quote=False))
    return "".join(out)


def _hit_pattern(terms: Iterable[str]) -> re.Pattern[str] | None:
    """Which words a list of search terms marks.

    A word is marked when its lower case starts with a term's stem: "training" marks
    "train", "trains" and "training"; "policy" marks "policies". The stem is the longest
    common prefix of the term and its Porter stem (whoosh's stemmer), since Porter's stem
    is not always a prefix ("policy" -> "polici"). `train*` marks words starting with
    "train". Terms of one or two letters mark only the same word, or "a" would mark half
    the abstract.
    """
    alternatives = set()
    for term in terms:
        words = re.findall(r"\w+", term.casefold())
        for position, word in enumerate(words):
            wildcard = position == len(words) - 1 and term.rstrip().endswith("*")
            if wildcard:
                alternatives.add(re.escape(word) + r"\w*")
            elif len(word) <= 2:
                alternatives.add(re.escape(word) + r"(?!\w)")
            else:
                prefix = os.path.commonprefix([word, stem(word)]) or word
                alternatives.add(re.escape(prefix) + r"\w*")
    if not alternatives:
        return None
    ordered = sorted(alternatives, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(ordered) + ")", re.IGNORECASE)

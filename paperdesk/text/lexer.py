"""A text with inline LaTeX, Markdown and a little HTML, read into a flat list of events.

Abstracts mix three markups: inline LaTeX (`$O(d \\log n)$`, `\\textit{...}`,
`Rockt{\\"a}schel`, `---`), Markdown (`**DocVXQA**`, `*e.g.*`, `_e3nn_`, `` `x` ``) and a
little HTML (`<em>`, `&mdash;`). The lexer finds each piece of markup; LaTeX pieces
(one math segment, one macro with its arguments) go to `paperdesk.text.latex`, so
pylatexenc only ever sees small, cacheable fragments: parsing a whole abstract with it
costs ~10 ms, which the indexer cannot pay 100,000 times.
"""

from __future__ import annotations

import html
import re
import string
import unicodedata
from dataclasses import dataclass, field

from paperdesk.text.events import (
    BOLD,
    CODE,
    ITALIC,
    OFF,
    ON,
    SUB,
    SUP,
    Delim,
    Event,
    Tag,
    events_text,
)
from paperdesk.text.latex import math_events, text_fragment_events
from paperdesk.text.macros import (
    CLOSE_QUOTE,
    CONTROL_WORD,
    DECLARATIONS,
    INVISIBLE_MACROS,
    LOGOS,
    MATH_ENVIRONMENTS,
    OPEN_QUOTE,
    QUOTE_MACROS,
    STYLE_MACROS,
)

# Tags shown as formatting in HTML; any attribute makes a tag plain escaped text.
_HTML_STYLE_TAGS = {"em": ITALIC, "i": ITALIC, "b": BOLD, "strong": BOLD, "sub": SUB, "sup": SUP}
# Real HTML elements, dropped from plain text. Anything else in angle brackets
# (`<think>`, `<EOS>`) is what the author wrote about and stays.
_HTML_ELEMENTS = frozenset(
    "a abbr b big blockquote br cite code del div em font h1 h2 h3 h4 h5 h6 hr i img ins "
    "kbd li ol p pre q s samp script small span strike strong style sub sup table tbody "
    "td th thead tr tt u ul".split()
)

# `\"a`, `\'{E}`, `\c c`, `\~{\i}`, `{\~ Z}`: an accent and the letter it goes on
# (its argument, like any macro's, may follow a blank; not `\.`'s, as web text writes
# `al.\. No`).
ACCENT = r"\\(?:[.=]|(?:[\"'^`~]|[cHvkurdb](?![a-zA-Z]))\s*)(?:\{[^{}]*\}|\\?[a-zA-Z])"
# An accent command's combining mark, for an accent with no letter of its own.
_LONE_ACCENTS = {
    "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", '"': "\u0308",
    "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
    "c": "\u0327", "k": "\u0328", "r": "\u030a", "d": "\u0323", "b": "\u0331",
}  # fmt: skip
# TeX's own spacing and raising with the dimension they take (`\kern-.15em`,
# `\raise 0.5ex`, `\hskip 1em plus 1fil`, `\penalty10000`): typesetting, not text.
_DIMENSION = (
    r"\s*[-+]?\s*(?:\d+\.?\d*|\.\d+)\s*(?:true\s*)?(?:pt|em|ex|mm|cm|in|bp|pc|dd|cc|sp|mu)?"
    r"(?:\s*(?:plus|minus)\s*[-+]?(?:\d+\.?\d*|\.\d+)\s*(?:fil+|pt|em|ex|mm|cm|in|mu))*"
    r"\s?"  # TeX ends a dimension at one blank, which it drops
)
_SKIP = r"\\(?:hskip|mskip|kern|mkern|vskip|raise|lower|moveleft|moveright|penalty)(?![a-zA-Z])"
_TOKEN = re.compile(
    r"""
      (?P<math>\\\(.*?\\\)|\\\[.*?\\\]
        |\\begin\{(?:"""
    + MATH_ENVIRONMENTS
    + r""")\*?\}.*?\\end\{(?:"""
    + MATH_ENVIRONMENTS
    + r""")\*?\})
    | (?P<dollar>\$)
    | (?P<escaped>\\[%&$\#_{}])
    | (?P<space>\\[\\,;:!\s])
    | (?P<nothing>\\[-/@]|\\(?:begin|end)\{[^{}]*\}|\\(?:"""
    + "|".join(INVISIBLE_MACROS)
    + r""")(?![a-zA-Z])\s*)
    | (?P<item>\\item(?![a-zA-Z])\s*)
    | (?P<skip>"""
    + _SKIP
    + _DIMENSION
    + r""")
    | (?P<char>\\char\s*(?:`\\?.|\d{1,7}|'[0-7]{1,7}|"[0-9A-Fa-f]{1,6}))
    | (?P<accent>"""
    + ACCENT
    + r""")
    | (?P<quote>\\(?:"""
    + "|".join(QUOTE_MACROS)
    + r""")\s*\{)
    | (?P<style>\\(?:"""
    + "|".join(sorted(STYLE_MACROS, key=len, reverse=True))
    + r""")\s*\{)
    | (?P<declaration>\\(?:"""
    + "|".join(sorted(DECLARATIONS, key=len, reverse=True))
    + r""")(?![a-zA-Z])\s*)
    | (?P<macro>\\[a-zA-Z]+\*?(?:\[[^\[\]{}$]*\])*(?:\{[^{}$]*\})*)
    | (?P<backslash>\\.?)
    | (?P<open>\{)
    | (?P<close>\})
    | (?P<tag><(?P<slash>/?)(?P<tagname>[a-zA-Z][a-zA-Z0-9]*)(?P<attrs>\s[^<>]*)?>)
    | (?P<entity>&(?:[a-zA-Z][a-zA-Z0-9]{1,31}|\#[0-9]{1,7}|\#[xX][0-9a-fA-F]{1,6});)
    | (?P<code>(?<!`)`(?!`)[^`'\n]+(?<!\\)`(?!`))
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
# What follows the backslash of a command for a letter: a name (`\ss`) or an accent.
_LETTER_COMMAND_STARTS = frozenset(string.ascii_letters + "\"'^`~=.")
_PROSE = re.compile(r"[^\W\d_]{2,} [^\W\d_]{2,} [^\W\d_]{2,}")  # three words in a row


@dataclass(slots=True)
class _Scope:
    """A brace group: the events that end what it opened (styles, a quotation)."""

    closers: list[Event] = field(default_factory=list)


# LaTeX's single quotes: `word' (a closing `'` before any other backquote or quote).
_SINGLE_QUOTES = re.compile(r"(?<![`\\])`([^`'\n\\$]{1,200})'(?!')")


def read_events(source: str) -> list[Event]:
    """The source's events, Markdown emphasis paired."""
    if "`" in source:
        source = _SINGLE_QUOTES.sub("\u2018\\1\u2019", source)
    events = _lex(source)
    _pair_emphasis(events)
    return events


def _lex(source: str) -> list[Event]:
    events: list[Event] = []
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
            events.extend(math_events(_strip_math_delimiters(token)))
        elif kind == "dollar":
            pos = text_start = _lex_dollar(source, m.start(), events)
        elif kind == "escaped":
            events.append(token[1])
        elif kind == "space":
            events.append(" ")
        elif kind == "item":
            events.append(" • ")
        elif kind == "skip":
            if token.startswith(("\\hskip", "\\mskip")):
                events.append(" ")
        elif kind == "accent" and token.endswith("{}"):
            # An accent on nothing, set over the letter before it (Vietnamese names
            # stack two: `Th\^e\llap{\raise 0.5ex\hbox{\'{}}}` is "Thế").
            _set_over_last_letter(events, _LONE_ACCENTS.get(token[1], ""))
        elif kind in ("accent", "typography"):
            events.extend(text_fragment_events(token))
        elif kind == "macro":
            pos = text_start = _macro(source, m.end(), token, events)
        elif kind == "char":
            events.append(_character(token))
        elif kind == "quote":
            events.append(OPEN_QUOTE)
            scopes.append(_Scope([CLOSE_QUOTE]))
        elif kind == "style":
            style = STYLE_MACROS[token[1:].rstrip("{ \t\r\n")]
            scope = _Scope()
            if style:
                events.append(ON[style])
                scope.closers.append(OFF[style])
            scopes.append(scope)
        elif kind == "declaration":
            style = DECLARATIONS[token[1:].rstrip()]
            if style:
                events.append(ON[style])
                scopes[-1].closers.append(OFF[style])
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
            events.extend((ON[CODE], token[1:-1], OFF[CODE]))
        elif kind == "tilde":
            events.append(_tilde(source, m.start()))
        elif kind == "delim":
            events.extend(_delims(token, source, m.start(), m.end()))
    if text_start < end:
        events.append(source[text_start:])
    for scope in reversed(scopes):
        events.extend(reversed(scope.closers))
    return events


def _set_over_last_letter(events: list[Event], accent: str) -> None:
    """The accent joined to the letter the events end with, or on its own."""
    at = len(events) - 1
    while at >= 0 and events[at] == "":  # what `\llap` and `\raise` left
        at -= 1
    last = events[at] if at >= 0 else None
    if isinstance(last, str) and last[-1:].isalpha():
        events[at] = last[:-1] + unicodedata.normalize("NFC", last[-1] + accent)
    else:
        events.append(accent)


def _macro(source: str, end: int, token: str, events: list[Event]) -> int:
    """A macro and its arguments as events; returns where lexing goes on.

    A macro shown by its own name (`\\ModelName`) is a word of its own, never glued to
    the word before it; a bare one that stands for a letter, a dash, a space or a logo
    (`Stra\\ss e`, `subscriptions\\Dash What`, `Ars\\TeX nica`) eats the blanks after
    it, as TeX does, and a logo joins the word before it (`Lua\\TeX`).
    """
    fragment = text_fragment_events(token)
    shown = events_text(fragment)
    bare = CONTROL_WORD.fullmatch(token)
    logo = bare and token[1:] in LOGOS
    if bare and not logo and shown == token[1:] and events and _ends_in_word(events[-1]):
        events.append(" ")
    events.extend(fragment)
    stands_for_a_letter = len(shown) == 1 and (shown.isalnum() or shown.isspace() or shown in "-–—")
    if logo or (bare and stands_for_a_letter):
        return _after_blanks(source, end)
    return end


def _ends_in_word(event: Event) -> bool:
    return isinstance(event, str) and event[-1:].isalnum()


def _after_blanks(source: str, position: int) -> int:
    while position < len(source) and source[position] in " \t\n":
        position += 1
    return position


def _character(token: str) -> str:
    """`\\char92`, `\\char'134`, `\\char"5C`, ``\\char`\\\\``: the character with that code."""
    code = token[5:].lstrip()
    if code.startswith("`"):
        return code[-1]
    number = (
        int(code[1:], 8) if code[0] == "'" else int(code[1:], 16) if code[0] == '"' else int(code)
    )
    # TeX's codes below 32 are font-specific glyphs, not characters a reader knows.
    return chr(number) if 32 <= number < 0x110000 and not 0xD800 <= number < 0xE000 else ""


def _strip_math_delimiters(token: str) -> str:
    if token.startswith(("\\(", "\\[")):
        return token[2:-2]
    return token[token.index("}") + 1 : token.rindex("\\end")]  # \begin{align}...\end{align}


def _lex_dollar(source: str, start: int, events: list[Event]) -> int:
    """Read the math segment starting at `$` (or `$$`); returns where lexing goes on.

    A `$` before an amount of money (`$15 per model`, `$5.2K USD`) is a dollar sign, not
    math; an unclosed `$` makes the rest of the text math, as it would in LaTeX.
    """
    if source.startswith("$$", start):
        close = source.find("$$", start + 2)
        if close != -1:
            events.extend(math_events(source[start + 2 : close]))
            return close + 2
    found = _UNESCAPED_DOLLAR.search(source, start + 1)
    close = found.start() if found else -1
    if _looks_like_money(source, start, close):
        events.append("$")
        return start + 1
    stop = close if close != -1 else len(source)
    events.extend(math_events(source[start + 1 : stop]))
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


def _tag_event(m: re.Match[str]) -> Event:
    name = m.group("tagname").lower()
    if name == "tex" and not m.group("attrs"):
        return ""  # IEEE Xplore wraps TeX in titles in <tex>...</tex>: what is inside is read
    style = _HTML_STYLE_TAGS.get(name)
    if style and not m.group("attrs"):
        return OFF[style] if m.group("slash") else ON[style]
    return Tag(m.group(), is_html=name in _HTML_ELEMENTS)


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


def _command_start(source: str, at: int) -> str:
    """The first character the command at `at` shows, as a neighbour of a delimiter:
    `{\\'e}`, `{\\ss}`, `{\\c{L}}` stand for letters; `{\\textquoteright}` (an ASCII
    export's `’`) for punctuation, so `*e.g.*{\\textquoteright}` closes its emphasis as
    `*e.g.*’` does."""
    named = CONTROL_WORD.match(source, at)
    if named is None:
        return "a"  # an accent command (`\\'e`, `\\"o`): a letter
    shown = events_text(text_fragment_events(named.group())).lstrip()
    if not shown or unicodedata.combining(shown[0]):
        return "a"  # `\\c`, `\\v` alone show a space and a combining accent: a letter
    return shown[0]


def _delims(run: str, source: str, start: int, end: int) -> list[Event]:
    """A `*`/`_` run as Markdown delimiters, with CommonMark's flanking rules.

    The neighbours are looked for past LaTeX braces, which BibTeX writers put around
    words (`{Q}*-learning`) and which show as nothing; a command after them stands for
    a letter (`*e.g.*{\\'e}`, as an ASCII export writes `*e.g.*é`).
    """
    before_at = start - 1
    while before_at >= 0 and source[before_at] in "{}":
        before_at -= 1
    after_at = end
    while after_at < len(source) and source[after_at] in "{}":
        after_at += 1
    before = source[before_at] if before_at >= 0 else " "
    after = source[after_at] if after_at < len(source) else " "
    if after == "\\" and source[after_at + 1 : after_at + 2] in _LETTER_COMMAND_STARTS:
        after = _command_start(source, after_at)

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
        return [Delim(run, can_open, can_close)]
    # `***x***`: bold outside italic, so an opener reads `**` `*` and a closer `*` `**`
    single, double = run[0], run[:2]
    first, second = (double, single) if can_open and not can_close else (single, double)
    return [Delim(first, can_open, can_close), Delim(second, can_open, can_close)]


def _pair_emphasis(events: list[Event]) -> None:
    """Turn paired Markdown delimiters into style toggles, the rest back into text."""
    openers: list[tuple[int, str]] = []  # (index in events, marker), innermost last
    for index, event in enumerate(events):
        if not isinstance(event, Delim):
            continue
        if event.can_close:
            partner = next(
                (k for k in reversed(range(len(openers))) if openers[k][1] == event.marker), None
            )
            if partner is not None:
                style = BOLD if len(event.marker) == 2 else ITALIC
                events[openers[partner][0]] = ON[style]
                events[index] = OFF[style]
                del openers[partner:]  # delimiters inside the pair can no longer pair
                continue
        if event.can_open:
            openers.append((index, event.marker))
    for index, event in enumerate(events):
        if isinstance(event, Delim):
            events[index] = event.marker

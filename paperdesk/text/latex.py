"""LaTeX fragments (one math segment, one macro with its arguments) as events.

The lexer cuts these pieces out of a text; here they become a tree (`latex_tree`) and
one walker turns the tree into events. Results are cached: the same `$\\epsilon$` or
`\\textit{e.g.}` comes back thousands of times while a library is indexed.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

from paperdesk.text.events import CODE, ITALIC, OFF, ON, SUB, SUP, Event, events_text
from paperdesk.text.latex_tree import (
    TEXT_CONTEXT,
    Chars,
    Group,
    Macro,
    Math,
    Node,
    macro_text,
    parse_latex,
    parse_simple,
)
from paperdesk.text.macros import (
    CALLIGRAPHIC_SHORTHAND,
    CITATIONS,
    CLOSE_QUOTE,
    COMBINING_ACCENTS,
    DECLARATIONS,
    DELIMITER_SIZES,
    FRACTIONS,
    INVISIBLE_MACROS,
    OPEN_QUOTE,
    OWN_ARGUMENTS,
    OWN_SYMBOLS,
    QUOTE_MACROS,
    STYLE_MACROS,
)
from paperdesk.text.scripts import INLINE_SCRIPTS, unicode_script

_PLAIN_MATH = re.compile(r"[^\\{}^_~&%']*")
_TEXT_SPECIALS = re.compile(r"--|`|''|~")  # typography only pylatexenc's parser reads


# Deeper brace nesting than any formula is written with: a tree that deep would exhaust
# the recursion of the walkers (and pylatexenc's), so such a fragment is shown unread.
MAX_NESTING = 50


@lru_cache(maxsize=1 << 14)
def math_events(content: str) -> tuple[Event, ...]:
    """One math segment. A lone letter is italic, as a variable is in typeset math."""
    letter = content.strip()
    if len(letter) == 1 and letter.isascii() and letter.isalpha():
        return (ON[ITALIC], letter, OFF[ITALIC])
    if _PLAIN_MATH.fullmatch(content):  # `9`, `94.2`, `0.03-0.15`: nothing to convert
        return (content,)
    if _too_deep(content):
        return (_unread(content),)
    nodes = parse_simple(content)
    if nodes is None:
        return _latex_events("$" + content + "$", math=False)  # pylatexenc sees the `$`
    return tuple(_node_list_events(nodes, math=True))


@lru_cache(maxsize=1 << 14)
def text_fragment_events(source: str) -> tuple[Event, ...]:
    """A macro with its arguments, a dash or a quote, outside math."""
    if _too_deep(source):
        return (_unread(source),)
    nodes = None if _TEXT_SPECIALS.search(source) else parse_simple(source)
    if nodes is None:
        return _latex_events(source, math=False)
    return tuple(_node_list_events(nodes, math=False))


@lru_cache(maxsize=1 << 14)
def _latex_events(source: str, math: bool) -> tuple[Event, ...]:
    """A LaTeX fragment as events, through pylatexenc's parser."""
    nodes = parse_latex(source)
    if nodes is None:
        return (_unread(source),)
    return tuple(_node_list_events(nodes, math))


def _unread(source: str) -> str:
    """A fragment that cannot be read: without its markup characters, still readable."""
    return re.sub(r"[\\{}$]", "", source)


def _too_deep(source: str) -> bool:
    if source.count("{") <= MAX_NESTING:
        return False
    depth = 0
    for char in source:
        if char == "{":
            depth += 1
            if depth > MAX_NESTING:
                return True
        elif char == "}":
            depth = max(depth - 1, 0)
    return False


def _node_list_events(nodes: Sequence[Node], math: bool) -> list[Event]:
    out: list[Event] = []
    script: str | None = None  # `^` or `_` seen, waiting for what it applies to
    index = 0
    while index < len(nodes):
        node = nodes[index]
        index += 1
        if math and isinstance(node, Chars):
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
        if isinstance(node, Macro) and node.name in DECLARATIONS:
            # `{\bf x}`, `{\cal O}`: the declaration styles the rest of its group.
            style = DECLARATIONS[node.name]
            rest = _node_list_events(nodes[index:], math)
            events = [ON[style], *rest, OFF[style]] if style else rest
            index = len(nodes)
        elif isinstance(node, Macro):
            events, taken = _macro_events(node, nodes[index:], math)
            index += taken
        elif isinstance(node, Group):
            events = _node_list_events(node.children, math)
        elif isinstance(node, Math):
            events = _node_list_events(node.children, True)
        else:
            events = [node.text]
        if script:
            out.extend(_script(script, events))
            script = None
        else:
            out.extend(events)
    return out


def _script(kind: str, events: Sequence[Event]) -> list[Event]:
    text = events_text(events)
    if text.strip() in INLINE_SCRIPTS:
        return list(events)
    if all(isinstance(e, str) for e in events):
        # Converted now, so that a script inside a script (`e^{-x^2/2}`) keeps its own.
        unicode_text = unicode_script(text, kind)
        if unicode_text is not None:
            return [unicode_text]
    return [ON[kind], *events, OFF[kind]]


def _take_arguments(node: Macro, rest: Sequence[Node], count: int) -> tuple[list[Node], int]:
    """The macro's last `count` arguments, and how many following nodes supplied them.

    Macros pylatexenc does not know (`\\bm`, `\\tfrac`, an author's `\\vct`) get no
    parsed arguments: the groups after them are their arguments.
    """
    args = [a for a in node.args if a is not None]
    if len(args) >= count:
        return args[len(args) - count :], 0
    taken = 0
    while len(args) < count and taken < len(rest) and isinstance(rest[taken], Group):
        args.append(rest[taken])
        taken += 1
    return args, taken


def _walk_argument(arg: Node, math: bool) -> list[Event]:
    return _node_list_events(arg.children if isinstance(arg, Group) else [arg], math)


def _verbatim(arg: Node) -> str:
    if isinstance(arg, Group):
        return arg.verbatim
    return arg.text if isinstance(arg, Chars) else ""


def _macro_events(node: Macro, rest: Sequence[Node], math: bool) -> tuple[list[Event], int]:
    """A macro's events, and how many of the nodes after it it took as arguments."""
    name = node.name
    if DELIMITER_SIZES.fullmatch(name):  # `\left(`: the delimiter itself follows
        return [], 0
    if name in INVISIBLE_MACROS:
        return [], 0
    if name == "verb":
        args = [a for a in node.args if a is not None]
        return ([ON[CODE], _verbatim(args[-1]), OFF[CODE]] if args else []), 0
    if CITATIONS.fullmatch(name):
        args, taken = _take_arguments(node, rest, 1)
        keys = _verbatim(args[-1]) if args else ""
        return ([f"[{keys}]"] if keys else []), taken
    if name not in OWN_ARGUMENTS:
        return _symbol_events(node, rest, math)
    args, taken = _take_arguments(node, rest, OWN_ARGUMENTS[name])
    if len(args) < OWN_ARGUMENTS[name]:
        return [], taken
    return _own_macro_events(node, args, math), taken


def _own_macro_events(node: Macro, args: list[Node], math: bool) -> list[Event]:
    name = node.name
    last = args[-1]
    if name in STYLE_MACROS:
        style = STYLE_MACROS[name]
        in_math = (math or name == "ensuremath") and not name.startswith(("text", "mbox", "hbox"))
        events = _walk_argument(last, in_math)
        return [ON[style], *events, OFF[style]] if style else events
    if name in QUOTE_MACROS:
        return [OPEN_QUOTE, *_walk_argument(last, math), CLOSE_QUOTE]
    if name in FRACTIONS:
        top, bottom = _walk_argument(args[0], math), _walk_argument(last, math)
        if name == "binom":
            return ["(", *top, " choose ", *bottom, ")"]
        return [*_operand(top), "/", *_operand(bottom)]
    if name == "sqrt":
        degree_arg = node.args[0] if len(node.args) == 2 else None
        degree = _walk_argument(degree_arg, math) if degree_arg is not None else []
        radicand = _operand(_walk_argument(last, math))
        return [*_script(SUP, degree), "√", *radicand] if degree else ["√", *radicand]
    if name in COMBINING_ACCENTS:
        base = events_text(_walk_argument(last, math)).strip()
        accented = "".join(c + COMBINING_ACCENTS[name] for c in base)
        return [unicodedata.normalize("NFC", accented)]
    if name in ("mathbb", "mathds", "mathbbm"):
        return [_double_struck(events_text(_walk_argument(last, math)))]
    if name == "url":
        return [_verbatim(last)]
    if name == "footnote":
        return [" (", *_walk_argument(last, math), ")"]
    if name in ("nth", "mkbibordinal"):
        return [_ordinal(events_text(_walk_argument(last, math)).strip())]
    return _walk_argument(last, math)  # \href, \textcolor: the text, not its target


def _ordinal(number: str) -> str:
    """`\\nth{3}` -> 3rd, `\\nth{11}` -> 11th; anything but a number as it is."""
    if not number.isdigit():
        return number
    if number[-2:] in ("11", "12", "13"):
        return number + "th"
    return number + {"1": "st", "2": "nd", "3": "rd"}.get(number[-1], "th")


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


def _symbol_events(node: Macro, rest: Sequence[Node], math: bool) -> tuple[list[Event], int]:
    """A macro standing for a symbol or word: `\\alpha`, `\\log`, `\\"a`, an author's own."""
    name = node.name
    text_spec = None if name in OWN_SYMBOLS else TEXT_CONTEXT.get_macro_spec(name)
    if text_spec is None:
        return _unknown_macro_events(node, rest, math)
    if node.parsed is None:  # `parse_simple` only lets plain replacement strings through
        text = str(text_spec.simplify_repl)
    else:
        converted = macro_text(node.parsed)
        text = name if converted is None else converted
    text = unicodedata.normalize("NFC", text)
    if name == "~":
        text = _tilde_meant_as_caron(text)
    # The blank after `\log` in `\log n` stays readable; the one in `\c c` only parted
    # the accent from its argument.
    takes_argument = any(arg is not None for arg in node.args)
    return [text + " " if text and node.post_space and not takes_argument else text], 0


def _tilde_meant_as_caron(text: str) -> str:
    """`Ne\\~{s}et\\~{r}il` -> Nešetřil: no orthography puts a tilde on s, r, c or z
    (Unicode has no such letters), and bibliographies that do mean the caron of Czech
    and Slovak names. Letters that take a tilde (ã, ñ, õ) keep it.
    """
    if len(text) != 2 or text[1] != "\u0303":
        return text
    caron = unicodedata.normalize("NFC", text[0] + "\u030c")
    return caron if len(caron) == 1 else text


def _unknown_macro_events(node: Macro, rest: Sequence[Node], math: bool) -> tuple[list[Event], int]:
    """An author's own macro: `\\vct{x}` shows `x`, `\\eps` shows `ε`, `\\ModelName` its name."""
    name = node.name
    if name in OWN_SYMBOLS:
        text = OWN_SYMBOLS[name]
    elif CALLIGRAPHIC_SHORTHAND.fullmatch(name):
        text = name[1]
    else:
        args, taken = _take_arguments(node, rest, 1)
        if args and not _is_empty_group(args[-1]):
            return _walk_argument(args[-1], math), taken
        if not math and name.islower():
            # In text, a lower-case one steers typesetting (`\strut`, a font switch
            # like `\ssf`, `\tubissue` before its number): it shows nothing. A name
            # with capitals names something (`\ModelName`) and is shown.
            return [" " if node.post_space else ""], taken
        # `\ModelName{}` ends the name with an empty group, as `\LaTeX{}` does
        return [name + " " if node.post_space else name], taken
    return [text + " " if node.post_space else text], 0


def _is_empty_group(node: Node) -> bool:
    return isinstance(node, Group) and not node.children


def _operand(events: list[Event]) -> list[Event]:
    """Bracket a fraction or root operand unless it is one number or name: 1/(n+1), √T."""
    text = events_text(events).strip()
    if re.fullmatch(r"[\w.]+|\(.*\)", text):
        return events
    return ["(", *events, ")"]

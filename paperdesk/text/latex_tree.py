"""LaTeX source as a small tree of Chars, Group, Math and Macro nodes.

Math that uses only braces, scripts and macros we can look up (pylatexenc's symbol
table, or our own handling) is read by `parse_simple` (~30x faster than pylatexenc);
anything else goes through pylatexenc's parser (`parse_latex`), whose nodes `adapt`
turns into ours. `paperdesk.text.latex` walks the tree.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

from pylatexenc import latex2text, latexwalker

from paperdesk.text.macros import DECLARATIONS, DELIMITER_SIZES, MATH_ENVIRONMENTS, OWN_ARGUMENTS

logger = logging.getLogger(__name__)

WALKER_CONTEXT = latexwalker.get_default_latex_context_db()
TEXT_CONTEXT = latex2text.get_default_latex_context_db()
LATEX_TO_TEXT = latex2text.LatexNodes2Text(latex_context=TEXT_CONTEXT, math_mode="text")
_UNESCAPED_PERCENT = re.compile(r"(?<!\\)%")


@dataclass(slots=True)
class Chars:
    text: str


@dataclass(slots=True)
class Group:
    children: list[Node]
    verbatim: str  # the source between the braces, for URLs and citation keys


@dataclass(slots=True)
class Math:
    children: list[Node]


@dataclass(slots=True)
class Macro:
    name: str
    args: list[Node | None]  # as pylatexenc parsed them; None for an absent optional one
    post_space: bool
    parsed: latexwalker.LatexMacroNode | None = None  # for pylatexenc's own conversion


Node = Chars | Group | Math | Macro


def parse_latex(source: str) -> list[Node] | None:
    """Any LaTeX fragment, through pylatexenc's parser; None where pylatexenc fails."""
    # A bare `%` in an abstract is a percent sign, never a LaTeX comment.
    source = _UNESCAPED_PERCENT.sub(r"\\%", source)
    walker = latexwalker.LatexWalker(source, latex_context=WALKER_CONTEXT, tolerant_parsing=True)
    try:
        nodes = walker.get_latex_nodes()[0]
    # Tolerant parsing recovers from what the LaTeX gets wrong, but pylatexenc's own
    # readers can still fail: its `\verb` reader runs off the end of a text ending in
    # `\verb` (IndexError), and LatexWalkerError is its documented parse failure.
    except (latexwalker.LatexWalkerError, IndexError):
        logger.debug("pylatexenc could not read %r", source, exc_info=True)
        return None
    return [adapt(node) for node in nodes]


def macro_text(node: latexwalker.LatexMacroNode) -> str | None:
    """pylatexenc's text for a macro it parsed, or None where it has none to give.

    Its text table and its parser disagree on some macros' arguments: `$\\colorbox{x}$`
    fills a `%(3)s` field the parser left out (KeyError), `\\input` and `\\exercise` read
    arguments that are not there (IndexError, TypeError), `\\title` its absent argument
    list (AttributeError).
    """
    try:
        return str(LATEX_TO_TEXT.node_to_text(node))
    except (AttributeError, IndexError, KeyError, TypeError):
        logger.debug("pylatexenc has no text for \\%s", node.macroname, exc_info=True)
        return None


def adapt(node: latexwalker.LatexNode) -> Node:
    """A pylatexenc node as one of ours."""
    if isinstance(node, latexwalker.LatexCharsNode):
        return Chars(node.chars)
    if isinstance(node, latexwalker.LatexGroupNode):
        return Group([adapt(n) for n in node.nodelist], node.latex_verbatim()[1:-1])
    if isinstance(node, latexwalker.LatexMathNode):
        return Math([adapt(n) for n in node.nodelist])
    if isinstance(node, latexwalker.LatexMacroNode):
        argnlist = node.nodeargd.argnlist if node.nodeargd and node.nodeargd.argnlist else ()
        args = [None if a is None else adapt(a) for a in argnlist]
        return Macro(node.macroname, args, bool(node.macro_post_space), node)
    if isinstance(node, latexwalker.LatexEnvironmentNode):
        children = [adapt(n) for n in node.nodelist]
        is_math = re.fullmatch(rf"(?:{MATH_ENVIRONMENTS})\*?", node.environmentname)
        return Math(children) if is_math else Group(children, "")
    if isinstance(node, latexwalker.LatexCommentNode):
        return Chars("%" + node.comment)
    if isinstance(node, latexwalker.LatexSpecialsNode):
        if node.specials_chars in ("~", "&"):  # unbreakable space, alignment tab
            return Chars(" ")
        if node.parsing_state.in_math_mode:  # `f''(x)` is a double prime, not a quote
            return Chars(node.specials_chars)
    return Chars(LATEX_TO_TEXT.node_to_text(node))


_FORMAT_FIELD = re.compile(r"%[s(\d]")  # pylatexenc fills these from the arguments
_SIMPLE_TOKEN = re.compile(r"\\([a-zA-Z]+)(\s*)|\\(.)|([{}])|([^\\{}~&]+)|([~&])", re.DOTALL)


def parse_simple(source: str) -> list[Node] | None:
    """Math made of characters, braces, scripts and macros we know, or None."""
    stack: list[tuple[list[Node], int]] = [([], 0)]
    for m in _SIMPLE_TOKEN.finditer(source):
        name, space, symbol, brace, chars, blank = m.groups()
        if chars is not None:
            stack[-1][0].append(Chars(chars))
        elif blank is not None:
            stack[-1][0].append(Chars(" "))
        elif brace == "{":
            stack.append(([], m.end()))
        elif brace == "}":
            if len(stack) == 1:
                return None
            children, start = stack.pop()
            stack[-1][0].append(Group(children, source[start : m.start()]))
        else:
            macro_name = name or symbol
            if not _simple_macro(macro_name):
                return None
            stack[-1][0].append(Macro(macro_name, [], bool(space)))
    if len(stack) != 1 or not _attach_arguments(stack[0][0]):
        return None
    return stack[0][0]


@lru_cache(maxsize=4096)
def _simple_macro(name: str) -> bool:
    """Can `parse_simple` read this macro without pylatexenc's parser?"""
    spec = WALKER_CONTEXT.get_macro_spec(name)
    argspec = spec.args_parser.argspec if spec is not None else ""
    if name in OWN_ARGUMENTS or name in DECLARATIONS or DELIMITER_SIZES.fullmatch(name):
        return set(argspec) <= {"{", "["}
    if argspec:
        return False
    text_spec = TEXT_CONTEXT.get_macro_spec(name)
    if text_spec is None:  # an author's own macro
        return True
    repl = text_spec.simplify_repl
    return isinstance(repl, str) and not _FORMAT_FIELD.search(repl)


def _attach_arguments(nodes: list[Node]) -> bool:
    """Move the braced arguments pylatexenc would parse into their macros (recursively).

    False when an argument is not braced (`\\frac12`, `\\sqrt[3]{x}`): pylatexenc then.
    """
    index = 0
    while index < len(nodes):
        node = nodes[index]
        index += 1
        if isinstance(node, Group) and not _attach_arguments(node.children):
            return False
        if not isinstance(node, Macro):
            continue
        spec = WALKER_CONTEXT.get_macro_spec(node.name)
        for kind in spec.args_parser.argspec if spec is not None else "":
            following = nodes[index] if index < len(nodes) else None
            if kind == "[":
                if isinstance(following, Chars) and following.text.lstrip().startswith("["):
                    return False
                node.args.append(None)
            elif isinstance(following, Group):
                if not _attach_arguments(following.children):
                    return False
                node.args.append(following)
                del nodes[index]
            elif isinstance(following, Chars) and following.text.strip():
                # `\frac1n`, `\hat x`: a single character is the argument
                text = following.text.lstrip()
                node.args.append(Chars(text[0]))
                if text[1:]:
                    following.text = text[1:]
                else:
                    del nodes[index]
            elif isinstance(following, Macro) and not following.args:
                node.args.append(following)  # `\hat\theta`
                del nodes[index]
            else:
                return False
    return True

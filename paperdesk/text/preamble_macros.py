"""The macros a BibTeX `@preamble` defines, expanded where an entry uses them.

A TeX-world bibliography defines its own shorthands there (TUGboat's
`\\providecommand{\\TUB}{TUGboat}`, `\\newcommand{\\tubissue}[2]{#1(#2)}`): a reader
of the entry should see what the document prints, "TUGboat 11(4)", not the macro's
name or its bare arguments. Only definitions of the plain kinds are read
(`\\newcommand`, `\\renewcommand`, `\\providecommand` with or without a number of
arguments, `\\def` with `#1#2...`); anything cleverer is left to the text engine,
which shows an unknown macro's argument. Expansion is bounded, so a definition that
calls itself stops instead of growing without end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DEFINITION = re.compile(
    r"\\(?:(?:provide|new|renew)command\*?\s*(?:\{\s*\\([A-Za-z]+)\s*\}|\\([A-Za-z]+))"
    r"\s*(?:\[(\d)\])?\s*(?:\[[^\]]*\])?"
    r"|[egx]?def\s*\\([A-Za-z]+)((?:#\d)*))\s*\{"
)
_USE = re.compile(r"\\([A-Za-z]+)")
_PARAMETER = re.compile(r"#([1-9])")
# How many times macros may be expanded in one text, and how long it may grow.
MAX_ROUNDS = 8
MAX_GROWTH = 10_000


@dataclass(frozen=True)
class Macro:
    arguments: int
    body: str


def preamble_macros(preamble: str) -> dict[str, Macro]:
    """The macros `preamble` defines by name; a later definition replaces an earlier."""
    macros: dict[str, Macro] = {}
    for match in _DEFINITION.finditer(preamble):
        body_end = _group_end(preamble, match.end() - 1)
        if body_end is None:
            continue
        name = match.group(1) or match.group(2) or match.group(4)
        if match.group(4):
            arguments = len(match.group(5)) // 2
        else:
            arguments = int(match.group(3) or 0)
        macros[name] = Macro(arguments, preamble[match.end() : body_end])
    return macros


def expand(text: str, macros: dict[str, Macro]) -> str:
    """`text` with every use of `macros` replaced by its body, arguments filled in."""
    if not macros or "\\" not in text:
        return text
    limit = len(text) + MAX_GROWTH
    for _ in range(MAX_ROUNDS):
        expanded = _expand_once(text, macros)
        if expanded == text or len(expanded) > limit:
            break
        text = expanded
    return text


def _expand_once(text: str, macros: dict[str, Macro]) -> str:
    pieces: list[str] = []
    position = 0
    for use in _USE.finditer(text):
        if use.start() < position:  # inside the arguments of the macro before
            continue
        macro = macros.get(use.group(1))
        if macro is None:
            continue
        arguments, end = _arguments(text, use.end(), macro.arguments)
        if arguments is None:
            continue
        body = _filled(macro.body, arguments)
        # Braced, as TeX's expansion keeps a declaration inside (`{\sc Metafont}`).
        pieces += [text[position : use.start()], "{", body, "}"]
        position = end
    pieces.append(text[position:])
    return "".join(pieces)


def _filled(body: str, arguments: list[str]) -> str:
    """The body with `#1`, `#2`... replaced by the arguments (a missing one by nothing)."""

    def argument(parameter: re.Match[str]) -> str:
        number = int(parameter.group(1))
        return arguments[number - 1] if number <= len(arguments) else ""

    return _PARAMETER.sub(argument, body)


def _arguments(text: str, position: int, count: int) -> tuple[list[str] | None, int]:
    """`count` undelimited arguments from `position` (a braced group or one character)."""
    arguments: list[str] = []
    while len(arguments) < count:
        while position < len(text) and text[position].isspace():
            position += 1
        if position >= len(text):
            return None, position
        if text[position] == "{":
            end = _group_end(text, position)
            if end is None:
                return None, position
            arguments.append(text[position + 1 : end])
            position = end + 1
        else:
            arguments.append(text[position])
            position += 1
    if not count and text[position : position + 2] == "{}":
        position += 2  # `\TUB{}`: the empty group only ended the name
    return arguments, position


def _group_end(text: str, start: int) -> int | None:
    """Index of the `}` closing the group opened at `start`."""
    depth = 0
    index = start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return None

"""Superscripts and subscripts: as Unicode characters where every one has its own (`K²`),
else marked (`T^(1/3)` in plain text) or left to HTML's <sup>/<sub>."""

from __future__ import annotations

import unicodedata

from paperdesk.text.events import SUP

# Scripts that read as part of the symbol: x*, f′, θ⋆ rather than x^*.
INLINE_SCRIPTS = frozenset({"*", "'", "''", "′", "″", "∗", "⋆", "†", "‡", "∘"})


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


def unicode_script(text: str, kind: str) -> str | None:
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


def render_script(
    text: str, kind: str, styles: frozenset[str], html_mode: bool
) -> tuple[str, frozenset[str]]:
    """A run styled as a script (`kind`), and the styles left for HTML to show."""
    unicode_text = unicode_script(text, kind)
    if unicode_text is not None:
        return unicode_text, styles - {kind}
    if html_mode or not text:
        return text, styles
    if text in INLINE_SCRIPTS:  # `K\textsuperscript{*}` reads K*, as `$K^*$` does
        return text, styles - {kind}
    mark = "^" if kind == SUP else "_"
    return (mark + text if len(text) == 1 else f"{mark}({text})"), styles - {kind}

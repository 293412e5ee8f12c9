"""The events a text is read into, before it is rendered as plain text or HTML.

The lexer turns a text into a flat list of events: text, a style switched on or off,
an HTML tag that is not rendered, a Markdown delimiter still to be paired. `plain` and
`html` render the same events, so the two views never disagree about what a text says.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ITALIC, BOLD, CODE, SUP, SUB = "i", "b", "code", "sup", "sub"


@dataclass(frozen=True, slots=True)
class Toggle:
    style: str
    on: bool


@dataclass(frozen=True, slots=True)
class Tag:
    """An HTML tag that is not rendered: HTML shows it as text, plain text drops real HTML."""

    raw: str
    is_html: bool


@dataclass(slots=True)
class Delim:
    """A Markdown emphasis run (`*`, `**`, `_`, `__`) waiting for its partner."""

    marker: str
    can_open: bool
    can_close: bool


Event = str | Toggle | Tag | Delim
ON = {s: Toggle(s, True) for s in (ITALIC, BOLD, CODE, SUP, SUB)}
OFF = {s: Toggle(s, False) for s in (ITALIC, BOLD, CODE, SUP, SUB)}


def events_text(events: Iterable[Event]) -> str:
    """The text the events hold, without their styles."""
    return "".join(e for e in events if isinstance(e, str))

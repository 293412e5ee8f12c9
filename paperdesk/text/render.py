"""A text as styled runs: what both the plain-text and the HTML view render."""

from __future__ import annotations

from collections.abc import Iterable

from paperdesk.core.text import collapse_whitespace
from paperdesk.text.events import SUB, SUP, Event, Tag, Toggle
from paperdesk.text.lexer import read_events
from paperdesk.text.scripts import render_script

# A piece of text and the styles (events.ITALIC, BOLD...) it is shown in.
Run = tuple[str, frozenset[str]]

# Anything that can start markup. Text without any of these is already what a reader sees.
_MARKUP_CHARS = "$\\{}<&`~*_"


def has_markup(text: str) -> bool:
    """Whether the text holds anything the lexer would read as markup."""
    # A loop of `in` (memchr) is ~5x faster than one regex search over an abstract.
    for char in _MARKUP_CHARS:
        if char in text:
            return True
    return "--" in text or "''" in text


def styled_runs(text: str, html_mode: bool) -> list[Run]:
    """The text's runs; `html_mode` keeps unrendered tags and scripts Unicode lacks."""
    if not has_markup(text):  # most abstracts: nothing to read
        plain = collapse_whitespace(text)
        return [(plain, frozenset())] if plain else []
    return _runs(read_events(text), html_mode)


def _runs(events: Iterable[Event], html_mode: bool) -> list[Run]:
    """Styled runs of text with whitespace collapsed as a browser would."""
    counts: dict[str, int] = {}
    styles: frozenset[str] = frozenset()
    merged: list[list] = []
    for event in events:
        if isinstance(event, Toggle):
            counts[event.style] = max(counts.get(event.style, 0) + (1 if event.on else -1), 0)
            styles = frozenset(s for s, n in counts.items() if n)
            continue
        if isinstance(event, Tag):
            text = event.raw if html_mode or not event.is_html else " "
        else:
            text = str(event)
        if not text:
            continue
        if merged and merged[-1][1] == styles:
            merged[-1][0] += text
        else:
            merged.append([text, styles])

    runs: list[Run] = []
    after_space = True  # no leading blank
    for text, run_styles in merged:
        for kind in (SUP, SUB):
            if kind in run_styles:
                # `n^\alpha \log n`: the blank after the script parts it from the next word
                after = " " if text[-1:].isspace() else ""
                text, run_styles = render_script(text.strip(), kind, run_styles, html_mode)
                text += after
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

"""A text as a safe fragment of Qt rich text, with search hits and other marks styled."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from paperdesk.core.text import collapse_whitespace
from paperdesk.text.events import BOLD, CODE, ITALIC, SUB, SUP
from paperdesk.text.render import Run, styled_runs

logger = logging.getLogger(__name__)

_HTML_ORDER = (BOLD, ITALIC, CODE, SUP, SUB)
_HIT_STYLE = "background-color:#ffe066;color:#000"
HIT_OPEN = f'<span class="hit" style="{_HIT_STYLE}">'


@dataclass(frozen=True)
class Mark:
    """Characters `start`..`stop` of the shown text (`shown_text`) styled with CSS
    declarations (`"background-color:#fff59d;color:#000"`), e.g. an annotated passage.

    Where marks overlap, a later mark's declarations win over an earlier one's, and
    search hits win over every mark.
    """

    start: int
    stop: int
    style: str


def shown_text(text: str) -> str:
    """The characters `to_html` shows, in order: what a reader selects, what marks count."""
    try:
        return "".join(run for run, _ in styled_runs(text, html_mode=True))
    except Exception:  # see to_html
        logger.exception("could not render %.60r", text)
        return collapse_whitespace(text)


def to_html(text: str, hits: re.Pattern[str] | None = None, marks: Sequence[Mark] = ()) -> str:
    """A safe fragment of Qt rich text (the HTML 4 subset of QLabel and QTextBrowser).

    Nothing from the source is interpreted as HTML, except that <em>/<i>, <b>/<strong>,
    <sub> and <sup> without attributes are shown as the formatting they name: abstracts
    copied from venue pages carry them, a reader wants the emphasis rather than the tag
    text, and the output tags are our own (`<i>`, `<b>`...), so no source attribute ever
    reaches the output. Every other tag (<script>, <a href>, <img>, <think>) is escaped.

    `hits` marks what it matches in the text a reader sees (never inside markup); which
    words a search marks is the search index's business (paperdesk.search.highlight).
    `marks` style other stretches of that text (annotated passages, tinted words).
    """
    try:
        return _runs_to_html(styled_runs(text, html_mode=True), hits, marks)
    except Exception:  # see to_plain: the source text, and an error in the log
        logger.exception("could not render %.60r as HTML", text)
        return escape(collapse_whitespace(text), quote=False)


# A stretch of the shown text with its CSS and whether it is a search hit.
_Span = tuple[int, int, str, bool]


def _runs_to_html(runs: list[Run], hits: re.Pattern[str] | None, marks: Sequence[Mark]) -> str:
    shown = "".join(t for t, _ in runs)
    spans: list[_Span] = [(m.start, m.stop, m.style, False) for m in marks if m.start < m.stop]
    if hits:
        spans.extend((*m.span(), _HIT_STYLE, True) for m in hits.finditer(shown))
    parts: list[str] = []
    offset = 0
    for text, styles in runs:
        ordered = [s for s in _HTML_ORDER if s in styles]
        parts.extend(f"<{s}>" for s in ordered)
        parts.append(_highlighted(text, offset, spans))
        parts.extend(f"</{s}>" for s in reversed(ordered))
        offset += len(text)
    return "".join(parts)


def _highlighted(text: str, offset: int, spans: list[_Span]) -> str:
    """Escape one run, wrapping each part of it that spans cover in one styled span."""
    inside = [s for s in spans if s[0] < offset + len(text) and s[1] > offset]
    if not inside:
        return escape(text, quote=False)
    cuts = sorted(
        {0, len(text)}
        | {
            min(max(edge - offset, 0), len(text))
            for start, stop, _, _ in inside
            for edge in (start, stop)
        }
    )
    out: list[str] = []
    for begin, end in zip(cuts, cuts[1:], strict=False):
        piece = escape(text[begin:end], quote=False)
        covering = [s for s in inside if s[0] <= offset + begin and s[1] >= offset + end]
        out.append(_styled(piece, covering) if covering else piece)
    return "".join(out)


def _styled(piece: str, covering: list[_Span]) -> str:
    """`piece` in one span: the covering spans' declarations merged, hits last."""
    declarations: dict[str, str] = {}
    for _, _, style, _ in sorted(covering, key=lambda span: span[3]):
        for declaration in style.split(";"):
            name, _, value = declaration.partition(":")
            if name.strip() and value.strip():
                declarations[name.strip()] = value.strip()
    css = ";".join(f"{name}:{value}" for name, value in declarations.items())
    kind = ' class="hit"' if any(span[3] for span in covering) else ""
    return f'<span{kind} style="{escape(css)}">{piece}</span>'

"""A text as a safe fragment of Qt rich text, with search hits marked."""

from __future__ import annotations

import logging
import re
from html import escape

from paperdesk.core.text import collapse_whitespace
from paperdesk.text.events import BOLD, CODE, ITALIC, SUB, SUP
from paperdesk.text.render import Run, styled_runs

logger = logging.getLogger(__name__)

_HTML_ORDER = (BOLD, ITALIC, CODE, SUP, SUB)
HIT_OPEN = '<span class="hit" style="background-color:#ffe066;color:#000">'


def to_html(text: str, hits: re.Pattern[str] | None = None) -> str:
    """A safe fragment of Qt rich text (the HTML 4 subset of QLabel and QTextBrowser).

    Nothing from the source is interpreted as HTML, except that <em>/<i>, <b>/<strong>,
    <sub> and <sup> without attributes are shown as the formatting they name: abstracts
    copied from venue pages carry them, a reader wants the emphasis rather than the tag
    text, and the output tags are our own (`<i>`, `<b>`...), so no source attribute ever
    reaches the output. Every other tag (<script>, <a href>, <img>, <think>) is escaped.

    `hits` marks what it matches in the text a reader sees (never inside markup); which
    words a search marks is the search index's business (paperdesk.search.highlight).
    """
    try:
        return _runs_to_html(styled_runs(text, html_mode=True), hits)
    except Exception:  # see to_plain: the source text, and an error in the log
        logger.exception("could not render %.60r as HTML", text)
        return escape(collapse_whitespace(text), quote=False)


def _runs_to_html(runs: list[Run], hits: re.Pattern[str] | None) -> str:
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
        out.append(escape(text[cursor:start], quote=False))
        out.append(HIT_OPEN + escape(text[start:stop], quote=False) + "</span>")
        cursor = stop
    out.append(escape(text[cursor:], quote=False))
    return "".join(out)

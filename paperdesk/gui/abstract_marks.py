"""How words are tinted in an abstract, in colours that read on the palette in use.

Three kinds of words besides search hits and marked passages: the words that raised a
paper's score (green) or lowered it (red), "why this paper"; and the library's
"always highlight" words (bold, in the palette's link colour). The detail pane and the
triage view both style abstracts through `word_styles`.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QPalette

from paperdesk.services.rendering import WordStyle

if TYPE_CHECKING:  # the ranking loads scikit-learn, which the window must not wait for
    from paperdesk.ranking.explanation import Explanation


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def tint_colours(palette: QPalette) -> tuple[str, str]:
    """(raising, lowering) text colours with enough contrast on the palette's base."""
    if is_dark(palette):
        return "#56d364", "#ff7b72"
    return "#116329", "#b3261e"


def word_styles(
    palette: QPalette, explanation: Explanation | None, always: Sequence[str]
) -> list[WordStyle]:
    """Styles for `abstract_html`, weakest first: the model's words, then the library's."""
    styles = []
    if explanation is not None:
        raising, lowering = tint_colours(palette)
        styles.append(WordStyle(tuple(c.term for c in explanation.lowering), f"color:{lowering}"))
        styles.append(WordStyle(tuple(c.term for c in explanation.raising), f"color:{raising}"))
    if always:
        link = palette.color(QPalette.ColorRole.Link).name()
        styles.append(WordStyle(tuple(always), f"color:{link};font-weight:700"))
    return styles


def why_html(palette: QPalette, explanation: Explanation | None) -> str:
    """'Why this paper' in one line of rich text: the terms each way, in their tints."""
    if explanation is None:
        return ""
    raising, lowering = tint_colours(palette)

    def listed(terms: Sequence[str], colour: str) -> str:
        return ", ".join(f"<span style='color:{colour}'>{html.escape(t)}</span>" for t in terms)

    parts = []
    if explanation.raising:
        parts.append("raised by " + listed([c.term for c in explanation.raising], raising))
    if explanation.lowering:
        parts.append("lowered by " + listed([c.term for c in explanation.lowering], lowering))
    if not parts:
        return ""
    return "<b>Why this paper:</b> " + "; ".join(parts)

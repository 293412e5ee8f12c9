"""How words are tinted in an abstract, in colours that read on the palette in use.

Three kinds of words besides search hits and marked passages: the words that raised a
paper's score or lowered it, "why this paper"; and the library's "always highlight"
words (bold, in the palette's link colour). The detail pane and the triage view both
style abstracts through `word_styles`.

"Why this paper" is read for hours, so it stays calm: a few of the strongest terms, no
more than TINTED_SHARE of the abstract's words, in two hues that colour-blind readers
tell apart (blue and vermillion of the Okabe-Ito palette), and raising terms are also
underlined, so the direction never rests on colour alone.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtGui import QPalette

from paperdesk.services.use_cases.rendering import WordStyle, words_pattern
from paperdesk.text import shown_text

if TYPE_CHECKING:  # the ranking loads scikit-learn, which the window must not wait for
    from paperdesk.ranking.explanation import Contribution, Explanation

#: At most this share of an abstract's words is tinted (the strongest term always is).
TINTED_SHARE = 0.06
#: At most this many terms each way, in the abstract and in the "why" line.
TERMS_EACH_WAY = 4


def is_dark(palette: QPalette) -> bool:
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def tint_colours(palette: QPalette) -> tuple[str, str]:
    """(raising, lowering) text colours: Okabe-Ito blue and vermillion, darkened on a
    light base and lightened on a dark one for 4.5:1 contrast."""
    if is_dark(palette):
        return "#56b4e9", "#f0a35e"
    return "#0067a3", "#a84a00"


def tint_styles(palette: QPalette) -> tuple[str, str]:
    """(raising, lowering) CSS: the hue, and an underline for raising terms only."""
    raising, lowering = tint_colours(palette)
    return f"color:{raising};text-decoration:underline", f"color:{lowering}"


def calm(explanation: Explanation, abstract: str) -> Explanation:
    """The explanation cut to what is worth tinting in `abstract`: strongest terms first
    (either way), at most TERMS_EACH_WAY each way, a two-word term's own words dropped,
    while the words tinted stay within TINTED_SHARE of the abstract's."""
    shown = shown_text(abstract)
    budget = max(1, int(TINTED_SHARE * len(shown.split())))
    strongest = sorted(
        explanation.raising + explanation.lowering, key=lambda part: (-abs(part.weight), part.term)
    )
    chosen: list[Contribution] = []
    tinted = 0
    for part in strongest:
        same_way = [c for c in chosen if (c.weight > 0) == (part.weight > 0)]
        if len(same_way) >= TERMS_EACH_WAY or _overlaps(part.term, chosen):
            continue
        pattern = words_pattern([part.term])
        words = len(pattern.findall(shown)) * len(part.term.split()) if pattern else 0
        if chosen and tinted + words > budget:
            continue
        chosen.append(part)
        tinted += words
    return replace(
        explanation,
        raising=tuple(p for p in explanation.raising if p in chosen),
        lowering=tuple(p for p in explanation.lowering if p in chosen),
    )


def _overlaps(term: str, chosen: Sequence[Contribution]) -> bool:
    """`term` shares a word with a term already chosen ("regret" and "regret bounds")."""
    words = set(term.split())
    return any(words & set(c.term.split()) for c in chosen)


def word_styles(
    palette: QPalette, explanation: Explanation | None, always: Sequence[str]
) -> list[WordStyle]:
    """Styles for `abstract_html`, weakest first: the model's words, then the library's.
    Pass an explanation already `calm`ed for the abstract it tints."""
    styles = []
    if explanation is not None:
        raising, lowering = tint_styles(palette)
        styles.append(WordStyle(tuple(c.term for c in explanation.lowering), lowering))
        styles.append(WordStyle(tuple(c.term for c in explanation.raising), raising))
    if always:
        link = palette.color(QPalette.ColorRole.Link).name()
        styles.append(WordStyle(tuple(always), f"color:{link};font-weight:700"))
    return styles


def why_html(palette: QPalette, explanation: Explanation | None) -> str:
    """'Why this paper' in one line of rich text: the terms each way, styled as tinted."""
    if explanation is None:
        return ""
    raising, lowering = tint_styles(palette)

    def listed(terms: Sequence[str], style: str) -> str:
        return ", ".join(f"<span style='{style}'>{html.escape(t)}</span>" for t in terms)

    parts = []
    if explanation.raising:
        parts.append("raised by " + listed([c.term for c in explanation.raising], raising))
    if explanation.lowering:
        parts.append("lowered by " + listed([c.term for c in explanation.lowering], lowering))
    if not parts:
        return ""
    return "<b>Why this paper:</b> " + "; ".join(parts) + " <span>(W hides)</span>"

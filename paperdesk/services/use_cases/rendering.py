"""An abstract as the detail pane and the triage view show it: formatted, with the words
a search found, the passages the user marked, and words tinted on request.

The GUI may not reach the search index's code, yet which words a hit marks follows the
index's analyzer (paperdesk.search.highlight); this is where the two meet.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from paperdesk.core.models import Annotation
from paperdesk.search.highlight import hit_pattern
from paperdesk.text import Mark, shown_text, to_html


@dataclass(frozen=True)
class WordStyle:
    """Words to style wherever they begin a word of the abstract, in any case: `bandit`
    styles "Bandits" too. A term of two words ("neural network") is styled as a phrase.
    `style` holds CSS declarations (`color:#1a7f37`)."""

    words: tuple[str, ...]
    style: str


def annotation_style(colour: str) -> str:
    """How a marked passage looks: its colour behind dark text, underlined so it never
    reads as a search hit."""
    return f"background-color:{colour};color:#000;text-decoration:underline"


def abstract_html(
    abstract: str,
    search_terms: Iterable[str] = (),
    annotations: Sequence[Annotation] = (),
    word_styles: Sequence[WordStyle] = (),
) -> str:
    """Safe Qt rich text of `abstract`: `word_styles` first, marked passages over them,
    and the words `search_terms` would find over everything."""
    marks: list[Mark] = []
    shown = shown_text(abstract) if annotations or word_styles else ""
    for word_style in word_styles:
        pattern = words_pattern(word_style.words)
        if pattern is not None:
            marks.extend(Mark(*m.span(), word_style.style) for m in pattern.finditer(shown))
    for annotation in annotations:
        span = locate(shown, annotation)
        if span is not None:
            marks.append(Mark(*span, annotation_style(annotation.colour)))
    return to_html(abstract, hit_pattern(search_terms), marks)


def words_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern for words (as word beginnings) and phrases (their words in a row)."""
    alternatives = set()
    for word in words:
        parts = re.findall(r"\w+", word.casefold())
        if parts:
            alternatives.add(r"\W+".join(re.escape(part) for part in parts) + r"\w*")
    if not alternatives:
        return None
    ordered = sorted(alternatives, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(ordered) + ")", re.IGNORECASE)


def locate(shown: str, annotation: Annotation) -> tuple[int, int] | None:
    """Where a marked passage stands in the shown abstract: at its offsets when the text
    there is still its quote, else at the nearest place the quote appears; None when
    the abstract no longer holds it."""
    start, stop, quote = annotation.start, annotation.stop, annotation.quote
    if shown[start:stop] == quote:
        return start, stop
    found = [m.start() for m in re.finditer(re.escape(quote), shown)] if quote else []
    if not found:
        return None
    nearest = min(found, key=lambda position: abs(position - start))
    return nearest, nearest + len(quote)


def passage_at(abstract: str, start: int, stop: int) -> tuple[int, int, str] | None:
    """A selection of the shown abstract trimmed of blanks at both ends, as
    (start, stop, quote); None when it holds nothing but blanks."""
    shown = shown_text(abstract)
    start, stop = max(0, start), min(len(shown), stop)
    while start < stop and shown[start].isspace():
        start += 1
    while stop > start and shown[stop - 1].isspace():
        stop -= 1
    if start >= stop:
        return None
    return start, stop, shown[start:stop]

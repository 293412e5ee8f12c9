"""The text a reader sees of a paper, which is all the ranking model may learn from.

A title counts only when it is a real one: a title derived from the abstract's first
words would count those words twice. LaTeX, Markdown and HTML are plainified, so
`\\textit{bandit}` and `bandit` are the same word to the model, as they are to a reader.
Hidden words (a simulation's label word) are cut out here, before any feature is made,
so no later stage can leak them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

from paperdesk.text import to_plain


class Readable(Protocol):
    """What the ranking needs of a paper: `Paper` and `PaperRecord` both fit."""

    @property
    def title(self) -> str: ...

    @property
    def title_is_derived(self) -> bool: ...

    @property
    def abstract(self) -> str: ...


def hidden_words_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    """A pattern matching each hidden word and its inflections (`bandit`, `bandits`).

    Matching the word as a prefix is deliberate: hiding `bandit` but leaving `bandits`
    would hand the model the label it is meant to discover.
    """
    alternatives = sorted({word.strip().casefold() for word in words if word.strip()})
    if not alternatives:
        return None
    escaped = "|".join(re.escape(word) for word in alternatives)
    return re.compile(rf"\b(?:{escaped})\w*", re.IGNORECASE)


def reader_text(
    paper: Readable, hidden: re.Pattern[str] | None = None, title_weight: int = 1
) -> str:
    """Title (when real, `title_weight` times) and abstract as plain text, hidden words cut."""
    parts = [] if paper.title_is_derived else [to_plain(paper.title)] * title_weight
    parts.append(to_plain(paper.abstract))
    text = "\n".join(part for part in parts if part)
    return hide(text, hidden)


def hide(text: str, hidden: re.Pattern[str] | None) -> str:
    """`text` without the hidden words (a query typed by the user goes through here too)."""
    return hidden.sub(" ", text) if hidden is not None else text

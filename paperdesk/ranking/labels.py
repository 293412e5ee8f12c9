"""`--relevant FIELD=VALUE`: which papers a simulation counts as relevant.

    venue=CORL          the venue, case-insensitive
    year=2025           one year; `year=2017..2018`, `year=2020..`, `year=..2018` ranges
    title~bandit        the title has a word starting with `bandit` (bandit, bandits);
    abstract~privacy    ...the same for the abstract

A `~` rule defines a topic by a word, so that word is hidden from the model (cut out of
the title and the abstract it reads): otherwise the model would only learn to spot the
word that defines the label, and the simulation would measure nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord
from paperdesk.ranking.reading import hidden_words_pattern

_RULE = re.compile(r"^\s*(?P<field>[A-Za-z]+)\s*(?P<op>=|~)\s*(?P<value>.*?)\s*$")
_YEAR_RANGE = re.compile(r"^(?P<low>\d{4})?\s*\.\.\s*(?P<high>\d{4})?$")
_EQUAL_FIELDS = ("venue", "year")
_WORD_FIELDS = ("title", "abstract")


@dataclass(frozen=True)
class RelevanceRule:
    """A parsed `--relevant` rule: which records are relevant, and which words to hide."""

    text: str
    is_relevant: Callable[[PaperRecord], bool]
    hidden_words: tuple[str, ...] = ()


def parse_relevant(text: str) -> RelevanceRule:
    """The rule `text` names; InvalidValueError with a one-line reason when it is wrong."""
    match = _RULE.match(text)
    if match is None:
        raise InvalidValueError(
            f"--relevant {text!r}: expected FIELD=VALUE or FIELD~WORD, e.g. venue=CORL"
        )
    field, op, value = match["field"].lower(), match["op"], match["value"]
    if not value:
        raise InvalidValueError(f"--relevant {text!r}: no value after {op!r}")
    if op == "=":
        if field == "venue":
            return RelevanceRule(text, _venue_is(value))
        if field == "year":
            return RelevanceRule(text, _year_in(*_year_bounds(text, value)))
        raise InvalidValueError(
            f"--relevant {text!r}: '=' works on {', '.join(_EQUAL_FIELDS)}, not {field!r}"
        )
    if field not in _WORD_FIELDS or not re.fullmatch(r"\w+", value):
        raise InvalidValueError(
            f"--relevant {text!r}: '~' takes one word in {' or '.join(_WORD_FIELDS)},"
            " e.g. title~bandit"
        )
    return RelevanceRule(text, _has_word(field, value), hidden_words=(value,))


def _venue_is(value: str) -> Callable[[PaperRecord], bool]:
    wanted = value.casefold()
    return lambda record: (record.venue or "").strip().casefold() == wanted


def _year_bounds(text: str, value: str) -> tuple[int | None, int | None]:
    if value.isdigit() and len(value) == 4:
        return int(value), int(value)
    match = _YEAR_RANGE.match(value)
    if match is None or not (match["low"] or match["high"]):
        raise InvalidValueError(
            f"--relevant {text!r}: a year is 2025, 2017..2018, 2020.. or ..2018"
        )
    low = int(match["low"]) if match["low"] else None
    high = int(match["high"]) if match["high"] else None
    if low is not None and high is not None and low > high:
        raise InvalidValueError(f"--relevant {text!r}: the range is empty ({low} > {high})")
    return low, high


def _year_in(low: int | None, high: int | None) -> Callable[[PaperRecord], bool]:
    def is_relevant(record: PaperRecord) -> bool:
        year = record.year
        if year is None:
            return False
        return (low is None or year >= low) and (high is None or year <= high)

    return is_relevant


def _has_word(field: str, word: str) -> Callable[[PaperRecord], bool]:
    pattern = hidden_words_pattern([word])
    assert pattern is not None  # `word` was checked to be one word

    def is_relevant(record: PaperRecord) -> bool:
        return pattern.search(getattr(record, field)) is not None

    return is_relevant

"""`--relevant RULE`: which papers a simulation counts as relevant.

    venue=CORL              a field equals a value, case-insensitive; any stored field or
    primary_area=RL         column of the file (CSV column, JSON key, RIS tag) will do
    year=2017..2018         a range on a number (`2020..`, `..2018` open at one end)
    title~bandit            the field has every word (as a word start: bandit, bandits)
    title~"graph neural"    ...or the phrase
    label_included          a 0/1 label column, as screening datasets have it (1 relevant)

A `~` rule on the title or the abstract defines a topic by words, so those words are
hidden from the model (cut out of the title and the abstract it reads): otherwise the
model would only learn to spot the words that define the label, and the simulation
would measure nothing.

Parsing needs nothing heavy, so a wrong rule is refused at once (before scikit-learn is
imported); `check` then refuses a rule the file cannot answer (no such field, a label
column with values other than 0 and 1) naming the file and the line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord
from paperdesk.ranking.reading import hidden_words_pattern

_RULE = re.compile(r"^\s*(?P<field>[A-Za-z_][\w.-]*)\s*(?:(?P<op>=|~)\s*(?P<value>.*?))?\s*$")
_RANGE = re.compile(r"^(?P<low>-?\d+(?:\.\d+)?)?\s*\.\.\s*(?P<high>-?\d+(?:\.\d+)?)?$")
_HIDDEN_FIELDS = ("title", "abstract")
_TRUE, _FALSE = frozenset({"1", "1.0", "true", "yes"}), frozenset({"0", "0.0", "false", "no", ""})
EXPECTED = (
    "expected FIELD=VALUE, FIELD=LOW..HIGH, FIELD~WORDS or a 0/1 label column,"
    " e.g. venue=CORL, year=2020..2022, title~bandit, label_included"
)


@dataclass(frozen=True)
class RelevanceRule:
    """A parsed `--relevant` rule: which records are relevant, and which words to hide.

    `field` is the field it reads ("" for a rule built in code); `label` marks a 0/1
    label column, whose values `check` verifies."""

    text: str
    is_relevant: Callable[[PaperRecord], bool]
    hidden_words: tuple[str, ...] = ()
    field: str = ""
    label: bool = False

    def check(self, records: Sequence[PaperRecord], file: str) -> None:
        """InvalidValueError when the records cannot answer the rule: no record has the
        field, a label column holds something other than 0 and 1, or nothing is relevant."""
        if not self.field:
            return
        present = [field_values(r, self.field) for r in records]
        if not any(present):
            known = sorted({name for r in records for name in field_names(r)})
            raise InvalidValueError(
                f"--relevant {self.text!r}: no paper in {file} has a field {self.field!r}"
                f" (fields: {', '.join(known[:20])})"
            )
        if self.label:
            for record, values in zip(records, present, strict=True):
                for value in values:
                    if value.strip().casefold() not in _TRUE | _FALSE:
                        where = f"{file}, line {record.line}" if record.line else file
                        raise InvalidValueError(
                            f"--relevant {self.text!r}: {where}: {self.field} is {value!r},"
                            " expected 1 or 0"
                        )
        if not any(self.is_relevant(r) for r in records):
            raise InvalidValueError(
                f"--relevant {self.text!r}: no paper in {file} is relevant by this rule"
            )


def parse_relevant(text: str) -> RelevanceRule:
    """The rule `text` names; InvalidValueError with a one-line reason when it is wrong."""
    match = _RULE.match(text)
    if match is None:
        raise InvalidValueError(f"--relevant {text!r}: {EXPECTED}")
    field, op, value = match["field"].casefold(), match["op"], (match["value"] or "")
    if op is None:
        return RelevanceRule(text, _label_is_one(field), field=field, label=True)
    if not value:
        raise InvalidValueError(f"--relevant {text!r}: no value after {op!r}")
    if op == "=":
        bounds = _RANGE.match(value)
        if bounds is not None and (bounds["low"] or bounds["high"]):
            low = float(bounds["low"]) if bounds["low"] else None
            high = float(bounds["high"]) if bounds["high"] else None
            if low is not None and high is not None and low > high:
                raise InvalidValueError(f"--relevant {text!r}: the range is empty ({value})")
            return RelevanceRule(text, _in_range(field, low, high), field=field)
        return RelevanceRule(text, _equals(field, value), field=field)
    phrase = value.startswith('"') and value.endswith('"') and len(value) > 2
    words = re.findall(r"\w+", value)
    if not words:
        raise InvalidValueError(f"--relevant {text!r}: '~' takes words, e.g. title~bandit")
    hidden = tuple(words) if field in _HIDDEN_FIELDS else ()
    matches = _has_phrase(field, words) if phrase else _has_words(field, words)
    return RelevanceRule(text, matches, hidden_words=hidden, field=field)


def field_names(record: PaperRecord) -> list[str]:
    """The fields a rule may name on this record: its own and its source's."""
    own = [name for name in _OWN_FIELDS if _OWN_FIELDS[name](record)]
    return own + [name.strip().casefold() for name, _ in record.raw_fields]


def field_values(record: PaperRecord, field: str) -> list[str]:
    """The record's values of `field` (a stored field first, else the source's own)."""
    if field in _OWN_FIELDS:
        return _OWN_FIELDS[field](record)
    return [value for name, value in record.raw_fields if name.strip().casefold() == field]


def _text(value: object) -> list[str]:
    return [str(value)] if value not in (None, "") else []


_OWN_FIELDS: dict[str, Callable[[PaperRecord], list[str]]] = {
    "title": lambda r: _text(r.title),
    "abstract": lambda r: _text(r.abstract),
    "venue": lambda r: _text(r.venue),
    "year": lambda r: _text(r.year),
    "authors": lambda r: list(r.authors),
    "doi": lambda r: _text(r.ids.doi),
    "arxiv": lambda r: _text(r.ids.arxiv),
    "openreview": lambda r: _text(r.ids.openreview),
    "url": lambda r: _text(r.ids.url),
    "entry_type": lambda r: _text(r.entry_type),
}


def _equals(field: str, value: str) -> Callable[[PaperRecord], bool]:
    wanted = value.strip().casefold()
    return lambda record: any(v.strip().casefold() == wanted for v in field_values(record, field))


def _in_range(field: str, low: float | None, high: float | None) -> Callable[[PaperRecord], bool]:
    def is_relevant(record: PaperRecord) -> bool:
        for value in field_values(record, field):
            try:
                number = float(value.strip())
            except ValueError:
                continue
            if (low is None or number >= low) and (high is None or number <= high):
                return True
        return False

    return is_relevant


def _has_words(field: str, words: Sequence[str]) -> Callable[[PaperRecord], bool]:
    patterns = [hidden_words_pattern([word]) for word in words]

    def is_relevant(record: PaperRecord) -> bool:
        text = " ".join(field_values(record, field))
        return all(p is not None and p.search(text) is not None for p in patterns)

    return is_relevant


def _has_phrase(field: str, words: Sequence[str]) -> Callable[[PaperRecord], bool]:
    pattern = re.compile(
        r"\b" + r"\W+".join(re.escape(word) for word in words) + r"\w*", re.IGNORECASE
    )
    return lambda record: pattern.search(" ".join(field_values(record, field))) is not None


def _label_is_one(field: str) -> Callable[[PaperRecord], bool]:
    return lambda record: any(v.strip().casefold() in _TRUE for v in field_values(record, field))

"""Every query form users type, and readable errors for the ones the parser would mangle."""

from __future__ import annotations

import pytest
from whoosh import query as wq

from paperdesk.core.errors import QueryError
from paperdesk.search.query import highlight_terms, parse_query

PARSED = [
    (
        "test-time training",
        "And([Term('text', 'test'), Term('text', 'time'), Term('text', 'train')])",
    ),
    ('"test time"', "Phrase('text', ['test', 'time']"),
    ("rnn OR mamba", "Or([Term('text', 'rnn'), Term('text', 'mamba')])"),
    ("rnn NOT mamba", "Not(Term('text', 'mamba'))"),
    ("train*", "Prefix('text', 'train')"),
    ("mamba~", "FuzzyTerm('text', 'mamba'"),
    ("tag:rnn", "Term('tag', 'rnn')"),
    ('tag:"ml/rnn"', "Term('tag', 'ml/rnn')"),
    ("author:Sun", "Term('author', 'sun')"),
    ("venue:icml", "Term('venue', 'icml')"),
    ("year:2024..2025", "NumericRange('year', 2024, 2025"),
    ("year:2024..", "NumericRange('year', 2024, None"),
    ("year:[2020 TO 2022]", "NumericRange('year', 2020, 2022"),
    ("rating:>=4", "NumericRange('rating', 4, None"),
    ("status:to-read", "Term('status', 'to-read')"),
    ('in:"ICML reading group"', "Term('shortlist', 'icml reading group')"),
    ("(rnn OR mamba) AND long", "Term('text', 'long')"),
]


@pytest.mark.parametrize(("text", "expected"), PARSED)
def test_query_forms_parse_to_the_intended_query(text: str, expected: str) -> None:
    assert expected in repr(parse_query(text))


def test_year_is_numeric() -> None:
    assert isinstance(parse_query("year:2024"), wq.Term)


MALFORMED = [
    ("", "empty"),
    ('"unclosed phrase', "quotation mark"),
    ("(rnn OR mamba", "parenthesis is not closed"),
    ("rnn)", "closing parenthesis"),
    ("colour:red", "unknown field 'colour'"),
    ("rating:>=high", "rating needs a number"),
    ("year:recent", "year needs a number"),
    ("year:..", "needs a number"),
    ("year:²", "year needs a number"),  # hypothesis: a digit that int() cannot read
    ("the AND", "nothing to search for"),
]


@pytest.mark.parametrize(("text", "message"), MALFORMED)
def test_malformed_queries_explain_themselves_in_one_line(text: str, message: str) -> None:
    with pytest.raises(QueryError, match=message) as caught:
        parse_query(text)
    assert "\n" not in str(caught.value)


def test_colons_inside_phrases_are_not_fields() -> None:
    """Outside quotes `word:` names a field (an unknown one is refused); inside, the
    colon is punctuation and the words are searched as a phrase of the text."""
    with pytest.raises(QueryError, match="unknown field 'speedup'"):
        parse_query("speedup: linear scaling")
    assert parse_query('"speedup: linear scaling"') == wq.Phrase(
        "text", ["speedup", "linear", "scale"], slop=1
    )
    # `title:` quoted is the word "title", not the title field.
    assert parse_query('"title: graph"') == wq.Phrase("text", ["titl", "graph"], slop=1)
    # Numbers and stop words are not indexed: what is left is one word.
    assert parse_query('"ratio: 3 to 1"') == wq.Term("text", "ratio")


def test_highlight_terms_are_the_free_text_words() -> None:
    assert highlight_terms(parse_query("test-time training tag:rnn")) == ("test", "time", "train")

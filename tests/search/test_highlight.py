"""Which words a search marks in the detail pane: the words the index would match."""

from __future__ import annotations

import re

import pytest

from paperdesk.search.highlight import hit_pattern
from paperdesk.search.schema import build_schema
from paperdesk.text import to_html
from tests.conftest import SEEDS_DIR
from tests.text.html_checks import assert_safe_html, marked


def _marked(text: str, terms: list[str]) -> tuple[list[str], str]:
    return marked(to_html(text, hit_pattern(terms)))


def test_highlight_marks_words_starting_with_the_terms_stem() -> None:
    hits, _ = _marked(
        "Training, trained and train; restrain. Policies and policy.", ["training", "policy"]
    )
    assert hits == ["Training", "trained", "train", "Policies", "policy"]


def test_highlight_wildcard_and_short_terms() -> None:
    hits, _ = _marked("A transformer trains a model in a day", ["tra*", "a"])
    assert hits == ["A", "transformer", "trains", "a", "a"]


def test_highlight_never_lands_inside_markup_or_entities() -> None:
    fragment = to_html(
        "Bold <b>amp</b> &amp; lt <em>span</em> class",
        hit_pattern(["amp", "lt", "span", "class", "b", "em"]),
    )
    assert_safe_html(fragment)
    hits, text = marked(fragment)
    assert hits == ["amp", "lt", "span", "class"]
    assert text == "Bold amp & lt span class"


def test_highlight_spans_styled_parts_of_one_word() -> None:
    hits, _ = _marked("con**T**extualized equivariance", ["contextualized"])
    assert "".join(hits) == "conTextualized"


@pytest.mark.parametrize("terms", [[], [""], ["  "], ["--", "*"]])
def test_terms_without_a_word_mark_nothing(terms: list[str]) -> None:
    assert hit_pattern(terms) is None


def test_terms_are_words_not_regular_expressions() -> None:
    hits, _ = _marked("C++ code in (a) and [x] cells", ["c++", "(a", "[x"])
    assert hits == ["C", "a", "x"]


SEARCH_WORDS = ["training", "learning", "graphs", "models", "optimization", "networks"]


@pytest.mark.parametrize("term", SEARCH_WORDS)
def test_every_seed_word_the_index_matches_is_marked(term: str) -> None:
    """The index's analyzer (stemming) decides what a search finds; the pane marks it all."""
    analyzer = build_schema()["text"].analyzer
    seeds = " ".join(path.read_text(encoding="utf-8") for path in SEEDS_DIR.glob("*.txt"))
    wanted = [t.text for t in analyzer(term)]
    found = [w for w in set(re.findall(r"\w+", seeds)) if [t.text for t in analyzer(w)] == wanted]
    assert found, "the seeds should hold words the index matches with the term"
    pattern = hit_pattern([term])
    assert pattern is not None
    for word in found:
        assert pattern.fullmatch(word), word

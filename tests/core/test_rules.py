"""The rules for values users type, as a table of real inputs."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.rules import (
    SHORTLIST,
    TAG,
    check_rating,
    clean_colour,
    clean_name,
    clean_names,
    clean_title,
    rating_label,
)

NAMES = [
    ("rnn", "rnn"),
    ("  ml / rnn ", "ml/rnn"),
    ("later ☕", "later ☕"),
    ("ICML reading group", "ICML reading group"),
]


@pytest.mark.parametrize(("typed", "kept"), NAMES)
def test_names_are_trimmed_level_by_level(typed: str, kept: str) -> None:
    assert clean_name(typed, TAG) == kept


@pytest.mark.parametrize("typed", ["", "  ", "a//b", "/a", "a/", " / "])
def test_names_with_an_empty_level_are_refused(typed: str) -> None:
    with pytest.raises(InvalidValueError, match="not a valid tag name"):
        clean_name(typed, TAG)


def test_only_tag_names_refuse_commas_and_duplicates_collapse() -> None:
    with pytest.raises(InvalidValueError, match="comma"):
        clean_name("a,b", TAG)
    assert clean_name("Reading, then writing", SHORTLIST) == "Reading, then writing"
    assert clean_names(["rnn", " rnn ", "cnn"], TAG) == ["rnn", "cnn"]
    with pytest.raises(InvalidValueError, match="no tag name given"):
        clean_names([], TAG)


@pytest.mark.parametrize(
    ("typed", "kept"), [("#AA00ff", "#aa00ff"), (" #123456 ", "#123456"), ("", None), (None, None)]
)
def test_colours_are_lower_case_hex_or_none(typed: str | None, kept: str | None) -> None:
    assert clean_colour(typed) == kept


@pytest.mark.parametrize("typed", ["red", "#12345", "#1234567", "#gg0000", "123456"])
def test_other_colours_are_refused(typed: str) -> None:
    with pytest.raises(InvalidValueError, match="#rrggbb"):
        clean_colour(typed)


def test_ratings_are_zero_to_five_and_named_for_the_history() -> None:
    assert [check_rating(n) for n in range(6)] == [0, 1, 2, 3, 4, 5]
    for wrong in (-1, 6):
        with pytest.raises(InvalidValueError, match="between 0 and 5"):
            check_rating(wrong)
    assert [rating_label(n) for n in (0, 1, 4)] == ["Clear rating", "Rate 1 star", "Rate 4 stars"]


def test_titles_lose_line_breaks_and_may_not_be_empty() -> None:
    assert (
        clean_title("  Learning to (Learn at\n Test Time) ") == "Learning to (Learn at Test Time)"
    )
    with pytest.raises(InvalidValueError, match="cannot be empty"):
        clean_title(" \n ")

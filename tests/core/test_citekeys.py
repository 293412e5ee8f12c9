"""Citation keys: the default pattern, every token, suffixes and bad patterns."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperdesk.core.citekeys import (
    DEFAULT_PATTERN,
    assign_keys,
    check_pattern,
    is_valid_key,
    make_key,
    surname,
    unique_key,
)
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord


def record(title: str, authors: tuple[str, ...] = ("Yi Sun",), year: int | None = 2025):
    return PaperRecord(title=title, authors=authors, year=year)


@pytest.mark.parametrize(
    ("title", "authors", "year", "key"),
    [
        ("Learning Sparse Graphs", ("Yi Sun", "Ada Lovelace"), 2025, "sun2025learning"),
        ("The Power of Depth", ("Yi Sun",), 2025, "sun2025power"),
        ("Towards a Theory of Everything", ("Yi Sun",), 2025, "sun2025theory"),
        ("Learning", ("Tim Rocktäschel",), 2019, "rocktaschel2019learning"),
        ("Learning", ('Tim Rockt{\\"a}schel',), 2019, "rocktaschel2019learning"),
        ("Visualizing Data", ("Laurens van der Maaten",), 2008, "vandermaaten2008visualizing"),
        ("Dreams", ("Martin Luther King Jr.",), 1963, "king1963dreams"),
        ("Dreams", ("Sun, Yi",), 2024, "sun2024dreams"),
        ("Straße", ("Jörg Groß",), 2020, "gross2020strasse"),
        ("SGSI: Soft-Gated Structural Inference", (), 2025, "anon2025sgsi"),
        ("On the $K^2$-means Problem", ("Yi Sun",), 2025, "sun2025k2means"),
        ("\\textit{Deep} <em>Nets</em>", ("Yi Sun",), 2025, "sun2025deep"),
        ("\\ensuremathα-Former: Local Features", ("Yi Sun",), 2021, "sun2021former"),
        ("What Is It?", ("Yi Sun",), 2025, "sun2025what"),
        ("Learning", ("张伟",), 2020, "anon2020learning"),
        ("Learning", ("Yi Sun",), None, "sunlearning"),
        ("", ("Yi Sun",), 2025, "sun2025"),
        ("", (), None, "anon"),
    ],
)
def test_default_pattern(title, authors, year, key):
    assert make_key(record(title, authors, year)) == key


def test_every_token():
    paper = record("A Survey of Learning Sparse Graphs", ("Laurens van der Maaten",), 2008)
    assert make_key(paper, "{Auth}{year}") == "Vandermaaten2008"
    assert make_key(paper, "{auth}:{shorttitle}") == "vandermaaten:surveylearningsparse"
    assert make_key(paper, "{auth}_{veryshorttitle}") == "vandermaaten_survey"
    assert make_key(paper, "{year}-{title}") == "2008-survey"


@pytest.mark.parametrize(
    ("name", "family"),
    [
        ("Yi Sun", "Sun"),
        ("Sun", "Sun"),
        ("Laurens van der Maaten", "van der Maaten"),
        ("de la Fuente", "de la Fuente"),
        ("Sun, Yi", "Sun"),
        ("Martin Luther King, Jr.", "Martin Luther King"),
        ("Martin Luther King Jr.", "King"),
        ("Henry Ford III", "Ford"),
    ],
)
def test_surname(name, family):
    assert surname(name) == family


@pytest.mark.parametrize(
    "pattern", ["{author}", "{auth", "{auth}}", "{auth} {year}", "{auth}%", "plainkey", ""]
)
def test_bad_pattern_is_a_readable_error(pattern):
    with pytest.raises(InvalidValueError, match="pattern|token"):
        check_pattern(pattern)
    with pytest.raises(InvalidValueError):
        make_key(record("Learning"), pattern)


def test_unique_key_suffixes_in_order():
    taken: set[str] = set()
    keys = []
    for _ in range(30):
        key = unique_key("sun2025learning", taken)
        taken.add(key.casefold())
        keys.append(key)
    suffixes = [key.removeprefix("sun2025learning") for key in keys]
    assert suffixes[:4] == ["", "a", "b", "c"]
    assert suffixes[26:30] == ["z", "aa", "ab", "ac"]


def test_unique_key_is_case_insensitive():
    assert unique_key("Sun2025", {"sun2025"}) == "Sun2025a"


def test_assign_keys_keeps_stored_keys_and_never_repeats():
    plain = record("Learning Sparse Graphs")
    stored = replace(plain, citation_key="sun2025learning")
    invalid = replace(plain, citation_key="has space")
    keys = assign_keys([plain, stored, invalid, stored])
    # The stored key stays with its paper although an unkeyed paper comes first.
    assert keys == ["sun2025learninga", "sun2025learning", "sun2025learningb", "sun2025learningc"]


def test_assign_keys_avoids_taken_keys():
    assert assign_keys([record("Learning")], taken=["SUN2025LEARNING"]) == ["sun2025learninga"]


@pytest.mark.parametrize(
    ("key", "valid"),
    [
        ("sun2025learning", True),
        ("DBLP:conf/icml/Sun25", True),
        ("pmlr-v235-sun24a", True),
        ("has space", False),
        ("a,b", False),
        # what users' files hold and bibtex, biber and \\cite all take (issue 24)
        ("baker*2018accelerating", True),
        ("(jake)2018adversarially", True),
        ("o'connor2018temporally", True),
        ("Müller2020", True),
        ("", False),
        ("x{y}", False),
        # what one of them refuses: a key ends at a comma or brace, `%` comments out,
        # `#` is a parameter, `~` is active, `"` and `=` stop bibtexparser
        *((f"a{char}b", False) for char in ',{}%#~\\"=\t'),
    ],
)
def test_is_valid_key(key, valid):
    assert is_valid_key(key) is valid


@given(
    title=st.text(),
    authors=st.lists(st.text(), max_size=3).map(tuple),
    year=st.none() | st.integers(1900, 2100),
)
def test_any_paper_gets_a_valid_key(title, authors, year):
    key = make_key(record(title, authors, year), DEFAULT_PATTERN)
    assert is_valid_key(key)
    assert re.fullmatch(r"[a-z0-9]+", key)

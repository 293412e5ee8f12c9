"""`--relevant RULE` rules: what they match, what they hide, what they refuse."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord
from paperdesk.ranking.labels import parse_relevant

CORL_2018 = PaperRecord(title="Multi-Armed Bandits for Robots", venue="CoRL", year=2018)
ICML_2020 = PaperRecord(title="A Bandit-free Study", abstract="Privacy matters.", year=2020)
NO_YEAR = PaperRecord(title="Untimed", venue="ICML")


@pytest.mark.parametrize(
    ("rule", "matches"),
    [
        ("venue=CORL", [True, False, False]),
        ("venue = corl ", [True, False, False]),
        ("year=2018", [True, False, False]),
        ("year=2017..2018", [True, False, False]),
        ("year=2018..", [True, True, False]),
        ("year=..2019", [True, False, False]),
        ("title~bandit", [True, True, False]),
        ("TITLE~Bandits", [True, False, False]),
        ("abstract~privacy", [False, True, False]),
    ],
)
def test_rules_match_as_a_user_reads_them(rule: str, matches: list[bool]) -> None:
    parsed = parse_relevant(rule)
    assert [parsed.is_relevant(r) for r in (CORL_2018, ICML_2020, NO_YEAR)] == matches


def test_only_word_rules_hide_their_word() -> None:
    assert parse_relevant("title~bandit").hidden_words == ("bandit",)
    assert parse_relevant("venue=CORL").hidden_words == ()


@pytest.mark.parametrize(
    ("rule", "says"),
    [
        ("=CORL", "expected FIELD=VALUE"),
        ("venue<CORL", "expected FIELD=VALUE"),
        ("venue=", "no value"),
        ("year=2019..2017", "empty"),
        ("title~!!", "'~' takes words"),
    ],
)
def test_bad_rules_get_one_line_reasons(rule: str, says: str) -> None:
    with pytest.raises(InvalidValueError, match=says) as error:
        parse_relevant(rule)
    assert "\n" not in str(error.value) and rule.strip() in str(error.value)


AREA = PaperRecord(
    title="Graph neural networks for molecules",
    authors=("Ada Lovelace", "Alan Turing"),
    raw_fields=(("primary_area", "Generative models"), ("label_included", "1"), ("pages", "12")),
    line=2,
)
OTHER = PaperRecord(
    title="Neural graph matching",
    raw_fields=(("primary_area", "Theory"), ("label_included", "0"), ("pages", "30")),
    line=3,
)


@pytest.mark.parametrize(
    ("rule", "matches"),
    [
        ("primary_area=generative models", [True, False]),
        ("label_included", [True, False]),
        ("label_included=1", [True, False]),
        ("authors=alan turing", [True, False]),
        ("pages=10..20", [True, False]),
        ("title~graph neural", [True, True]),
        ('title~"graph neural"', [True, False]),
    ],
)
def test_any_stored_field_or_column_and_a_label_column_define_relevance(
    rule: str, matches: list[bool]
) -> None:
    parsed = parse_relevant(rule)
    assert [parsed.is_relevant(r) for r in (AREA, OTHER)] == matches
    parsed.check([AREA, OTHER], "papers.csv")


@pytest.mark.parametrize(
    ("rule", "says"),
    [
        ("colour=red", "no paper in papers.csv has a field 'colour'"),
        ("primary_area=robotics", "no paper in papers.csv is relevant"),
        ("primary_area", "papers.csv, line 2: primary_area is 'Generative models', expected 1"),
    ],
)
def test_a_rule_the_file_cannot_answer_is_refused_naming_the_file(rule: str, says: str) -> None:
    with pytest.raises(InvalidValueError, match=says):
        parse_relevant(rule).check([AREA, OTHER], "papers.csv")

"""`--relevant FIELD=VALUE` rules: what they match, what they hide, what they refuse."""

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
        ("CORL", "expected FIELD=VALUE"),
        ("venue=", "no value"),
        ("author=Sun", "'=' works on venue, year"),
        ("year=twenty", "a year is"),
        ("year=2019..2017", "empty"),
        ("venue~CORL", "'~' takes one word"),
        ("title~two words", "'~' takes one word"),
    ],
)
def test_bad_rules_get_one_line_reasons(rule: str, says: str) -> None:
    with pytest.raises(InvalidValueError, match=says) as error:
        parse_relevant(rule)
    assert "\n" not in str(error.value) and rule.strip() in str(error.value)

"""Cohen's kappa of two members' screening decisions, against hand computations."""

from __future__ import annotations

import pytest
from sklearn.metrics import cohen_kappa_score

from paperdesk.core.double_screening import Agreement, agreement, cohen_kappa
from paperdesk.core.triage import Decision

K, M, D = Decision.KEEP, Decision.MAYBE, Decision.DISCARD


def pairs(first: str, second: str) -> list[tuple[Decision, Decision]]:
    """'KMD', 'KDD' -> [(keep, keep), (maybe, discard), (discard, discard)]."""
    letters = {"K": K, "M": M, "D": D}
    return [(letters[a], letters[b]) for a, b in zip(first, second, strict=True)]


# (first member, second member, kappa worked by hand: (p_o - p_e) / (1 - p_e))
TABLE = [
    # all alike, two decisions used: p_o 1, p_e (2*2 + 2*2)/16 = 1/2 -> 1
    ("KKDD", "KKDD", 1.0),
    # p_o 2/4; marginals K2 D1 M1 each: p_e (4 + 1 + 1)/16 = 3/8 -> (1/2 - 3/8)/(5/8) = 1/5
    ("KDKM", "KKDM", 0.2),
    # always opposite: p_o 0, p_e (2*2 + 2*2)/16 = 1/2 -> -1
    ("KKDD", "DDKK", -1.0),
    # no better than chance: p_o 1/2, p_e 1/2 -> 0
    ("KKDD", "KDKD", 0.0),
    # 10 papers: p_o 8/10; first K4 D6, second K4 D6: p_e (16 + 36)/100 = .52
    # -> (.8 - .52)/.48 = 7/12
    ("KKKKDDDDDD", "KKKDKDDDDD", 7 / 12),
    # one member keeps every paper: first K4, second K2 D2: p_o 2/4, p_e (4*2)/16 = 1/2 -> 0
    ("KKKK", "KKDD", 0.0),
]


@pytest.mark.parametrize(("first", "second", "expected"), TABLE)
def test_kappa_matches_the_hand_computation(first: str, second: str, expected: float) -> None:
    decided = pairs(first, second)
    assert cohen_kappa(decided) == pytest.approx(expected)
    # and the well-kept implementation agrees
    assert cohen_kappa_score([a for a, _ in decided], [b for _, b in decided]) == pytest.approx(
        expected
    )


@pytest.mark.parametrize("same", ["K", "DDDD", "MMM"])
def test_kappa_is_undefined_when_both_give_every_paper_one_decision(same: str) -> None:
    # p_e = 1: chance alone explains the agreement; 0/0 is not a number to report.
    assert cohen_kappa(pairs(same, same)) is None
    assert "undefined" in agreement("alice", "bob", pairs(same, same)).text()


def test_no_paper_decided_by_both_has_no_kappa() -> None:
    assert cohen_kappa([]) is None
    assert agreement("alice", "bob", []) == Agreement("alice", "bob", 0, 0, None)
    assert agreement("alice", "bob", []).text() == "alice and bob: no paper decided by both yet"


def test_the_agreement_reads_as_a_sentence() -> None:
    found = agreement("alice", "bob", pairs("KDKM", "KKDM"))
    assert found.text() == "alice and bob: agreed on 2 of 4, Cohen's kappa 0.20"

"""The stopping estimate (issue 21): from the first decision on, with an interval, the
knee rule's verdict, and hint words true to the state."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from paperdesk.core.triage import (
    ESTIMATE_METHOD,
    ESTIMATE_WINDOW,
    PRIOR_ONE_IN,
    Decision,
    LoggedDecision,
    estimate_left,
    found_curve,
    knee_says_stop,
    stopping_hint,
    wilson_interval,
)

START = datetime(2026, 12, 3, 9, 0)


def logged(decisions: str) -> list[LoggedDecision]:
    """'kxxm' -> keep, discard, discard, maybe of papers 1, 2, 3, 4."""
    names = {"k": Decision.KEEP, "x": Decision.DISCARD, "m": Decision.MAYBE}
    return [
        LoggedDecision(i, names[c], START + timedelta(seconds=10 * i))
        for i, c in enumerate(decisions, start=1)
    ]


def test_the_estimate_starts_at_the_first_decision_with_an_interval() -> None:
    assert estimate_left([], 1000) is None
    one = estimate_left(found_curve(logged("x")), 999)
    assert one is not None and one.low == 0 < one.left < one.high
    early = estimate_left(found_curve(logged("kxkxx")), 995)
    assert early is not None and early.low <= early.left <= early.high


@pytest.mark.parametrize("decisions", ["k", "kx", "xk", "kk", "kxxxx", "kkkkk"])
def test_the_first_decisions_give_a_sensible_estimate_from_a_prior(decisions: str) -> None:
    """One keep of one read said "about 3296 relevant papers left unread (90%: 0–3296)"
    over a 3,355-paper library: the top of the order's rate put on every paper left."""
    papers = 3355
    undecided = papers - len(decisions)
    estimate = estimate_left(found_curve(logged(decisions)), undecided)
    assert estimate is not None
    assert estimate.low <= estimate.left <= estimate.high
    # Shrunk toward the prior (1 in 20): far from "all of them", even after 5 keeps of 5.
    assert estimate.left < undecided / 5 and estimate.high < undecided / 3
    assert estimate.left > undecided / 40  # the prior: a few finds say little yet
    hint = stopping_hint(len(decisions), decisions.count("k"), 0, estimate)
    assert f"1-in-{PRIOR_ONE_IN} prior until {ESTIMATE_WINDOW} are read" in hint
    assert re.search(r"about \d{1,3}(,\d{3})* relevant", hint)


def test_more_keeps_raise_the_early_estimate_and_the_prior_fades_by_the_window() -> None:
    def left(decisions: str) -> float:
        estimate = estimate_left(found_curve(logged(decisions)), 3355 - len(decisions))
        assert estimate is not None
        return estimate.left

    assert left("x") < left("k") < left("kk") < left("kkkkk")
    full = estimate_left(found_curve(logged("kx" * 25)), 3305)
    assert full is not None and full.prior_reads == 0
    assert full.method == ESTIMATE_METHOD and round(full.left) == round(3305 / 2)


def test_the_hint_writes_its_numbers_with_thousands_separators() -> None:
    curve = found_curve(logged("k" + "x" * 1200 + "kx"))
    hint = stopping_hint(1203, 2, 1, estimate_left(curve, 120_000))
    assert "about 1,000 relevant papers left unread (90%: 0–4,379;" in hint
    assert "1,234 discards in a row" in stopping_hint(2000, 3, 1234, None)


def test_the_interval_narrows_as_decisions_come_and_finds_thin_out() -> None:
    curve = found_curve(logged("k" * 20 + "x" * 400))
    late = estimate_left(curve, 1000)
    assert late is not None and late.left == 0 and late.high < 60
    assert late.knee  # 20 finds then 400 discards: the curve has levelled off


def test_the_knee_rule_waits_for_150_abstracts_and_a_levelled_curve() -> None:
    assert not knee_says_stop([1] * 100)  # too early whatever the curve
    steady = [i // 10 for i in range(1, 400)]  # a find every ten, all along
    assert not knee_says_stop(steady)
    assert knee_says_stop([min(i, 30) for i in range(1, 400)])


def test_wilson_interval_is_a_proper_interval() -> None:
    rate, low, high = wilson_interval(0, 10)
    assert rate == 0 and low == 0 and 0 < high < 0.3
    rate, low, high = wilson_interval(5, 10)
    assert low < rate == 0.5 < high


def test_a_rating_of_4_or_5_counts_as_relevant_found() -> None:
    log = logged("mx")
    assert found_curve(log)[-1] == (2, 0)
    assert found_curve(log, rated_relevant={1})[-1] == (2, 1)


def test_the_hint_says_what_is_true() -> None:
    assert "no decisions yet" in stopping_hint(0, 0, 0, None)
    nothing_kept = stopping_hint(3, 0, 3, estimate_left(found_curve(logged("xxx")), 10))
    assert "no relevant paper found yet in 3 abstracts read" in nothing_kept
    assert "since the last keep" not in nothing_kept
    kept = stopping_hint(3, 1, 2, estimate_left(found_curve(logged("kxx")), 10))
    assert kept.startswith("2 discards in a row since the last keep; about ")
    assert "90%:" in kept and "Wilson" in kept

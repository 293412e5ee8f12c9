"""Recall, read-to-95% and WSS@95 on curves worked out by hand."""

from __future__ import annotations

import pytest

from paperdesk.ranking import metrics


def test_found_at_lists_the_read_positions_of_relevant_papers() -> None:
    assert metrics.found_at([False, True, True, False, True]) == [2, 3, 5]


def test_perfect_reading_saves_all_but_the_relevant() -> None:
    # 20 relevant of 100, all read first: 95% recall (19 papers) after 19 reads.
    found = list(range(1, 21))
    assert metrics.read_to_recall(found, 20) == 19
    assert metrics.work_saved(19, 100) == pytest.approx((100 - 19) / 100 - 0.05)


def test_worst_reading_saves_nothing() -> None:
    # The 20 relevant papers are the last 20 of 100: the 19th is found at read 99.
    found = list(range(81, 101))
    assert metrics.read_to_recall(found, 20) == 99
    assert metrics.work_saved(99, 100) == pytest.approx(0.01 - 0.05)


def test_recall_needs_the_ceiling_of_the_share() -> None:
    # 10 relevant: 95% of 10 = 9.5, so the 10th must be found.
    assert metrics.needed(10) == 10
    assert metrics.needed(20) == 19
    assert metrics.read_to_recall([1, 2, 3, 4, 5, 6, 7, 8, 9, 40], 10) == 40
    with pytest.raises(ValueError, match="never reached"):
        metrics.read_to_recall([1, 2, 3], 10)


def test_random_reading_is_expected_to_save_nothing() -> None:
    read = metrics.random_read_to_recall(13417, 1076)
    assert read == pytest.approx(1023 * 13418 / 1077)
    assert metrics.work_saved(round(read), 13417) == pytest.approx(0.0, abs=0.001)


def test_recall_after_a_number_of_reads() -> None:
    assert metrics.recall_after([2, 3, 5, 9], 4, [0, 2, 4, 9, 100]) == [0.0, 0.25, 0.5, 1.0, 1.0]

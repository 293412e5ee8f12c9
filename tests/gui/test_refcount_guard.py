"""The guard that keeps None alive under PySide6 6.12 on Python 3.11 (see its module)."""

from __future__ import annotations

import sys

import pytest
from PySide6.QtWidgets import QWidget

from paperdesk.gui import refcount_guard
from paperdesk.gui.paper_table import row_runs


@pytest.mark.skipif(not refcount_guard.NEEDED, reason="None is immortal on Python 3.12+")
def test_many_qt_calls_cannot_use_up_none(qapp):
    # Without the session's guard this loop aborts the interpreter ("deallocating None").
    widget = QWidget()
    for _ in range(refcount_guard.FLOOR):
        widget.update()  # a void Qt call: on 3.11 with PySide6 6.12 it drops a None reference
    refcount_guard.top_up()
    assert sys.getrefcount(None) >= refcount_guard.FLOOR


def test_selected_rows_are_selected_in_runs():
    assert row_runs([1, 2, 3, 7, 9, 10]) == [(1, 3), (7, 7), (9, 10)]
    assert row_runs([]) == []

"""`paperdesk --screenshot`: the window rendered offscreen to a PNG, then exit."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage

from paperdesk.gui.app import run_gui
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import searching


def test_screenshot_writes_a_png_of_the_requested_size(qapp, seeded_library, tmp_path):
    with Desk.open(seeded_library) as desk:
        graph_ids = searching.find_ids(desk, "graph").ids
    output = tmp_path / "shots" / "window.png"
    assert run_gui(seeded_library, output, (1000, 700), "graph", graph_ids[-1]) == 0
    image = QImage(str(output))
    assert (image.width(), image.height()) == (1000, 700)
    # Not a blank canvas: a painted window has many distinct colours.
    colours = {image.pixel(x, y) for x in range(0, 1000, 7) for y in range(0, 700, 7)}
    assert len(colours) > 20


@pytest.mark.logs_errors
def test_screenshot_fails_cleanly_on_a_malformed_query(qapp, seeded_library, tmp_path, caplog):
    output = tmp_path / "window.png"
    assert run_gui(seeded_library, output, (800, 600), '"unclosed', None) == 1
    assert not output.exists()
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == [
        'no screenshot: a quotation mark (") is not closed'
    ]


@pytest.mark.logs_errors
def test_headless_platform_notes_are_dropped_and_other_qt_messages_logged(caplog):
    from PySide6.QtCore import QMessageLogContext, QtMsgType

    from paperdesk.gui.app import _log_qt_message

    context = QMessageLogContext()
    _log_qt_message(
        QtMsgType.QtWarningMsg, context, "This plugin does not support propagateSizeHints()"
    )
    assert caplog.records == []
    _log_qt_message(QtMsgType.QtCriticalMsg, context, "QPainter::begin: Paint device returned 0")
    assert [(r.name, r.levelname) for r in caplog.records] == [("qt", "ERROR")]

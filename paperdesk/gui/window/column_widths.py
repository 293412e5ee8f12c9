"""The paper table's column widths, measured in the table's font rather than fixed pixels:
a year or five stars get exactly their room at any font size, the text columns a number
of average characters, and the title whatever is left. When the window is too narrow for
all of that, the text columns give way (down to a few characters each) before the table
would need sideways scrolling."""

from __future__ import annotations

from PySide6.QtWidgets import QStyle, QTableView

from paperdesk.core.models import MAX_RATING
from paperdesk.gui.window.paper_table_model import Column, rating_text

# What the widest cell of a column sized to its content holds.
CONTENT_SAMPLES = {
    Column.RATING: rating_text(MAX_RATING),
    Column.YEAR: "2025",
    Column.ADDED: "2025-12-31",
}
# The text columns' first widths, and the least they shrink to, in average characters.
TEXT_CHARACTERS = {Column.AUTHOR: 16, Column.VENUE: 8, Column.TAGS: 12}
TEXT_FLOOR_CHARACTERS = 5
# The title never gives way below this many characters: it is what a user reads.
TITLE_FLOOR_CHARACTERS = 20


def _text_margin(table: QTableView) -> int:
    # QStyledItemDelegate's margin on each side of a cell's text.
    return table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1


def floor_widths(table: QTableView) -> dict[Column, int]:
    """The least width of each column but the title: content columns show their
    whole content (a heading wider than it is elided); text columns a few characters."""
    metrics = table.fontMetrics()
    margins = 2 * _text_margin(table) + 2
    floors = {
        column: metrics.horizontalAdvance(sample) + margins
        for column, sample in CONTENT_SAMPLES.items()
    }
    icon = table.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize, None, table)
    floors[Column.STATUS] = icon + margins
    for column in TEXT_CHARACTERS:
        floors[column] = metrics.averageCharWidth() * TEXT_FLOOR_CHARACTERS + margins
    return floors


def first_widths(table: QTableView) -> dict[Column, int]:
    """Each column's width before the user drags any (the title stretches)."""
    widths = floor_widths(table)
    margins = 2 * _text_margin(table) + 2
    for column, characters in TEXT_CHARACTERS.items():
        widths[column] = table.fontMetrics().averageCharWidth() * characters + margins
    return widths


def fitted_widths(table: QTableView, wanted: dict[Column, int]) -> dict[Column, int]:
    """The shown columns' `wanted` widths (but the title's) widened to their floors (a
    larger font), then the text columns narrowed, each in proportion to its room above
    the floor, until the title keeps its own floor within the table's width."""
    header = table.horizontalHeader()
    floors = floor_widths(table)
    shown = [c for c in floors if not header.isSectionHidden(c)]
    widths = {c: max(wanted[c], floors[c]) for c in shown}
    title_floor = table.fontMetrics().averageCharWidth() * TITLE_FLOOR_CHARACTERS
    excess = sum(widths.values()) + title_floor - table.viewport().width()
    slack = {c: widths[c] - floors[c] for c in shown}
    total_slack = sum(slack.values())
    if excess > 0 and total_slack > 0:
        take = min(excess, total_slack)
        for column in shown:
            widths[column] -= -(-slack[column] * take // total_slack)  # rounded up
    return widths

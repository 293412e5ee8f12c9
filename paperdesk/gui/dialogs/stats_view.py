"""The statistics view: how far triage has come, in plots and in the stopping hint.

Decisions per day, relevant papers found against abstracts read, papers by status and
by tag; above them the figures `paperdesk stats` prints. The figures are read on the
reader thread (`services.triage.stats`) and the view redraws when the library changes.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.double_screening import PairFigures
from paperdesk.core.models import Status
from paperdesk.core.triage import TriageStats
from paperdesk.gui.widgets.plots import BarPlot, CountPlot, CurvePlot
from paperdesk.gui.window.sidebar import STATUS_LABELS
from paperdesk.services.use_cases.screenings import Prisma

STATUS_COLOURS = {
    Status.NEW: "#8c959f",
    Status.SKIMMED: "#d4a72c",
    Status.TO_READ: "#3d7be0",
    Status.READ: "#2da44e",
    Status.DISCARDED: "#cf4c4c",
}
#: Days shown in the decisions-per-day plot, and tags in the by-tag plot.
DAYS_SHOWN = 30
TAGS_SHOWN = 12


class StatsView(QDialog):
    """A screening's figures (the one used last), or the library's when asked."""

    prisma_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statsView")
        self.setWindowTitle("Triage statistics")
        self.resize(980, 680)
        self.figures = QLabel()
        self.figures.setTextFormat(Qt.TextFormat.RichText)
        self.figures.setWordWrap(True)
        self.per_day = BarPlot("Decisions per day")
        self.found = CurvePlot("Relevant found against abstracts read", "read", "found")
        self.by_status = CountPlot("Papers by status")
        self.by_tag = CountPlot(f"Papers by tag (top {TAGS_SHOWN})")
        grid = QGridLayout()
        grid.addWidget(self.per_day, 0, 0)
        grid.addWidget(self.found, 0, 1)
        grid.addWidget(self.by_status, 1, 0)
        grid.addWidget(self.by_tag, 1, 1)
        self.library_wide = QCheckBox("Whole library (every decision, not one screening's)")
        self.prisma = QLabel()
        self.prisma.setWordWrap(True)
        self.pairs = QLabel()  # a team screening's members: progress, agreement
        self.pairs.setObjectName("pairFigures")
        self.pairs.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        self.prisma_button = QPushButton("Export PRISMA counts…")
        self.prisma_button.clicked.connect(self.prisma_requested)
        buttons.addButton(self.prisma_button, QDialogButtonBox.ButtonRole.ActionRole)
        column = QVBoxLayout(self)
        column.addWidget(self.library_wide)
        column.addWidget(self.figures)
        column.addWidget(self.prisma)
        column.addWidget(self.pairs)
        column.addLayout(grid, 1)
        column.addWidget(buttons)

    def show_stats(
        self, stats: TriageStats, counts: Prisma | None = None, pairs: PairFigures | None = None
    ) -> None:
        lines = [html.escape(line) for line in stats.summary()]
        lines[0] = f"<b>{lines[0]}</b>"
        self.figures.setText("<br>".join(lines))
        self.prisma.setText(
            "PRISMA: " + html.escape(" · ".join(counts.lines())) if counts is not None else ""
        )
        self.prisma.setVisible(counts is not None)
        pair_lines = pairs.lines() if pairs else []
        self.pairs.setText("<br>".join(html.escape(line, quote=False) for line in pair_lines))
        self.pairs.setVisible(pairs is not None)
        self.prisma_button.setEnabled(counts is not None)
        self.per_day.set_bars(
            [(day.strftime("%m-%d"), count) for day, count in stats.per_day[-DAYS_SHOWN:]]
        )
        self.found.set_points(stats.found_curve)
        self.by_status.set_rows(
            [
                (STATUS_LABELS[Status(name)], count, QColor(STATUS_COLOURS[Status(name)]))
                for name, count in stats.by_status
            ]
        )
        self.by_tag.set_rows([(name, count, None) for name, count in stats.by_tag[:TAGS_SHOWN]])

"""Small plots drawn with QPainter (PySide6-Essentials has no QtCharts).

Each plot takes plain numbers, draws in the palette's colours (so light and dark themes
both read) and says in its accessible description what it shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

MARGIN = 8


def nice_step(top: float, ticks: int = 4) -> float:
    """A round axis step (1, 2 or 5 times a power of ten) giving about `ticks` ticks."""
    if top <= 0:
        return 1.0
    raw = top / ticks
    power = 10 ** len(str(int(raw))) / 10 if raw >= 1 else 1.0
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return max(1.0, factor * power)
    return max(1.0, 10 * power)


class Plot(QWidget):
    """A titled frame; subclasses draw inside `plot_area`."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = title
        self.setMinimumSize(260, 170)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(420, 240)

    def colour(self, role: QPalette.ColorRole) -> QColor:
        return self.palette().color(role)

    def accent(self) -> QColor:
        return self.colour(QPalette.ColorRole.Highlight)

    def begin(self) -> tuple[QPainter, QRectF]:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillRect(self.rect(), self.colour(QPalette.ColorRole.Base))
        painter.setPen(self.colour(QPalette.ColorRole.Text))
        metrics = QFontMetrics(self.font())
        bold = self.font()
        bold.setBold(True)
        painter.setFont(bold)
        painter.drawText(QPointF(MARGIN, MARGIN + metrics.ascent()), self.title)
        painter.setFont(self.font())
        top = MARGIN * 2 + metrics.height()
        return painter, QRectF(MARGIN, top, self.width() - 2 * MARGIN, self.height() - top - MARGIN)

    def empty(self, painter: QPainter, area: QRectF, text: str) -> None:
        painter.setPen(self.colour(QPalette.ColorRole.PlaceholderText))
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap, text)


class BarPlot(Plot):
    """Vertical bars with a label under each (decisions per day)."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.bars: list[tuple[str, int]] = []

    def set_bars(self, bars: Sequence[tuple[str, int]]) -> None:
        self.bars = list(bars)
        listed = ", ".join(f"{label}: {value}" for label, value in self.bars[-10:])
        self.setAccessibleDescription(f"{self.title}. {listed}")
        self.update()

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        painter, area = self.begin()
        if not self.bars:
            self.empty(painter, area, "No decisions yet")
            return
        metrics = QFontMetrics(self.font())
        axis = metrics.horizontalAdvance("0000") + 4
        bottom = area.bottom() - metrics.height() - 2
        top_value: float = max(value for _, value in self.bars) or 1
        step = nice_step(top_value)
        top_value = step * max(1, -(-top_value // step))
        height = bottom - area.top()
        grid = QPen(self.colour(QPalette.ColorRole.Mid), 1, Qt.PenStyle.DotLine)
        text = self.colour(QPalette.ColorRole.PlaceholderText)
        tick = 0.0
        while tick <= top_value:
            y = bottom - height * tick / top_value
            painter.setPen(grid)
            painter.drawLine(QPointF(area.left() + axis, y), QPointF(area.right(), y))
            painter.setPen(text)
            painter.drawText(
                QRectF(area.left(), y - 8, axis - 4, 16), Qt.AlignmentFlag.AlignRight, f"{tick:g}"
            )
            tick += step
        width = (area.width() - axis) / len(self.bars)
        label_every = max(1, int(metrics.horizontalAdvance("00-00 ") // max(width, 1)) + 1)
        for number, (label, value) in enumerate(self.bars):
            left = area.left() + axis + number * width
            bar_height = height * value / top_value
            painter.fillRect(
                QRectF(left + width * 0.15, bottom - bar_height, width * 0.7, bar_height),
                self.accent(),
            )
            if number % label_every == 0:
                painter.setPen(text)
                painter.drawText(
                    QRectF(left - width, bottom + 2, width * 3, metrics.height()),
                    Qt.AlignmentFlag.AlignHCenter,
                    label,
                )


class CurvePlot(Plot):
    """A rising curve against a straight line (relevant found against abstracts read)."""

    def __init__(
        self, title: str, x_label: str, y_label: str, parent: QWidget | None = None
    ) -> None:
        super().__init__(title, parent)
        self.x_label, self.y_label = x_label, y_label
        self.points: list[tuple[int, int]] = []

    def set_points(self, points: Sequence[tuple[int, int]]) -> None:
        self.points = list(points)
        last = self.points[-1] if self.points else (0, 0)
        self.setAccessibleDescription(
            f"{self.title}: {last[1]} {self.y_label} after {last[0]} {self.x_label}"
        )
        self.update()

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        painter, area = self.begin()
        if len(self.points) < 2:
            self.empty(painter, area, "Decide a few papers to see the curve")
            return
        metrics = QFontMetrics(self.font())
        axis = metrics.horizontalAdvance("0000") + 4
        plot = QRectF(
            area.left() + axis,
            area.top(),
            area.width() - axis,
            area.height() - metrics.height() - 4,
        )
        max_x = max(x for x, _ in self.points) or 1
        max_y = max(y for _, y in self.points) or 1
        text = self.colour(QPalette.ColorRole.PlaceholderText)
        painter.setPen(QPen(self.colour(QPalette.ColorRole.Mid), 1))
        painter.drawLine(plot.bottomLeft(), plot.bottomRight())
        painter.drawLine(plot.bottomLeft(), plot.topLeft())
        painter.setPen(text)
        painter.drawText(
            QRectF(area.left(), plot.top() - 2, axis - 4, 16),
            Qt.AlignmentFlag.AlignRight,
            str(max_y),
        )
        painter.drawText(
            QRectF(area.left(), plot.bottom() - 14, axis - 4, 16), Qt.AlignmentFlag.AlignRight, "0"
        )
        painter.drawText(
            QRectF(plot.left(), plot.bottom() + 2, plot.width(), metrics.height()),
            Qt.AlignmentFlag.AlignRight,
            f"{max_x:,} {self.x_label}",
        )
        painter.drawText(
            QRectF(plot.left() + 6, plot.top(), plot.width(), metrics.height()),
            Qt.AlignmentFlag.AlignLeft,
            self.y_label,
        )

        def at(x: float, y: float) -> QPointF:
            return QPointF(
                plot.left() + plot.width() * x / max_x, plot.bottom() - plot.height() * y / max_y
            )

        painter.setPen(QPen(self.colour(QPalette.ColorRole.Mid), 1, Qt.PenStyle.DashLine))
        painter.drawLine(at(0, 0), at(max_x, self.points[-1][1]))
        path = QPainterPath(at(0, 0))
        for x, y in self.points:
            path.lineTo(at(x, y))
        painter.setPen(QPen(self.accent(), 2))
        painter.drawPath(path)


class CountPlot(Plot):
    """Horizontal bars with a name and a count each (papers by status, by tag)."""

    def __init__(self, title: str, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.rows: list[tuple[str, int, QColor | None]] = []

    def set_rows(self, rows: Sequence[tuple[str, int, QColor | None]]) -> None:
        self.rows = list(rows)
        listed = ", ".join(f"{name}: {count}" for name, count, _ in self.rows)
        self.setAccessibleDescription(f"{self.title}. {listed}")
        self.update()

    def paintEvent(self, event) -> None:  # type: ignore[no-untyped-def]
        painter, area = self.begin()
        if not self.rows:
            self.empty(painter, area, "Nothing to count yet")
            return
        metrics = QFontMetrics(self.font())
        name_width = min(
            max(metrics.horizontalAdvance(name) for name, _, _ in self.rows) + 14,
            area.width() * 0.4,
        )
        count_width = metrics.horizontalAdvance("000,000") + 6
        row_height = min(area.height() / len(self.rows), metrics.height() * 1.8)
        top_count = max(count for _, count, _ in self.rows) or 1
        room = area.width() - name_width - count_width
        text = self.colour(QPalette.ColorRole.Text)
        for number, (name, count, colour) in enumerate(self.rows):
            y = area.top() + number * row_height
            painter.setPen(text)
            elided = metrics.elidedText(name, Qt.TextElideMode.ElideRight, int(name_width - 8))
            painter.drawText(
                QRectF(area.left(), y, name_width - 8, row_height),
                Qt.AlignmentFlag.AlignVCenter,
                elided,
            )
            bar = QRectF(
                area.left() + name_width,
                y + row_height * 0.2,
                room * count / top_count,
                row_height * 0.6,
            )
            painter.fillRect(bar, colour or self.accent())
            painter.drawText(
                QRectF(bar.right() + 4, y, count_width, row_height),
                Qt.AlignmentFlag.AlignVCenter,
                f"{count:,}",
            )

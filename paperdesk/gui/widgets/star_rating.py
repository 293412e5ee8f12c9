"""A 0-5 star rating a user sets with the mouse or the keyboard."""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QKeyEvent, QMouseEvent, QPainter, QPainterPath, QPalette
from PySide6.QtWidgets import QSizePolicy, QWidget

from paperdesk.core.models import MAX_RATING

STAR_GOLD = QColor("#e8a317")
#: A rating waiting for a team library's server: outlined stars, faintly filled.
PENDING_FILL = QColor(STAR_GOLD.red(), STAR_GOLD.green(), STAR_GOLD.blue(), 60)
WAITING = "waiting for the server: kept on this machine"


def star_path(rect: QRectF) -> QPainterPath:
    """A five-pointed star inscribed in `rect`."""
    centre = rect.center()
    outer = min(rect.width(), rect.height()) / 2
    inner = outer * 0.45
    path = QPainterPath()
    for point in range(10):
        radius = outer if point % 2 == 0 else inner
        angle = -math.pi / 2 + point * math.pi / 5
        vertex = centre + QPointF(radius * math.cos(angle), radius * math.sin(angle))
        if point == 0:
            path.moveTo(vertex)
        else:
            path.lineTo(vertex)
    path.closeSubpath()
    return path


class StarRating(QWidget):
    """Clicking star n sets rating n; clicking the current rating clears it to 0.

    Keys: 0-5 set the rating, Left/Minus lower it, Right/Plus raise it. `rating_changed`
    fires only for a user's change, never for `set_rating` from code. A rating set while
    a team library's server is away (`set_pending`) shows as hollow stars until it is
    applied.
    """

    rating_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None, star_size: int = 18) -> None:
        super().__init__(parent)
        self._rating = 0
        self._pending: int | None = None
        self._hovered: int | None = None
        self._star_size = star_size
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName("Rating")
        self._update_tooltip()

    def rating(self) -> int:
        """The rating shown: the one waiting for the server, if any."""
        return self._rating if self._pending is None else self._pending

    def set_rating(self, rating: int) -> None:
        """The stored rating (and no rating waiting)."""
        self._rating = max(0, min(MAX_RATING, rating))
        self._pending = None
        self._update_tooltip()
        self.update()

    def set_pending(self, rating: int | None) -> None:
        """The rating kept on this machine until the server takes it (None: none)."""
        self._pending = rating
        self._update_tooltip()
        self.update()

    def _user_sets(self, rating: int) -> None:
        rating = max(0, min(MAX_RATING, rating))
        if rating != self.rating():
            self.set_rating(rating)
            self.rating_changed.emit(rating)

    def _update_tooltip(self) -> None:
        rating = f"{self.rating()} of {MAX_RATING}"
        waiting = "" if self._pending is None else f", {WAITING}"
        self.setToolTip(f"Rating: {rating}{waiting} (keys 0-{MAX_RATING})")
        self.setAccessibleDescription(f"{rating} stars{waiting}")

    def sizeHint(self) -> QSize:
        gap = self._star_size // 4
        return QSize(MAX_RATING * (self._star_size + gap) + gap, self._star_size + 2 * gap)

    def _star_rect(self, index: int) -> QRectF:
        gap = self._star_size / 4
        return QRectF(gap + index * (self._star_size + gap), gap, self._star_size, self._star_size)

    def _star_at(self, x: float) -> int:
        """1-based star under x, 0 left of the first star."""
        step = self._star_size + self._star_size / 4
        return max(0, min(MAX_RATING, math.ceil((x - self._star_size / 8) / step)))

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        shown = self._hovered if self._hovered is not None else self.rating()
        fill = STAR_GOLD if self._hovered is not None or self._pending is None else PENDING_FILL
        outline = self.palette().color(QPalette.ColorRole.Mid)
        for index in range(MAX_RATING):
            path = star_path(self._star_rect(index))
            if index < shown:
                painter.fillPath(path, fill)
            painter.setPen(STAR_GOLD if index < shown else outline)
            painter.drawPath(path)
        if self.hasFocus():
            painter.setPen(self.palette().color(QPalette.ColorRole.Highlight))
            painter.drawRect(self.rect().adjusted(0, 0, -1, -1))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        self._hovered = self._star_at(event.position().x())
        self.update()

    def leaveEvent(self, event: QEvent) -> None:
        self._hovered = None
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return super().mousePressEvent(event)
        clicked = self._star_at(event.position().x())
        self._user_sets(0 if clicked == self.rating() else clicked)

    def event(self, event: QEvent) -> bool:
        # Digits are window shortcuts elsewhere (1-9 toggle tags); here they mean stars.
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and self._key_rating(event) is not None
        ):
            event.accept()
            return True
        return super().event(event)

    def _key_rating(self, event: QKeyEvent) -> int | None:
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return None
        key = event.key()
        if Qt.Key.Key_0 <= key <= Qt.Key.Key_0 + MAX_RATING:
            return key - Qt.Key.Key_0
        if key in (Qt.Key.Key_Right, Qt.Key.Key_Plus, Qt.Key.Key_Up):
            return self.rating() + 1
        if key in (Qt.Key.Key_Left, Qt.Key.Key_Minus, Qt.Key.Key_Down):
            return self.rating() - 1
        return None

    def keyPressEvent(self, event: QKeyEvent) -> None:
        rating = self._key_rating(event)
        if rating is None:
            return super().keyPressEvent(event)
        self._user_sets(rating)

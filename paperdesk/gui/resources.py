"""Icons, the app icon and the style sheet from the project's `resources/` folder.

Action icons are monochrome SVGs drawn with `currentColor`; they are rendered at the
size asked for (crisp at any device pixel ratio) in the palette's text colour, so they
follow a dark palette without a second icon set.
"""

from __future__ import annotations

import logging
from functools import cache

from PySide6.QtCore import QByteArray, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QIconEngine, QPainter, QPalette, QPixmap
from PySide6.QtSvg import QSvgRenderer

from paperdesk.config import bundled_dir

log = logging.getLogger(__name__)

RESOURCES_DIR = bundled_dir("resources")
ICONS_DIR = RESOURCES_DIR / "icons"


class _TintedSvgEngine(QIconEngine):
    """Renders one `currentColor` SVG in the palette colour that fits the icon mode."""

    def __init__(self, svg: bytes) -> None:
        super().__init__()
        self._svg = svg
        self._renderers: dict[str, QSvgRenderer] = {}
        # Table cells paint the same few icons thousands of times: render each size once.
        self._pixmaps: dict[tuple[int, int, str, float], QPixmap] = {}

    def _renderer(self, colour: QColor) -> QSvgRenderer:
        name = colour.name(QColor.NameFormat.HexArgb)
        renderer = self._renderers.get(name)
        if renderer is None:
            # SVG wants #rrggbb plus a separate opacity, not Qt's #aarrggbb.
            svg = self._svg.replace(b"currentColor", colour.name().encode())
            svg = svg.replace(b"<svg ", f'<svg opacity="{colour.alphaF():.2f}" '.encode(), 1)
            renderer = QSvgRenderer(QByteArray(svg))
            self._renderers[name] = renderer
        return renderer

    @staticmethod
    def _colour(mode: QIcon.Mode) -> QColor:
        palette = QGuiApplication.palette()
        if mode == QIcon.Mode.Disabled:
            return palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText)
        if mode == QIcon.Mode.Selected:
            return palette.color(QPalette.ColorRole.HighlightedText)
        return palette.color(QPalette.ColorRole.WindowText)

    def paint(self, painter: QPainter, rect: QRect, mode: QIcon.Mode, state: QIcon.State) -> None:
        scale = painter.device().devicePixelRatioF() if painter.device() else 1.0
        painter.drawPixmap(rect, self.scaledPixmap(rect.size(), mode, state, scale))

    def pixmap(self, size: QSize, mode: QIcon.Mode, state: QIcon.State) -> QPixmap:
        return self.scaledPixmap(size, mode, state, 1.0)

    def scaledPixmap(
        self, size: QSize, mode: QIcon.Mode, state: QIcon.State, scale: float
    ) -> QPixmap:
        colour = self._colour(mode)
        key = (size.width(), size.height(), colour.name(QColor.NameFormat.HexArgb), scale)
        cached = self._pixmaps.get(key)
        if cached is None:
            cached = QPixmap(size * scale)
            cached.setDevicePixelRatio(scale)
            cached.fill(Qt.GlobalColor.transparent)
            painter = QPainter(cached)
            self._renderer(colour).render(painter, QRect(QPoint(0, 0), size))
            painter.end()
            self._pixmaps[key] = cached
        return cached

    def clone(self) -> QIconEngine:
        return _TintedSvgEngine(self._svg)


def icon(name: str) -> QIcon:
    """An action icon from resources/icons/<name>.svg, tinted by the current palette."""
    path = ICONS_DIR / f"{name}.svg"
    try:
        return QIcon(_TintedSvgEngine(path.read_bytes()))
    except OSError:
        log.warning("icon %s is missing from %s", name, ICONS_DIR)
        return QIcon()


@cache
def app_icon() -> QIcon:
    return QIcon(str(RESOURCES_DIR / "paperdesk.svg"))


def style_sheet() -> str:
    """The app's style sheet; it only names palette roles, so it suits light and dark."""
    try:
        return (RESOURCES_DIR / "style.qss").read_text(encoding="utf-8")
    except OSError:
        log.warning("style sheet missing from %s", RESOURCES_DIR)
        return ""

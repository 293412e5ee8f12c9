from __future__ import annotations

import re

from PySide6.QtCore import QSize
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from paperdesk.gui.resources import ICONS_DIR, RESOURCES_DIR, app_icon, icon


def darkest_and_lightest_ink(name: str) -> float:
    image = icon(name).pixmap(QSize(32, 32)).toImage()
    values = [
        QColor(image.pixel(x, y)).lightnessF()
        for x in range(32)
        for y in range(32)
        if QColor.fromRgba(image.pixel(x, y)).alpha() > 200
    ]
    assert values, f"icon {name} drew nothing"
    return sum(values) / len(values)


def test_icons_follow_the_palette_so_dark_mode_stays_legible(qapp):
    original = QGuiApplication.palette()
    try:
        light = QPalette(original)
        light.setColor(QPalette.ColorRole.WindowText, QColor("#202020"))
        QGuiApplication.setPalette(light)
        on_light = darkest_and_lightest_ink("tag")
        dark = QPalette(original)
        dark.setColor(QPalette.ColorRole.WindowText, QColor("#e0e0e0"))
        QGuiApplication.setPalette(dark)
        on_dark = darkest_and_lightest_ink("tag")
    finally:
        QGuiApplication.setPalette(original)
    assert on_light < 0.3 < 0.7 < on_dark


def test_every_icon_the_code_names_exists():
    gui_package = RESOURCES_DIR.parent / "paperdesk" / "gui"
    source = "\n".join(path.read_text() for path in gui_package.rglob("*.py"))
    named = set(re.findall(r'icon\(\s*"([a-z-]+)"', source))
    named |= {f"status-{s}" for s in ("new", "skimmed", "to-read", "read", "discarded")}
    missing = [name for name in named if not (ICONS_DIR / f"{name}.svg").exists()]
    assert not missing


def test_app_icon_and_desktop_file_are_present(qapp):
    assert not app_icon().isNull()
    desktop = (RESOURCES_DIR / "paperdesk.desktop").read_text()
    assert "Exec=paperdesk" in desktop and "Icon=paperdesk" in desktop

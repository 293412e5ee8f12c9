"""Preferences (Edit > Preferences): theme, font size, the default library, asking before
deleting; and the recently opened libraries (File > Recent Libraries).

They live in QSettings, except the default library folder, which the command line must
see too: it is kept where `paperdesk.config` reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from PySide6.QtCore import QSettings
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from paperdesk import config
from paperdesk.core.team_url import TeamAddress, is_team_url
from paperdesk.gui.dialogs.questions import CONFIRM_DELETE_KEY
from paperdesk.gui.resources import style_sheet
from paperdesk.services.use_cases.citing import DEFAULT_STYLE, STYLES

THEMES = {"system": "Same as the system", "light": "Light", "dark": "Dark"}
MAX_RECENT = 8
RECENT_KEY = "libraries/recent"
WHY_KEY = "preferences/why-this-paper"
STYLE_KEY = "preferences/citation-style"


@dataclass(frozen=True)
class Preferences:
    theme: str = "system"
    # Points; 0 keeps the system's size.
    font_size: int = 0
    confirm_delete: bool = True
    # None: the platform's user data folder (config.default_library_dir).
    default_library: Path | None = None
    # Triage's "why this paper": its line and the words it tints (W turns it off too).
    why_this_paper: bool = True
    # What Copy Citation writes (formats/citations.py STYLES).
    citation_style: str = DEFAULT_STYLE

    @classmethod
    def load(cls, settings: QSettings) -> Preferences:
        theme = str(settings.value("preferences/theme", "system"))
        return cls(
            theme=theme if theme in THEMES else "system",
            font_size=_int(settings.value("preferences/font-size", 0, type=int)),
            confirm_delete=bool(settings.value(CONFIRM_DELETE_KEY, True, type=bool)),
            default_library=config.chosen_default_library_dir(),
            why_this_paper=bool(settings.value(WHY_KEY, True, type=bool)),
            citation_style=style
            if (style := str(settings.value(STYLE_KEY, ""))) in STYLES
            else DEFAULT_STYLE,
        )

    def save(self, settings: QSettings) -> None:
        settings.setValue("preferences/theme", self.theme)
        settings.setValue("preferences/font-size", self.font_size)
        settings.setValue(CONFIRM_DELETE_KEY, self.confirm_delete)
        settings.setValue(WHY_KEY, self.why_this_paper)
        settings.setValue(STYLE_KEY, self.citation_style)
        settings.sync()
        config.choose_default_library_dir(self.default_library)


# --- applying them to the running application -------------------------------------------
@dataclass(frozen=True)
class _PlatformLook:
    """What the platform gave at start: "system" goes back to it."""

    style: str
    palette: QPalette
    font: QFont


_started_with: list[_PlatformLook] = []


def apply_preferences(app: QApplication, preferences: Preferences) -> None:
    """Theme and font size for every window, now."""
    if not _started_with:
        _started_with.append(
            _PlatformLook(app.style().name(), QPalette(app.palette()), QFont(app.font()))
        )
    platform = _started_with[0]
    if preferences.theme == "system":
        app.setStyle(platform.style)
        app.setPalette(platform.palette)
    else:
        # Fusion honours a palette on every platform; native styles may ignore it.
        app.setStyle("Fusion")
        app.setPalette(dark_palette() if preferences.theme == "dark" else light_palette())
    font = QFont(platform.font)
    if preferences.font_size > 0:
        font.setPointSize(preferences.font_size)
    app.setFont(font)


def light_palette() -> QPalette:
    return QApplication.style().standardPalette()


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = QPalette.ColorRole
    colours = {
        roles.Window: "#2b2d30",
        roles.WindowText: "#e6e6e6",
        roles.Base: "#1f2023",
        roles.AlternateBase: "#27292c",
        roles.ToolTipBase: "#3a3c40",
        roles.ToolTipText: "#e6e6e6",
        roles.PlaceholderText: "#9a9ca1",
        roles.Text: "#e6e6e6",
        roles.Button: "#34363a",
        roles.ButtonText: "#e6e6e6",
        roles.BrightText: "#ff6b6b",
        roles.Light: "#4a4c50",
        roles.Midlight: "#3c3e42",
        roles.Mid: "#55575c",
        roles.Dark: "#1a1b1d",
        roles.Shadow: "#000000",
        roles.Highlight: "#3d6fd6",
        roles.HighlightedText: "#ffffff",
        roles.Link: "#7aa7ff",
        roles.LinkVisited: "#b08cff",
    }
    for role, colour in colours.items():
        palette.setColor(role, QColor(colour))
    disabled = QPalette.ColorGroup.Disabled
    for role in (roles.WindowText, roles.Text, roles.ButtonText):
        palette.setColor(disabled, role, QColor("#7a7c80"))
    return palette


def is_dark() -> bool:
    window = QGuiApplication.palette().color(QPalette.ColorRole.Window)
    return window.lightness() < 128


def _int(value: object) -> int:
    """A QSettings number (read with type=int): 0 when it is not one."""
    return value if isinstance(value, int) else 0


# --- recent libraries --------------------------------------------------------------------
def recent_libraries(settings: QSettings) -> list[Path | TeamAddress]:
    """Library folders and team libraries' addresses (never with a password)."""
    values = settings.value(RECENT_KEY, [], type=list)
    if not isinstance(values, list):
        return []
    return [TeamAddress(str(v)) if is_team_url(str(v)) else Path(str(v)) for v in values]


def library_identity(location: Path | TeamAddress) -> Path | TeamAddress:
    """What tells libraries apart: a resolved folder, or an address without its password
    (which is never written down)."""
    if isinstance(location, TeamAddress):
        return location.with_password(None)
    return Path(location).expanduser().resolve()


def remember_library(settings: QSettings, location: Path | TeamAddress) -> list[Path | TeamAddress]:
    """Put `location` first in the recent libraries; returns the new list."""
    location = library_identity(location)
    recent = [location, *(p for p in recent_libraries(settings) if p != location)][:MAX_RECENT]
    settings.setValue(RECENT_KEY, [p.url if isinstance(p, TeamAddress) else str(p) for p in recent])
    return recent


# --- the dialog -------------------------------------------------------------------------
class PreferencesDialog(QDialog):
    """Edits a copy of the preferences; `preferences()` is what the user chose."""

    def __init__(self, current: Preferences, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.theme_box = QComboBox()
        self.theme_box.setAccessibleName("Theme")
        for name, label in THEMES.items():
            self.theme_box.addItem(label, name)
        self.theme_box.setCurrentIndex(self.theme_box.findData(current.theme))
        self.font_size = QSpinBox()
        self.font_size.setAccessibleName("Font size")
        self.font_size.setRange(0, 32)
        self.font_size.setSpecialValueText("Same as the system")
        self.font_size.setSuffix(" pt")
        self.font_size.setValue(current.font_size)
        self.confirm_delete = QCheckBox("Ask before deleting papers")
        self.confirm_delete.setChecked(current.confirm_delete)
        self.why_this_paper = QCheckBox("Show ‘why this paper’ in triage (tinted words)")
        self.why_this_paper.setChecked(current.why_this_paper)
        self.citation_style = QComboBox()
        self.citation_style.setAccessibleName("Citation style")
        for name, (label, _file) in STYLES.items():
            self.citation_style.addItem(label, name)
        self.citation_style.setCurrentIndex(self.citation_style.findData(current.citation_style))
        self.library_field = QLineEdit(str(current.default_library or ""))
        self.library_field.setAccessibleName("Default library folder")
        self.library_field.setPlaceholderText(str(config.default_library_dir(chosen=False)))
        browse = QPushButton("Choose…")
        browse.clicked.connect(self._browse)
        library_row = QHBoxLayout()
        library_row.addWidget(self.library_field, 1)
        library_row.addWidget(browse)

        form = QFormLayout()
        form.addRow("Theme:", self.theme_box)
        form.addRow("Font size:", self.font_size)
        form.addRow("Library at start:", library_row)
        form.addRow("Copy Citation in:", self.citation_style)
        form.addRow("", self.confirm_delete)
        form.addRow("", self.why_this_paper)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)
        self._current = current
        self.setMinimumWidth(520)

    def preferences(self) -> Preferences:
        folder = self.library_field.text().strip()
        return replace(
            self._current,
            theme=str(self.theme_box.currentData()),
            font_size=self.font_size.value(),
            confirm_delete=self.confirm_delete.isChecked(),
            why_this_paper=self.why_this_paper.isChecked(),
            citation_style=str(self.citation_style.currentData()),
            default_library=Path(folder).expanduser() if folder else None,
        )

    def _browse(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, "Library folder", self.library_field.text(), QFileDialog.Option.ShowDirsOnly
        )
        if folder:
            self.library_field.setText(folder)


def open_preferences(
    parent: QWidget, settings: QSettings, restyle: Sequence[QWidget]
) -> PreferencesDialog:
    """Show the Preferences dialog; once accepted, save and apply the choices, and give
    the `restyle` widgets their style sheet again (it names palette colours)."""
    dialog = PreferencesDialog(Preferences.load(settings), parent)

    def accepted() -> None:
        chosen = dialog.preferences()
        chosen.save(settings)
        app = QApplication.instance()
        assert isinstance(app, QApplication)
        apply_preferences(app, chosen)
        for widget in restyle:
            widget.setStyleSheet(style_sheet())

    dialog.accepted.connect(accepted)
    dialog.open()
    return dialog

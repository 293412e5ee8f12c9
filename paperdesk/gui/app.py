"""Starting the desktop app, switching libraries, and rendering a window to a PNG
(`--screenshot`)."""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import (
    QEventLoop,
    QMessageLogContext,
    QSettings,
    Qt,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtWidgets import QApplication

from paperdesk import __version__
from paperdesk.core.team_url import TeamAddress
from paperdesk.gui.dialogs.preferences import Preferences, apply_preferences
from paperdesk.gui.dialogs.questions import ErrorReporter
from paperdesk.gui.main_thread_gc import MainThreadCollector
from paperdesk.gui.resources import app_icon
from paperdesk.gui.window.main_window import MainWindow

log = logging.getLogger(__name__)

qt_log = logging.getLogger("qt")
QT_LOG_LEVELS = {
    QtMsgType.QtDebugMsg: logging.DEBUG,
    QtMsgType.QtInfoMsg: logging.INFO,
    QtMsgType.QtWarningMsg: logging.WARNING,
    QtMsgType.QtCriticalMsg: logging.ERROR,
    QtMsgType.QtFatalMsg: logging.CRITICAL,
}
# Without a screen (offscreen rendering, --screenshot) Qt notes what the platform lacks
# on every window shown; nothing there is the user's concern.
HEADLESS_PLATFORMS = ("offscreen", "minimal")
HEADLESS_PLATFORM_NOTES = (
    "This plugin does not support propagateSizeHints()",
    "This plugin does not support raise()",
    "This plugin does not support grabbing the keyboard",
)

DEFAULT_SCREENSHOT_SIZE = (1400, 900)
SCREENSHOT_TIMEOUT_MS = 180_000
# After the data is in, let layouts settle and the table paint before grabbing.
SETTLE_MS = 300


def application() -> QApplication:
    """The QApplication (created if needed) with the app's name and icon."""
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0]])
    assert isinstance(app, QApplication)
    app.setOrganizationName("paperdesk")
    app.setApplicationName("paperdesk")
    app.setApplicationDisplayName("Paperdesk")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("paperdesk")
    app.setWindowIcon(app_icon())
    (app.findChild(MainThreadCollector) or MainThreadCollector(app)).start()
    if app.platformName() in HEADLESS_PLATFORMS:
        qInstallMessageHandler(_log_qt_message)
    return app


def _log_qt_message(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's messages through logging, minus a headless platform's "cannot do X" notes."""
    if any(note in message for note in HEADLESS_PLATFORM_NOTES):
        return
    qt_log.log(QT_LOG_LEVELS.get(mode, logging.WARNING), "%s", message)


def install_error_hook(errors: ErrorReporter) -> None:
    """An exception escaping a Qt slot is logged and shown once; the app keeps running."""

    def hook(kind, error, traceback) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, error, traceback)
            return
        errors.report("An action", error.with_traceback(traceback))

    sys.excepthook = hook


class LibraryWindows:
    """The app's main windows. File > Open Library replaces a window by one on the other
    library (a fresh window: nothing of the old library's state can leak into it)."""

    def __init__(self, settings: QSettings) -> None:
        self.settings = settings
        self.windows: list[MainWindow] = []

    def open(self, library: Path | TeamAddress) -> MainWindow:
        window = MainWindow(library, self.settings)
        window.switch_requested.connect(lambda folder: self.switch(window, folder))
        install_error_hook(window.errors)
        self.windows.append(window)
        window.show()
        return window

    def switch(self, old: MainWindow, library: Path | TeamAddress) -> MainWindow:
        # The new window is shown before the old one closes, so the app never has no
        # window (it would quit).
        new = self.open(library)
        old.close()
        self.windows.remove(old)
        old.deleteLater()
        return new


def run_gui(
    library: Path | TeamAddress,
    screenshot: Path | None = None,
    size: tuple[int, int] | None = None,
    query: str | None = None,
    select: int | None = None,
    theme: str | None = None,
    import_files: Sequence[Path] = (),
) -> int:
    """Open the main window on `library` (a folder or a team library's address); with
    `screenshot`, render it to a PNG instead.

    `theme` overrides the Preferences' theme for this run (light, dark or system).
    """
    if screenshot is not None and not os.environ.get("QT_QPA_PLATFORM"):
        # A screenshot needs no screen: render offscreen unless told otherwise.
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    app = application()
    settings = QSettings()
    # A screenshot shows the app as shipped (only the theme asked for), not this user's.
    preferences = Preferences() if screenshot is not None else Preferences.load(settings)
    apply_preferences(app, replace(preferences, theme=theme or preferences.theme))
    if screenshot is not None:
        return render_screenshot(
            library, Path(screenshot), size or DEFAULT_SCREENSHOT_SIZE, query, select
        )
    windows = LibraryWindows(settings)
    window = windows.open(library)
    if query:
        window.search_bar.field.setText(query)
    window.pending_select = select
    import_once_open(window, import_files)
    return app.exec()


def import_once_open(window: MainWindow, files: Sequence[Path]) -> None:
    """Files a file manager handed over (the menu entry's %F), once the library is open."""
    if files:
        window.desk_opened.connect(
            lambda: window.transfers.import_files(files), Qt.ConnectionType.SingleShotConnection
        )


def render_screenshot(
    library: Path | TeamAddress,
    output: Path,
    size: tuple[int, int],
    query: str | None,
    select: int | None,
) -> int:
    """Render the window at `size` once the table and detail pane are filled; 0 on success.

    Uses throwaway settings, so neither the user's saved window layout shapes the
    picture nor the picture's layout is saved for the user.
    """
    # A local loop, not app.exec()/app.quit(): quitting the application's loop a second
    # time after it returned would leave Qt refusing to run any event loop afterwards.
    loop = QEventLoop()
    outcome = {"code": 1}
    with tempfile.TemporaryDirectory(prefix="paperdesk-screenshot-") as scratch:
        settings = QSettings(str(Path(scratch) / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(library, settings, offer_demo=False)
        if query:
            window.search_bar.field.setText(query)
        window.pending_select = select
        window.resize(*size)
        window.show()

        def grab() -> None:
            if loop.isRunning():  # not after a failure already ended the wait
                outcome["code"] = save_window_png(window, output, size)
                loop.quit()

        def on_search_applied() -> None:
            window.search_applied.disconnect(on_search_applied)
            QTimer.singleShot(SETTLE_MS, grab)

        def fail(message: str) -> None:
            log.error("no screenshot: %s", message)
            loop.quit()

        window.search_applied.connect(on_search_applied)
        window.failed.connect(fail)
        timeout = QTimer(window)
        timeout.setSingleShot(True)
        timeout.timeout.connect(
            lambda: fail(f"the window was not ready within {SCREENSHOT_TIMEOUT_MS // 1000} s")
        )
        timeout.start(SCREENSHOT_TIMEOUT_MS)
        loop.exec()
        timeout.stop()
        window.close()
    return outcome["code"]


def save_window_png(window: MainWindow, output: Path, size: tuple[int, int]) -> int:
    pixmap = window.grab()
    if (pixmap.width(), pixmap.height()) != size:
        # High-DPI screens grab at device pixels; the PNG is promised at `size`.
        pixmap = pixmap.scaled(
            *size,
            Qt.AspectRatioMode.IgnoreAspectRatio,
            Qt.TransformationMode.SmoothTransformation,
        )
    output.parent.mkdir(parents=True, exist_ok=True)
    if not pixmap.save(str(output), "PNG"):
        log.error("could not write %s", output)
        return 1
    log.info("wrote %s (%dx%d)", output, *size)
    return 0

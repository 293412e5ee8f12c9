"""The first-run offer: an empty library may load the bundled seed lists as a demo.

Declining is remembered per library folder, so the offer never nags; the demo stays
one click away under File > Load Demo Papers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QStatusBar, QWidget

from paperdesk.core.models import Overview
from paperdesk.gui.dialogs.questions import DemoOfferDialog
from paperdesk.gui.window.transfers import Transfers
from paperdesk.services.use_cases import demo


class DemoWindow(Protocol):
    """What the offer needs of the main window (gui/window/main_window.py, which calls it)."""

    offer_demo: bool
    demo_offer: DemoOfferDialog | None  # the open offer, if any (tests answer it)

    @property
    def settings(self) -> QSettings: ...
    @property
    def library_dir(self) -> Path: ...
    @property
    def transfers(self) -> Transfers: ...
    def statusBar(self, /) -> QStatusBar: ...
    def window(self, /) -> QWidget: ...


def offer_demo_if_empty(window: DemoWindow, overview: Overview) -> None:
    if window.offer_demo and overview.papers == 0 and not _declined(window):
        _offer(window)


def load_demo(window: DemoWindow) -> None:
    window.transfers.import_files(demo.seed_files(), report=False)


def _key(window: DemoWindow) -> str:
    return f"demo-declined/{window.library_dir.resolve().as_posix().strip('/')}"


def _declined(window: DemoWindow) -> bool:
    return bool(window.settings.value(_key(window), False, type=bool))


def _offer(window: DemoWindow) -> None:
    seeds = demo.seed_files()
    if not seeds:
        return
    dialog = DemoOfferDialog(len(seeds), window.window())
    window.demo_offer = dialog

    def answered() -> None:
        window.demo_offer = None
        if dialog.clickedButton() is dialog.load_button:
            load_demo(window)
        else:
            window.settings.setValue(_key(window), True)
            window.statusBar().showMessage(
                "Import your own lists with File > Import, or drop files on the window."
            )

    dialog.finished.connect(answered)
    dialog.open()

"""The first-run offer: an empty library may load the bundled seed lists as a demo.

Declining is remembered per library folder, so the offer never nags; the demo stays
one click away under File > Load Demo Papers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from paperdesk.core.models import Overview
from paperdesk.gui.dialogs import DemoOfferDialog
from paperdesk.services import demo

if TYPE_CHECKING:
    from paperdesk.gui.main_window import MainWindow


def offer_demo_if_empty(window: MainWindow, overview: Overview) -> None:
    if window.offer_demo and overview.papers == 0 and not _declined(window):
        _offer(window)


def load_demo(window: MainWindow) -> None:
    window.transfers.import_files(demo.seed_files(), report=False)


def _key(window: MainWindow) -> str:
    return f"demo-declined/{window.library_dir.resolve().as_posix().strip('/')}"


def _declined(window: MainWindow) -> bool:
    return bool(window.settings.value(_key(window), False, type=bool))


def _offer(window: MainWindow) -> None:
    seeds = demo.seed_files()
    if not seeds:
        return
    dialog = DemoOfferDialog(len(seeds), window)
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

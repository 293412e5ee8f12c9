"""Render resources/screenshots/triage.png: the triage view mid-screening on the seeds
library (the ICML 2025 lists the app offers as a demo), as the README shows it.

A screening named "Diffusion", seeded by the query "diffusion" over all papers, most
promising first; a few papers decided (the hits kept, the others discarded) so the
progress line, the stopping hint and "why this paper" show a screening under way.
Reproducible without clicking: run offscreen (the ranking process is spawned, hence the
`__main__` guard):
    QT_QPA_PLATFORM=offscreen python bench/screenshot_triage.py [--out FILE]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from bench_gui import open_window, wait_for  # noqa: E402
from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402

from paperdesk.gui.app import application  # noqa: E402
from paperdesk.gui.triage.session import Order  # noqa: E402
from paperdesk.services.runtime.desk import Desk  # noqa: E402
from paperdesk.services.use_cases import demo, importing  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
QUERY = "diffusion"
DECISIONS = "SSXSXXSX"  # S keep, X discard, in the order the papers come


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, default=ROOT / "resources/screenshots/triage.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch) / "library"
        with Desk.open(folder) as desk:
            report = importing.import_files(desk, demo.seed_files())
            print(report.summary())
        app = application()
        settings = QSettings(str(Path(scratch) / "shot.ini"), QSettings.Format.IniFormat)
        window = open_window(app, folder, settings)
        view = window.triage.view
        shown: list[object] = []
        view.session.paper_shown.connect(shown.append)
        window.triage.enter()
        wait_for(app, lambda: bool(shown))
        header = view.header
        header.screening.setCurrentText("Diffusion")
        header.scope.setCurrentIndex(header.scope.findText("All papers"))
        header.order.setCurrentIndex(header.order.findData(Order.PROMISE.value))
        header.query.setText(QUERY)
        before = len(shown)
        QTest.keyClick(header.query, Qt.Key.Key_Return)
        wait_for(app, lambda: len(shown) > before)
        for key in DECISIONS:
            before = len(shown)
            QTest.keyClick(view, Qt.Key.Key_S if key == "S" else Qt.Key.Key_X)
            wait_for(app, lambda before=before: len(shown) > before)
        promise = window.desk.promise_if_started()
        assert promise is not None
        promise.wait(600)  # the model has every decision; its "why" line follows
        ends = time.perf_counter() + 3
        wait_for(app, lambda: time.perf_counter() > ends)
        window.grab().save(str(args.out), "PNG")
        print(f"wrote {args.out} ({args.out.stat().st_size:,} bytes)")
        window.close()


if __name__ == "__main__":
    main()

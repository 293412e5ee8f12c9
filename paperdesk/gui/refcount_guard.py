"""Keep None, True and False alive under PySide6 6.12 on Python 3.11.

The PySide6 6.12 wheels (abi3) are built against headers where None, True and False
are immortal (PEP 683, Python 3.12+), so they skip the reference a returned None or
bool must carry. On Python 3.11 each Qt call that returns void takes one reference
from None for good, and each `emit()` from Python one from True (measured: 500 calls
of `QWidget.update()` lower `sys.getrefcount(None)` by 500). A session starts with
~35,000 references to None and spends ~50-200 per user action, so without help the
interpreter aborts ("deallocating None") after a few hundred actions.

The guard holds spare, genuine references and adds more whenever the count runs low.
It is a no-op on Python 3.12+, where those objects are immortal; drop it once the
project requires 3.12 or a fixed PySide6.
"""

from __future__ import annotations

import ctypes
import logging
import sys

from PySide6.QtCore import QObject, QTimer

log = logging.getLogger(__name__)

NEEDED = sys.version_info < (3, 12)
# Top up when fewer than FLOOR references remain; BATCH references cost 8 bytes each.
FLOOR = 200_000
BATCH = 500_000
CHECK_MS = 200
GUARDED = (None, True, False)

_reserve: list[list[object]] = []
# One reference the program never gives back: the reserve must outlive interpreter
# shutdown, or freeing it would hand the drained count back to zero at exit.
ctypes.pythonapi.Py_IncRef(ctypes.py_object(_reserve))


def top_up() -> None:
    for value in GUARDED:
        if sys.getrefcount(value) < FLOOR:
            _reserve.append([value] * BATCH)
            log.debug("refcount guard: %d spare references to %r", BATCH, value)


def install(parent: QObject) -> QTimer | None:
    """Start checking (on Python < 3.12); the timer lives as long as `parent`."""
    if not NEEDED:
        return None
    top_up()
    timer = QTimer(parent)
    timer.setObjectName("refcountGuard")
    timer.setInterval(CHECK_MS)
    timer.timeout.connect(top_up)
    timer.start()
    return timer

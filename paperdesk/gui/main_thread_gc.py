"""Python's cycle collector, run on the GUI thread only.

CPython runs a collection on whichever thread happens to allocate when a generation's
threshold is crossed. When that is a worker thread (the writer indexing a paper, the
reader searching) and the garbage holds a Qt object (a dialog kept in a closure cycle, a
closed window's model), the object is destroyed off the GUI thread and the process dies
with a segmentation fault: seen in CI, "Garbage-collecting" in whoosh's tokenizer on the
writer thread. So while the app runs, automatic collection is off, and a timer on the GUI
thread collects the generations that are due, by gc's own thresholds (qutebrowser's
GarbageCollector does the same for the same reason). Reference counting still frees
everything that is not in a cycle at once, on any thread.

A collection of the oldest generation walks every object the process holds: 85-95 ms
of the GUI thread with a 13,417-paper library open (150,000 objects), a GUI block
every minute or so. Most of them are what the app made before its first window
(modules, classes, Qt's wrappers) and live as long as the process, so the collector
freezes them when it starts (`gc.freeze`): the same collection then takes 13 ms.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

#: Often enough that a cycle-heavy burst (an import's plan, a search's results) is
#: collected within a moment; a check with nothing due costs microseconds.
CHECK_INTERVAL_MS = 500


def collect_due_generations() -> int:
    """Collect the oldest generation whose threshold has been crossed, as the automatic
    collector would have; -1 if none is due. Call it on the GUI thread."""
    counts = gc.get_count()
    thresholds = gc.get_threshold()
    due = -1
    for generation in range(3):
        if counts[generation] <= thresholds[generation]:
            break
        due = generation
    if due >= 0:
        gc.collect(due)
    return due


class MainThreadCollector(QObject):
    """Turns automatic collection off and collects on the GUI thread's timer instead."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._timer = QTimer(self)
        self._timer.setInterval(CHECK_INTERVAL_MS)
        self._timer.timeout.connect(collect_due_generations)

    def start(self) -> None:
        gc.disable()
        if not self._timer.isActive():
            gc.collect()  # the garbage of the start-up first: frozen, it would stay for good
            gc.freeze()
            self._timer.start()

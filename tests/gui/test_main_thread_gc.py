"""Reference cycles are collected on the GUI thread, never on a worker thread (a Qt
object destroyed off its thread crashed a CI run: paperdesk/gui/main_thread_gc.py)."""

from __future__ import annotations

import gc
import threading

from paperdesk.gui.app import application
from paperdesk.gui.main_thread_gc import MainThreadCollector


class _CollectionWitness:
    """Part of a reference cycle; notes the thread that collects it."""

    def __init__(self, collected_on: list[str]) -> None:
        self.collected_on = collected_on
        self.cycle = self

    def __del__(self) -> None:
        self.collected_on.append(threading.current_thread().name)


def test_a_cycle_made_garbage_while_a_worker_allocates_is_collected_on_the_gui_thread(qtbot):
    gc.enable()  # as in a plain Python process, before the app starts
    try:
        application()
        assert not gc.isenabled()
        collected_on: list[str] = []
        _CollectionWitness(collected_on)
        # A worker allocating far past the youngest generation's threshold: with
        # automatic collection on, the collection (and the witness's end) happens there.
        # (Kept alive: the collector counts allocations net of frees.)
        kept: list[list[int]] = []
        worker = threading.Thread(
            target=lambda: kept.extend([] for _ in range(10 * gc.get_threshold()[0])),
            name="worker",
        )
        worker.start()
        worker.join()
        assert collected_on == []
        qtbot.waitUntil(lambda: collected_on != [], timeout=5000)
        assert collected_on == [threading.main_thread().name]
    finally:
        gc.disable()


class _LongLived:
    """An object made before the collector starts, as the app's modules and classes are."""


def test_what_lives_when_the_collector_starts_is_left_out_of_later_collections(qtbot):
    # A full collection walked all 150,000 objects of a window with 13,417 papers:
    # 85-95 ms of the GUI thread. What the start-up made is frozen out of it.
    before = _LongLived()
    collector = MainThreadCollector()
    try:
        collector.start()
        after = _LongLived()
        tracked = gc.get_objects()
        assert any(o is after for o in tracked)
        assert not any(o is before for o in tracked)
    finally:
        collector.deleteLater()

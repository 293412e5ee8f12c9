"""Triage as a mode of the main window: the window's panes give way to the triage view.

Entering takes what the window shows (its scope and search) as one of the things to
triage, turns off the window's own actions (their letters mean other things there) and
hands the keyboard to the view; leaving puts everything back and selects, in the
table, the paper the triage ended on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QSettings, Qt, Signal, SignalInstance
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QStackedWidget, QWidget

from paperdesk.core.changes import Changes
from paperdesk.core.models import Overview
from paperdesk.gui.dialogs.preferences import WHY_KEY, Preferences
from paperdesk.gui.operations import Operations
from paperdesk.gui.triage.session import TriageSession
from paperdesk.gui.triage.view import TriageView
from paperdesk.gui.window.commands import Commands
from paperdesk.gui.window.detail_pane import DetailPane
from paperdesk.gui.window.paper_table import PaperTable
from paperdesk.gui.window.search_bar import SearchBar
from paperdesk.gui.window.sidebar import Sidebar
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import screenings, triage


class KeptActions(Protocol):
    """The window's actions that still work in triage (gui/window/menus.py's)."""

    @property
    def quit_action(self) -> QAction: ...
    @property
    def triage_action(self) -> QAction: ...
    @property
    def statistics_action(self) -> QAction: ...


class TriagedWindow(Protocol):
    """What the triage mode needs of the main window (gui/window/main_window.py, which makes
    it): what it shows, its actions to turn off, and the way back to the table."""

    @property
    def desk(self) -> Desk | None: ...
    @property
    def settings(self) -> QSettings: ...
    @property
    def operations(self) -> Operations: ...
    @property
    def commands(self) -> Commands: ...
    @property
    def detail(self) -> DetailPane: ...
    @property
    def sidebar(self) -> Sidebar: ...
    @property
    def search_bar(self) -> SearchBar: ...
    @property
    def table(self) -> PaperTable: ...
    @property
    def menus(self) -> KeptActions: ...
    @property
    def changes_applied(self) -> SignalInstance: ...
    def refresh_panes(self, then: Callable[[Overview], None] | None = None) -> None: ...
    def run_search(self, *_args: object) -> None: ...
    def select_when_listed(self, paper_id: int) -> None: ...
    def actions(self, /) -> list[QAction]: ...
    def window(self, /) -> QWidget: ...


MIN_VIEW_WIDTH, MIN_VIEW_HEIGHT = 480, 360


class _Trained(QObject):
    """Carries "a model finished training" and "the ranking stopped" from the ranking
    link's reader thread to the GUI thread."""

    signal = Signal()
    notice = Signal(str)


class _AfterPaint(QObject):
    """Runs a call once the repaints already asked for are done: Qt posts a window's
    repaint at low priority, after queued calls and zero-time timers, so this call is
    posted at a lower one still."""

    _EVENT = QEvent.Type(QEvent.registerEventType())

    def __init__(self, call: Callable[[], None], parent: QObject) -> None:
        super().__init__(parent)
        self._call = call

    def post(self) -> None:
        priority = Qt.EventPriority.LowEventPriority.value - 1
        QCoreApplication.postEvent(self, QEvent(self._EVENT), priority)

    def event(self, event: QEvent) -> bool:
        if event.type() == self._EVENT:
            self._call()
            return True
        return super().event(event)


class TriageMode:
    def __init__(self, window: TriagedWindow, stack: QStackedWidget) -> None:
        self.window = window
        self.stack = stack
        self.session = TriageSession(window.operations, window.window())
        self.view = TriageView(self.session)
        self.view.tag_names = window.commands.tag_names
        self.view.note_drafts = window.detail.notes.note_drafts  # one draft per paper
        # A stack is as wide as its widest page: the hidden view must not widen the window.
        self.view.setMinimumSize(MIN_VIEW_WIDTH, MIN_VIEW_HEIGHT)
        self.stack.addWidget(self.view)
        self._disabled: list[QAction] = []
        self._after_paint = _AfterPaint(self._read_main_page_again, stack)
        self._trained = _Trained()
        self._listening = False
        self._trained.signal.connect(self.session.set_promise_ready)
        self._trained.notice.connect(self.session.message)
        self.view.leave_requested.connect(self.leave)
        self.view.header.screening_picked.connect(self.resume)
        self.view.why_toggled.connect(lambda shown: window.settings.setValue(WHY_KEY, shown))
        self.session.promise_started.connect(self._listen_to_promise)
        window.changes_applied.connect(self._follow)

    @property
    def active(self) -> bool:
        return self.stack.currentWidget() is self.view

    def toggle(self) -> None:
        if self.active:
            self.leave()
        else:
            self.enter()

    def enter(self, screening: str | None = None) -> None:
        """Triage: resume the screening named (by default the one used last) with its
        scope, seed query and progress; with none yet, start one from the window's view."""
        window = self.window
        desk = window.desk
        if desk is None:
            return
        if self.active:
            if screening is not None:
                self.resume(screening)
            return
        overview = window.commands.overview
        shortlists = (
            sorted((s.name for s in overview.shortlists), key=str.casefold) if overview else []
        )
        tags = sorted((t.name for t in overview.tags), key=str.casefold) if overview else []
        names = [name for name, _decided in overview.screenings] if overview else []
        header = self.view.header
        header.fill(window.sidebar.scope(), window.search_bar.text(), shortlists, tags, names)
        # Short bounded reads: one screening's settings, the few always-highlight words.
        stored = screenings.named(desk, screening) if screening else screenings.last_used(desk)
        if stored is not None:
            header.show_screening(stored)
        self.view.always_words = triage.highlight_words(desk)
        self.view.show_why = Preferences.load(window.settings).why_this_paper
        keep = set(self.kept_actions())
        self._disabled = [a for a in window.actions() if a.isEnabled() and a not in keep]
        for action in self._disabled:
            action.setEnabled(False)
        self.stack.setCurrentWidget(self.view)
        self.view.restart()

    def resume(self, name: str) -> None:
        """Switch to the stored screening of this name (a new name starts one)."""
        desk = self.window.desk
        if desk is None:
            return
        if screenings.exists(desk, name):
            self.view.header.show_screening(screenings.named(desk, name))
        self.view.restart()

    def leave(self) -> None:
        if not self.active:
            return
        paper = self.session.paper
        self.session.stop()
        for action in self._disabled:
            action.setEnabled(True)
        self._disabled = []
        window = self.window
        if paper is not None:
            window.select_when_listed(paper.id)
        self.stack.setCurrentIndex(0)
        window.table.setFocus()
        # Read again once the main page is painted: a listing read meanwhile on the
        # reader thread (100,000 ids in Python) held the GIL each of the paint's calls
        # into the table's model waits for, a 107 ms block of which 41 ms was the GUI
        # thread's own work.
        self._after_paint.post()

    def _read_main_page_again(self) -> None:
        if not self.active:
            self.window.refresh_panes()
            self.window.run_search()

    def kept_actions(self) -> list[QAction]:
        """The window's actions that still work in triage (the rest act on the table)."""
        menus = self.window.menus
        return [menus.quit_action, menus.triage_action, menus.statistics_action]

    def _follow(self, changes: Changes | None) -> None:
        if not self.active:
            return
        if changes is not None and changes.highlight_words and self.window.desk is not None:
            self.view.set_always_words(triage.highlight_words(self.window.desk))
        self.session.follow(changes)

    def _listen_to_promise(self) -> None:
        desk = self.window.desk
        promise = desk.promise_if_started() if desk is not None else None
        if promise is not None and not self._listening:
            self._listening = True
            promise.add_listener(self._trained.signal.emit)
            promise.add_notice_listener(self._trained.notice.emit)
        self.session.set_promise_ready()

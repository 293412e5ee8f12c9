"""The triage view's header: which screening, what it goes through, the query that seeds
it (and whether it confines it to the hits), in which order, keeping to which shortlist.

A screening is named and stored (core/screening.py): picking one in the first box
resumes it with its own settings; typing a new name starts one with the settings shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import DEFAULT_NAME, SCREENABLE_KINDS, UNDECIDED, Screening
from paperdesk.gui.triage.session import ORDER_LABELS, Order, Plan

#: The scope box's entries that are no sidebar entry: (kind, value) of their data.
UNDECIDED_ENTRY = ("undecided", "")
HERE_ENTRY = ("here", "")
LIBRARY_ENTRY = ("library", "")
#: A screening's own scope when no other entry names it (a saved search, an import).
STORED_ENTRY = "stored"


class TriageHeader(QFrame):
    """What to triage, in which order, keeping to which shortlist; `plan_changed` fires
    when the user picks another; `screening_picked` when a stored screening is chosen."""

    plan_changed = Signal()
    screening_picked = Signal(str)
    leave_requested = Signal()
    help_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageHeader")
        self.screening = QComboBox()
        self.screening.setEditable(True)
        self.screening.setAccessibleName("Screening")
        self.screening.setMinimumContentsLength(12)
        self.screening.setToolTip(
            "A screening you come back to: pick one to resume it, type a new name to start one"
        )
        self.scope = QComboBox()
        self.scope.setAccessibleName("What to triage")
        self.scope.setMinimumContentsLength(16)
        self.query = QLineEdit()
        self.query.setAccessibleName("Seed query")
        self.query.setPlaceholderText("Seed query (its hits first), e.g. bandit regret")
        self.query.setClearButtonEnabled(True)
        self.confine = QCheckBox("Only its hits")
        self.confine.setToolTip(
            "Screen only the papers the query finds (the rest of the scope is left out)"
        )
        self.order = QComboBox()
        self.order.setAccessibleName("Order")
        for order, label in ORDER_LABELS.items():
            self.order.addItem(label, order.value)
        self.shortlist = QComboBox()
        self.shortlist.setEditable(True)
        self.shortlist.setAccessibleName("Keep to shortlist")
        self.shortlist.setMinimumContentsLength(10)
        self.shortlist.setToolTip("S adds the paper to this shortlist (a new name creates it)")
        keys = QPushButton("Keys (?)")
        keys.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        keys.clicked.connect(self.help_requested)
        done = QPushButton("Leave (Esc)")
        done.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        done.clicked.connect(self.leave_requested)
        # The query has a row of its own: beside eight other controls a 1000-pixel
        # window left it a few letters wide ("nforcement learning").
        rows = QVBoxLayout(self)
        rows.setContentsMargins(10, 6, 10, 6)
        rows.setSpacing(4)
        row = QHBoxLayout()
        seed_row = QHBoxLayout()
        rows.addLayout(row)
        rows.addLayout(seed_row)
        title = QLabel("Screening")
        title.setObjectName("triageTitle")
        row.addWidget(title)
        row.addWidget(self.screening)
        row.addSpacing(6)
        row.addWidget(self.scope, 1)
        seed_row.addWidget(QLabel("Seed query"))
        seed_row.addWidget(self.query, 1)
        seed_row.addWidget(self.confine)
        row.addWidget(QLabel("Order"))
        row.addWidget(self.order)
        row.addWidget(QLabel("Keep to"))
        row.addWidget(self.shortlist)
        row.addWidget(keys)
        row.addWidget(done)
        self._here: tuple[Scope, str] = (UNDECIDED, "")
        self.screening.activated.connect(self._on_screening)
        screening_name = self.screening.lineEdit()
        assert screening_name is not None  # an editable combo box has one
        screening_name.returnPressed.connect(self.plan_changed)
        self.scope.activated.connect(lambda _row: self.plan_changed.emit())
        self.confine.toggled.connect(lambda _on: self.plan_changed.emit())
        self.order.activated.connect(lambda _row: self.plan_changed.emit())
        self.shortlist.activated.connect(lambda _row: self.plan_changed.emit())
        shortlist_name = self.shortlist.lineEdit()
        assert shortlist_name is not None
        shortlist_name.editingFinished.connect(self.plan_changed)
        self.query.returnPressed.connect(self.plan_changed)

    def fill(
        self,
        here: Scope,
        here_text: str,
        shortlists: Sequence[str],
        tags: Sequence[str],
        screenings: Sequence[str] = (),
    ) -> None:
        """The choices: the screenings; not yet decided, the main window's view, the whole
        library, lists, tags."""
        self.blockSignals(True)  # the mode starts the triage once the choices are in
        try:
            name = self.screening.currentText().strip() or DEFAULT_NAME
            self.screening.clear()
            self.screening.addItems(list(screenings) or [DEFAULT_NAME])
            self.screening.setCurrentText(name)
            self.scope.clear()
            self.scope.addItem("Not yet decided", UNDECIDED_ENTRY)
            if here != UNDECIDED and here.kind in SCREENABLE_KINDS:
                what = here.describe() if here.kind != Kind.ALL else "All papers"
                self.scope.addItem(f"This view: {what}", HERE_ENTRY)
            self.scope.addItem("All papers", LIBRARY_ENTRY)
            for shortlist in shortlists:
                self.scope.addItem(f"Shortlist: {shortlist}", (Kind.SHORTLIST.value, shortlist))
            for tag in tags:
                self.scope.addItem(f"Tag: {tag}", (Kind.TAG.value, tag))
            self._here = (here, here_text)
            current = self.shortlist.currentText()
            self.shortlist.clear()
            self.shortlist.addItems(list(shortlists))
            self.shortlist.setCurrentText(current or (shortlists[0] if shortlists else "Kept"))
            if here_text and not self.query.text():
                self._show_query(here_text)  # the window's search seeds a new screening
        finally:
            self.blockSignals(False)

    def show_screening(self, screening: Screening) -> None:
        """Show a stored screening's settings (nothing is started: the caller restarts)."""
        widgets = (self.screening, self.scope, self.query, self.confine, self.order)
        for widget in (*widgets, self.shortlist):
            widget.blockSignals(True)
        try:
            self.screening.setCurrentText(screening.name)
            self.scope.setCurrentIndex(self._scope_row(screening.scope))
            self._show_query(screening.query)
            self.confine.setChecked(screening.confine)
            self.order.setCurrentIndex(max(0, self.order.findData(screening.order)))
            self.shortlist.setCurrentText(screening.shortlist or "")
        finally:
            for widget in (*widgets, self.shortlist):
                widget.blockSignals(False)

    def _show_query(self, text: str) -> None:
        # setText leaves the cursor at the end, scrolling a long query's start away.
        self.query.setText(text)
        self.query.setCursorPosition(0)

    def _scope_row(self, scope: Scope) -> int:
        if scope == UNDECIDED:
            return self.scope.findData(UNDECIDED_ENTRY)
        if scope.kind == Kind.ALL:
            return self.scope.findData(LIBRARY_ENTRY)
        row = self.scope.findData((scope.kind.value, scope.value))
        if row >= 0:
            return row
        self.scope.addItem(
            scope.describe().capitalize(), (STORED_ENTRY, f"{scope.kind}:{scope.value}")
        )
        return self.scope.count() - 1

    def _on_screening(self, _row: int) -> None:
        self.screening_picked.emit(self.screening.currentText().strip())

    def plan(self) -> Plan:
        kind, name = self.scope.currentData() or UNDECIDED_ENTRY
        order = Order(self.order.currentData() or Order.PROMISE)
        shortlist = self.shortlist.currentText().strip() or None
        scope = UNDECIDED
        if kind == HERE_ENTRY[0]:
            scope = self._here[0]
        elif kind == LIBRARY_ENTRY[0]:
            scope = Scope()
        elif kind == STORED_ENTRY:
            stored_kind, _, value = name.partition(":")
            scope = Scope(Kind(stored_kind), value)
        elif kind in (Kind.SHORTLIST.value, Kind.TAG.value):
            scope = Scope(Kind(kind), name)
        text = self.query.text().strip()
        return Plan(
            scope,
            text,
            order,
            shortlist,
            self.screening.currentText().strip() or DEFAULT_NAME,
            self.confine.isChecked() and bool(text),
        )

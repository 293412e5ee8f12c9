"""The triage view's header: what to triage, in which order, keeping to which shortlist."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QWidget,
)

from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.triage_session import ORDER_LABELS, Order, Plan
from paperdesk.services import triage


class TriageHeader(QFrame):
    """What to triage, in which order, keeping to which shortlist; `plan_changed` fires
    when the user picks another."""

    plan_changed = Signal()
    leave_requested = Signal()
    help_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageHeader")
        self.scope = QComboBox()
        self.scope.setAccessibleName("What to triage")
        self.scope.setMinimumContentsLength(18)
        self.query = QLineEdit()
        self.query.setAccessibleName("Triage search")
        self.query.setPlaceholderText("Search to triage, e.g. bandit regret")
        self.query.setClearButtonEnabled(True)
        self.order = QComboBox()
        self.order.setAccessibleName("Order")
        for order, label in ORDER_LABELS.items():
            self.order.addItem(label, order.value)
        self.shortlist = QComboBox()
        self.shortlist.setEditable(True)
        self.shortlist.setAccessibleName("Keep to shortlist")
        self.shortlist.setMinimumContentsLength(12)
        self.shortlist.setToolTip("S adds the paper to this shortlist (a new name creates it)")
        keys = QPushButton("Keys (?)")
        keys.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        keys.clicked.connect(self.help_requested)
        done = QPushButton("Leave triage (Esc)")
        done.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        done.clicked.connect(self.leave_requested)
        row = QHBoxLayout(self)
        row.setContentsMargins(10, 6, 10, 6)
        title = QLabel("Triage")
        title.setObjectName("triageTitle")
        row.addWidget(title)
        row.addSpacing(8)
        row.addWidget(self.scope)
        row.addWidget(self.query, 1)
        row.addWidget(QLabel("Order"))
        row.addWidget(self.order)
        row.addWidget(QLabel("Keep to"))
        row.addWidget(self.shortlist)
        row.addStretch(0)
        row.addWidget(keys)
        row.addWidget(done)
        self.scope.activated.connect(self._on_scope)
        self.order.activated.connect(lambda _row: self.plan_changed.emit())
        self.shortlist.activated.connect(lambda _row: self.plan_changed.emit())
        self.shortlist.lineEdit().editingFinished.connect(self.plan_changed)
        self.query.returnPressed.connect(self.plan_changed)

    def fill(
        self, here: Scope, here_text: str, shortlists: Sequence[str], tags: Sequence[str]
    ) -> None:
        """The choices: not yet decided, the main window's view, a search, lists, tags."""
        self.scope.clear()
        self.scope.addItem("Not yet decided", ("undecided", ""))
        if here != triage.UNDECIDED or here_text:
            what = here.describe() if here.kind != Kind.ALL else "All papers"
            label = f"This view: {what}" + (f", “{here_text}”" if here_text else "")
            self.scope.addItem(label, ("here", ""))
        self.scope.addItem("Search…", ("search", ""))
        for name in shortlists:
            self.scope.addItem(f"Shortlist: {name}", ("shortlist", name))
        for name in tags:
            self.scope.addItem(f"Tag: {name}", ("tag", name))
        self._here = (here, here_text)
        current = self.shortlist.currentText()
        self.blockSignals(True)  # the mode starts the triage once the choices are in
        self.shortlist.clear()
        self.shortlist.addItems(list(shortlists))
        self.shortlist.setCurrentText(current or (shortlists[0] if shortlists else "Kept"))
        self._on_scope()
        self.blockSignals(False)

    def _on_scope(self, _row: int = 0) -> None:
        kind, _ = self.scope.currentData() or ("undecided", "")
        self.query.setVisible(kind == "search")
        if kind == "search":
            self.query.setFocus(Qt.FocusReason.OtherFocusReason)
        else:
            self.plan_changed.emit()

    def plan(self) -> Plan:
        kind, name = self.scope.currentData() or ("undecided", "")
        order = Order(self.order.currentData() or Order.PROMISE)
        shortlist = self.shortlist.currentText().strip() or None
        scope, text, only_undecided = triage.UNDECIDED, "", True
        if kind == "here":
            scope, text = self._here
        elif kind == "search":
            scope, text = Scope(), self.query.text().strip()
        elif kind == "shortlist":
            scope, only_undecided = Scope.of_shortlist(name), False
        elif kind == "tag":
            scope = Scope(Kind.TAG, name)
        return Plan(scope, text, order, shortlist, only_undecided)

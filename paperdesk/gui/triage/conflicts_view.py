"""The conflicts view of a team screening (issue 22): what the members decided
differently, each member's decision, exclusion reason and note side by side, and the
buttons that resolve a conflict (a decision of its own), settle the papers everyone
agreed on, or finish one's own blind screening.

`ConflictsView` only shows and asks; `ConflictsWindow` reads the screening used last
on the reader thread and carries out what the view asks as one user action each
(services/use_cases/double_screening.py).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.double_screening import Conflict, PairFigures
from paperdesk.core.screening import Screening
from paperdesk.core.triage import LABELS, Decision
from paperdesk.gui.operations import Operations
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import double_screening, screenings

#: Where a conflict's paper id is kept on its row.
PAPER_ROLE = Qt.ItemDataRole.UserRole


@dataclass(frozen=True)
class ConflictsState:
    """What the view shows of one screening: None `conflicts` while it is hidden."""

    screening: Screening
    figures: PairFigures | None
    conflicts: list[Conflict] | None


class ConflictsView(QDialog):
    """The conflicts of one screening; asks to resolve, settle or finish."""

    resolve_requested = Signal(int, str, str)  # paper, decision, reason ("" for none)
    settle_requested = Signal()
    finish_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflictsView")
        self.setWindowTitle("Screening conflicts")
        self.resize(900, 560)
        self.figures = QLabel()
        self.figures.setTextFormat(Qt.TextFormat.RichText)
        self.figures.setWordWrap(True)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(["Paper / member", "Decision", "Reason", "Note"])
        self.tree.setColumnWidth(0, 340)
        self.tree.setColumnWidth(1, 90)
        self.tree.setColumnWidth(2, 130)
        self.tree.setWordWrap(True)
        self.tree.itemSelectionChanged.connect(self._follow_selection)
        self.reason = QComboBox()
        self.reason.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.reason.setToolTip("The exclusion reason a discard records")
        self.decision_buttons: dict[Decision, QPushButton] = {}
        resolve_row = QHBoxLayout()
        resolve_row.addWidget(QLabel("Resolve the selected paper:"))
        for decision in Decision:
            button = QPushButton(LABELS[decision])
            button.clicked.connect(partial(self._resolve, decision))
            self.decision_buttons[decision] = button
            resolve_row.addWidget(button)
        resolve_row.addWidget(self.reason)
        resolve_row.addStretch(1)
        self.settle_button = QPushButton("Settle the papers all agreed on")
        self.settle_button.clicked.connect(self.settle_requested)
        self.finish_button = QPushButton("Finish my screening")
        self.finish_button.setToolTip(
            "Your decisions become final and you see the other members' (blind screening)"
        )
        self.finish_button.clicked.connect(self.finish_requested)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        buttons.addButton(self.finish_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.settle_button, QDialogButtonBox.ButtonRole.ActionRole)
        column = QVBoxLayout(self)
        column.addWidget(self.figures)
        column.addWidget(self.tree, 1)
        column.addLayout(resolve_row)
        column.addWidget(buttons)
        self.show_state(None)

    def show_state(self, state: ConflictsState | None) -> None:
        """Show a screening's conflicts (None: there is no team screening to show)."""
        self.tree.clear()
        hidden = state is None or state.conflicts is None
        self.finish_button.setVisible(state is not None and state.conflicts is None)
        self.settle_button.setEnabled(not hidden)
        if state is None:
            self.figures.setText("No screening of a team library yet.")
            self._follow_selection()
            return
        self.setWindowTitle(f"Conflicts of {state.screening.name}")
        lines = [f"<b>{html.escape(state.screening.name)}</b>"]
        lines += (
            [html.escape(line, quote=False) for line in state.figures.lines()]
            if state.figures
            else []
        )
        if state.conflicts == []:
            lines.append("No conflicts to resolve.")
        self.figures.setText("<br>".join(lines))
        self.reason.clear()
        self.reason.addItems(["(no reason)", *state.screening.reasons])
        for conflict in state.conflicts or ():
            paper = QTreeWidgetItem([f"{conflict.paper_id}  {conflict.title}"])
            paper.setData(0, PAPER_ROLE, conflict.paper_id)
            for vote in conflict.votes:
                row = QTreeWidgetItem(
                    [vote.member, LABELS[vote.decision], vote.reason or "", vote.note]
                )
                row.setToolTip(3, vote.note)
                row.setData(0, PAPER_ROLE, conflict.paper_id)
                paper.addChild(row)
            self.tree.addTopLevelItem(paper)
            paper.setFirstColumnSpanned(True)  # the whole title, across the columns
            paper.setExpanded(True)
        first = self.tree.topLevelItem(0)
        if first is not None:
            self.tree.setCurrentItem(first)
        self._follow_selection()

    def selected_paper(self) -> int | None:
        item = self.tree.currentItem()
        return None if item is None else int(item.data(0, PAPER_ROLE))

    def _follow_selection(self) -> None:
        chosen = self.selected_paper() is not None
        for button in self.decision_buttons.values():
            button.setEnabled(chosen)
        self.reason.setEnabled(chosen and self.reason.count() > 1)

    def _resolve(self, decision: Decision) -> None:
        paper = self.selected_paper()
        if paper is None:
            return
        reason = self.reason.currentText() if self.reason.currentIndex() > 0 else ""
        self.resolve_requested.emit(paper, decision.value, reason)


class ConflictsWindow:
    """The conflicts view of the screening used last, kept current as the library
    changes; what it asks is done as user actions (undoable, in the history)."""

    def __init__(self, parent: QWidget, operations: Operations) -> None:
        self.operations = operations
        self.view = ConflictsView(parent)
        self.view.resolve_requested.connect(self._resolve)
        self.view.settle_requested.connect(self._settle)
        self.view.finish_requested.connect(self._finish)
        self._screening: Screening | None = None

    def show(self) -> None:
        self.view.show()
        self.view.raise_()
        self.refresh()

    def refresh(self) -> None:
        if self.view.isVisible():
            self.operations.read(
                "Screening conflicts",
                read_state,
                self._shown,
                partial(self.operations.errors.report, "Screening conflicts"),
                key="conflicts",
            )

    def _shown(self, state: ConflictsState | None) -> None:
        self._screening = state.screening if state is not None else None
        self.view.show_state(state)

    def _resolve(self, paper_id: int, decision: str, reason: str) -> None:
        screening = self._screening
        if screening is not None:
            self.operations.perform(
                "Resolve a conflict",
                lambda desk: double_screening.resolve(
                    desk, screening, paper_id, Decision(decision), reason or None
                ),
            )

    def _settle(self) -> None:
        screening = self._screening
        if screening is not None:
            self.operations.perform(
                "Settle agreed papers",
                lambda desk: double_screening.settle_agreed(desk, screening),
            )

    def _finish(self) -> None:
        screening = self._screening
        if screening is not None:
            # Finishing changes no paper: the window's refresh on changes skips it.
            self.operations.perform(
                "Finish screening",
                lambda desk: double_screening.finish(desk, screening),
                before_apply=self.refresh,
            )


def read_state(desk: Desk) -> ConflictsState | None:
    """The screening used last, its members' figures and (unless hidden) its conflicts;
    None when the library has no members to disagree (a personal library)."""
    screening = screenings.last_used(desk)
    if screening is None:
        return None
    figures = double_screening.figures(desk, screening)
    if figures is None:
        return None
    conflicts = None if figures.hidden else double_screening.conflicts(desk, screening)
    return ConflictsState(screening, figures, conflicts)

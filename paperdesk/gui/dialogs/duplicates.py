"""Edit > Find Duplicates: the likely duplicates `paperdesk duplicates` lists, in a window.

An import keeps apart papers that share a title when something contradicts it (years,
authors, venues, kinds of entry: core/evidence.py) and offers them here as a pair to
decide on (issue 9): Merge folds each group into the paper the rule keeps (one undo
step), Keep Apart remembers that they are different papers, so they are not offered
again. The groups are found on the reader thread; each decision is one user action on
the writer, after which the list is read again.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.models import Paper
from paperdesk.gui.actions import duplicates as duplicate_actions
from paperdesk.gui.operations import Operations
from paperdesk.gui.window.paper_table_model import display_title
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import duplicates, reading

Found = tuple[list[duplicates.DuplicateCluster], dict[int, Paper]]


def find(desk: Desk) -> Found:
    """The groups of likely duplicates and their papers, in one read."""
    clusters = duplicates.find_clusters(desk)
    papers = reading.papers(desk, [i for cluster in clusters for i in cluster.paper_ids])
    return clusters, {paper.id: paper for paper in papers}


class DuplicatesDialog(QDialog):
    """The groups, each with why it is offered; Merge or Keep Apart the chosen one."""

    def __init__(self, operations: Operations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.operations = operations
        self.setWindowTitle("Find Duplicates")
        self.resize(760, 460)
        self.summary = QLabel("Looking for duplicates…")
        self.summary.setWordWrap(True)
        self.groups = QTreeWidget()
        self.groups.setHeaderLabels(["Paper", "Venue", "Year", "Id"])
        self.groups.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.groups.setUniformRowHeights(True)
        self.groups.header().resizeSection(0, 480)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.merge_button = QPushButton("&Merge")
        self.merge_button.setToolTip("Keep the first paper; the others' data moves into it")
        self.apart_button = QPushButton("&Keep Apart")
        self.apart_button.setToolTip("These are different papers: never offer them again")
        for button in (self.merge_button, self.apart_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
            button.setEnabled(False)
        buttons.rejected.connect(self.reject)
        self.merge_button.clicked.connect(lambda: self._decide(duplicate_actions.merge))
        self.apart_button.clicked.connect(lambda: self._decide(duplicate_actions.keep_apart))
        self.groups.itemSelectionChanged.connect(self._enable_buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.groups, 1)
        layout.addWidget(buttons)

    def refresh(self) -> None:
        self.operations.read(
            "Finding duplicates",
            find,
            on_done=self.show_groups,
            on_error=lambda error: self.operations.errors.report("Finding duplicates", error),
            key="duplicates",
        )

    def show_groups(self, found: Found) -> None:
        clusters, papers = found
        self.groups.clear()
        for cluster in clusters:
            reasons = "; ".join(cluster.reasons)
            group = QTreeWidgetItem([f"{cluster.confidence:.0%} alike: {reasons}"])
            group.setData(0, Qt.ItemDataRole.UserRole, cluster.paper_ids)
            group.setFirstColumnSpanned(True)
            for paper_id in cluster.paper_ids:
                paper = papers[paper_id]
                row = [
                    display_title(paper.title),
                    paper.venue or "",
                    str(paper.year or ""),
                    str(paper_id),
                ]
                group.addChild(QTreeWidgetItem(row))
            self.groups.addTopLevelItem(group)
            group.setFirstColumnSpanned(True)
        self.groups.expandAll()
        if clusters:
            self.summary.setText(
                f"{len(clusters)} group{'s' if len(clusters) != 1 else ''} of papers that may "
                "be one. Merge keeps the first paper of a group (undo brings the others "
                "back); Keep Apart says they are different papers."
            )
            if (first := self.groups.topLevelItem(0)) is not None:
                self.groups.setCurrentItem(first)
        else:
            self.summary.setText("No likely duplicates in this library.")
        self._enable_buttons()

    def chosen_ids(self) -> tuple[int, ...]:
        """The group of the selected row (a paper's row stands for its group)."""
        item = self.groups.currentItem()
        if item is None:
            return ()
        group = item.parent() or item
        return tuple(group.data(0, Qt.ItemDataRole.UserRole) or ())

    def _enable_buttons(self) -> None:
        chosen = bool(self.chosen_ids())
        self.merge_button.setEnabled(chosen)
        self.apart_button.setEnabled(chosen)

    def _decide(self, action: Callable[..., None]) -> None:
        ids = self.chosen_ids()
        if not ids:
            return
        self.merge_button.setEnabled(False)
        self.apart_button.setEnabled(False)
        # Read again once the decision is committed (`done` runs after it).
        action(self.operations, ids, done=self.refresh)

"""The table view over `PaperTableModel`: multi-select, drag papers out, reorder shortlists."""

from __future__ import annotations

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QPoint, QRect, Qt
from PySide6.QtGui import QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyle,
    QStyleOptionHeader,
    QTableView,
    QWidget,
)

from paperdesk.gui.paper_table_model import COLUMN_TITLES, Column, PaperTableModel

# The title takes whatever width is left; these are the other columns' first widths.
DEFAULT_WIDTHS = {
    Column.RATING: 64,
    Column.STATUS: 90,
    Column.AUTHOR: 130,
    Column.VENUE: 64,
    Column.YEAR: 46,
    Column.TAGS: 110,
    Column.ADDED: 84,
}
HIDDEN_AT_FIRST = (Column.ADDED,)


def row_runs(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted rows as (first, last) runs: [1, 2, 3, 7] -> [(1, 3), (7, 7)]."""
    runs: list[tuple[int, int]] = []
    for row in rows:
        if runs and row == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], row)
        else:
            runs.append((row, row))
    return runs


class PaperHeader(QHeaderView):
    """The column header, drawn without asking whether a whole column is selected.

    Qt's own section painting asks the selection model `isColumnSelected`, which checks
    every row's flags: with 100,000 rows selected (Ctrl+A) one header repaint made
    800,000 calls into Python and took 20 s. Columns are never selected here (rows
    are), so the answer is always no and need not be computed.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)

    def paintSection(self, painter: QPainter, rect: QRect, logical_index: int) -> None:
        if not rect.isValid():
            return
        option = QStyleOptionHeader()
        self.initStyleOption(option)
        option.rect = rect
        option.section = logical_index
        option.text = str(self.model().headerData(logical_index, self.orientation()) or "")
        option.textAlignment = self.defaultAlignment()
        option.iconAlignment = Qt.AlignmentFlag.AlignVCenter
        if self.isSortIndicatorShown() and self.sortIndicatorSection() == logical_index:
            # Qt draws "ascending" as a down arrow by default style convention.
            option.sortIndicator = (
                QStyleOptionHeader.SortIndicator.SortDown
                if self.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
                else QStyleOptionHeader.SortIndicator.SortUp
            )
        option.position = self._position(logical_index)
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)

    def _position(self, logical_index: int) -> QStyleOptionHeader.SectionPosition:
        visible = [v for v in range(self.count()) if not self.isSectionHidden(self.logicalIndex(v))]
        visual = self.visualIndex(logical_index)
        positions = QStyleOptionHeader.SectionPosition
        if len(visible) == 1:
            return positions.OnlyOneSection
        if visual == visible[0]:
            return positions.Beginning
        if visual == visible[-1]:
            return positions.End
        return positions.Middle


class PaperTable(QTableView):
    def __init__(self, model: PaperTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paperTable")
        self.setAccessibleName("Papers")
        self.setModel(model)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setAlternatingRowColors(True)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setTabKeyNavigation(False)
        self.setHorizontalHeader(PaperHeader(self))
        vertical = self.verticalHeader()
        vertical.hide()
        # Fixed row heights: the view never measures rows, so 100,000 of them cost nothing.
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        header.setSectionsMovable(True)
        header.setHighlightSections(False)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        for column, width in DEFAULT_WIDTHS.items():
            header.resizeSection(column, width)
        header.setSectionResizeMode(Column.TITLE, QHeaderView.ResizeMode.Stretch)
        for column in HIDDEN_AT_FIRST:
            header.hideSection(column)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._show_column_menu)
        self.setSortingEnabled(True)
        self.setDragEnabled(True)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.set_reorderable(False)
        self.placeholder = ""

    def column_menu(self) -> QMenu:
        """Tick the columns to show (right-click on the header)."""
        menu = QMenu(self)
        header = self.horizontalHeader()
        for column in Column:
            if column == Column.TITLE:
                continue
            action = menu.addAction(COLUMN_TITLES[column])
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            action.toggled.connect(lambda shown, c=column: header.setSectionHidden(c, not shown))
        return menu

    def _show_column_menu(self, position: QPoint) -> None:
        self.column_menu().exec(self.horizontalHeader().mapToGlobal(position))

    def paper_model(self) -> PaperTableModel:
        model = self.model()
        assert isinstance(model, PaperTableModel)
        return model

    def set_reorderable(self, reorderable: bool) -> None:
        """A shortlist in its own order: rows can be dragged into a new order."""
        self.paper_model().set_reorderable(reorderable)
        self.setAcceptDrops(reorderable)
        self.setDropIndicatorShown(reorderable)
        self.setDragDropMode(
            QAbstractItemView.DragDropMode.DragDrop
            if reorderable
            else QAbstractItemView.DragDropMode.DragOnly
        )

    def selected_ids(self) -> list[int]:
        """Ids of the selected rows, in table order (cheap even for 100,000 rows)."""
        model = self.paper_model()
        ids = model.ids()
        rows: set[int] = set()
        selection = self.selectionModel().selection()
        for number in range(selection.count()):
            selected = selection.at(number)
            rows.update(range(selected.top(), selected.bottom() + 1))
        return [ids[row] for row in sorted(rows)]

    def current_id(self) -> int | None:
        index = self.currentIndex()
        if not index.isValid():
            return None
        return self.paper_model().id_at(index.row())

    def select_ids(self, ids: list[int], current: int | None = None) -> None:
        """Select these papers (those still in the table), keeping `current` current."""
        model = self.paper_model()
        selection = QItemSelection()
        last = model.columnCount() - 1
        rows = sorted(r for r in (model.row_of(paper_id) for paper_id in ids) if r is not None)
        for first, final in row_runs(rows):
            selection.select(model.index(first, 0), model.index(final, last))
        selection_model = self.selectionModel()
        current_row = model.row_of(current) if current is not None else None
        if current_row is not None:
            column = max(self.currentIndex().column(), 0)
            selection_model.setCurrentIndex(
                model.index(current_row, column), QItemSelectionModel.SelectionFlag.NoUpdate
            )
        selection_model.select(
            selection,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        if current_row is not None:
            self.scrollTo(model.index(current_row, 0))

    def paintEvent(self, event) -> None:
        super().paintEvent(event)
        if self.model().rowCount() == 0 and self.placeholder:
            painter = QPainter(self.viewport())
            painter.setPen(self.palette().color(QPalette.ColorRole.PlaceholderText))
            painter.drawText(
                self.viewport().rect().adjusted(24, 24, -24, -24),
                Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                self.placeholder,
            )

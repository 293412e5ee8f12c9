"""The table view over `PaperTableModel`: multi-select, drag papers out, reorder shortlists.

A click on a column's heading sorts by it (again: the other way), with the arrow Qt
styles draw; right-click on the headings shows, hides and moves columns (Zotero's
column picker). Enter or a double-click opens a paper (`open_requested`).
"""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    QPoint,
    QRect,
    Qt,
    Signal,
)
from PySide6.QtGui import QIcon, QKeyEvent, QPainter, QPalette, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionHeader,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from paperdesk.gui.window.column_widths import first_widths, fitted_widths
from paperdesk.gui.window.paper_table_model import COLUMN_TITLES, Column, PaperTableModel

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
        model = self.model()
        option.text = str(model.headerData(logical_index, self.orientation()) or "")
        option.textAlignment = self.defaultAlignment()
        option.iconAlignment = Qt.AlignmentFlag.AlignCenter
        section_icon = model.headerData(
            logical_index, self.orientation(), Qt.ItemDataRole.DecorationRole
        )
        if isinstance(section_icon, QIcon) and self._too_narrow(option.text, rect):
            # A narrow column (the status icons) shows its icon, not a clipped word.
            option.icon, option.text = section_icon, ""
        if self.isSortIndicatorShown() and self.sortIndicatorSection() == logical_index:
            # Qt draws "ascending" as a down arrow by default style convention.
            option.sortIndicator = (
                QStyleOptionHeader.SortIndicator.SortDown
                if self.sortIndicatorOrder() == Qt.SortOrder.AscendingOrder
                else QStyleOptionHeader.SortIndicator.SortUp
            )
        option.position = self._position(logical_index)
        self.style().drawControl(QStyle.ControlElement.CE_Header, option, painter, self)

    def _too_narrow(self, text: str, rect: QRect) -> bool:
        return self.fontMetrics().horizontalAdvance(text) + 24 > rect.width()

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


class IconOnlyDelegate(QStyledItemDelegate):
    """Paints a cell's icon, centred, without its text: the status column, whose text
    stays in the model for tooltips, copying and screen readers."""

    def initStyleOption(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        option.text = ""
        option.features &= ~QStyleOptionViewItem.ViewItemFeature.HasDisplay
        option.decorationAlignment = Qt.AlignmentFlag.AlignCenter
        option.decorationPosition = QStyleOptionViewItem.Position.Top


class PaperTable(QTableView):
    """`open_requested` fires on Enter or a double-click on a paper; `columns_changed`
    when the user shows, hides, moves or resizes a column (the window remembers them)."""

    open_requested = Signal()
    columns_changed = Signal()

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
        self.setItemDelegateForColumn(Column.STATUS, IconOnlyDelegate(self))
        vertical = self.verticalHeader()
        vertical.hide()
        # Fixed row heights: the view never measures rows, so 100,000 of them cost nothing.
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(self.fontMetrics().height() + 8)
        header = self.horizontalHeader()
        # A header set by hand is not clickable unless told: QTableView only makes its
        # own default header clickable, and an unclickable header never sorts.
        header.setSectionsClickable(True)
        header.setSectionsMovable(True)
        header.setHighlightSections(False)
        header.setSortIndicatorShown(True)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        header.setMinimumSectionSize(24)
        self._fitting = False
        self._wanted: dict[Column, int] = {}
        self.reset_columns()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._show_column_menu)
        header.sectionMoved.connect(lambda *_args: self.columns_changed.emit())
        header.sectionResized.connect(self._on_section_resized)
        self.setSortingEnabled(True)
        self.setDragEnabled(True)
        self.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.set_reorderable(False)
        self.doubleClicked.connect(lambda _index: self.open_requested.emit())
        self.placeholder = ""

    def reset_columns(self) -> None:
        """The columns as they first come: every column in its place and width."""
        header = self.horizontalHeader()
        header.blockSignals(True)
        try:
            for column in Column:
                header.moveSection(header.visualIndex(column), column)
                header.setSectionHidden(column, column in HIDDEN_AT_FIRST)
            header.setSectionResizeMode(Column.TITLE, QHeaderView.ResizeMode.Stretch)
        finally:
            header.blockSignals(False)
        self._wanted = first_widths(self)
        self.fit_columns()
        header.viewport().update()
        self.columns_changed.emit()

    def column_menu(self, column: int | None = None) -> QMenu:
        """Tick the columns to show; move the clicked `column` left or right."""
        menu = QMenu(self)
        header = self.horizontalHeader()
        for each in sorted(Column, key=header.visualIndex):
            if each == Column.TITLE:
                continue
            action = menu.addAction(COLUMN_TITLES[each])
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(each))
            action.toggled.connect(lambda shown, c=each: self.show_column(c, shown))
        menu.addSeparator()
        if column is not None and 0 <= column < len(Column):
            title = COLUMN_TITLES[Column(column)]
            left = menu.addAction(f"Move “{title}” Left", lambda: self.move_column(column, -1))
            right = menu.addAction(f"Move “{title}” Right", lambda: self.move_column(column, 1))
            left.setEnabled(self._neighbour(column, -1) is not None)
            right.setEnabled(self._neighbour(column, 1) is not None)
        menu.addAction("Reset Columns", self.reset_columns)
        return menu

    def show_column(self, column: int, shown: bool) -> None:
        self.horizontalHeader().setSectionHidden(column, not shown)
        self.columns_changed.emit()

    def move_column(self, column: int, step: int) -> None:
        """Swap a column with its visible neighbour to the left (-1) or right (+1)."""
        neighbour = self._neighbour(column, step)
        if neighbour is not None:
            self.horizontalHeader().moveSection(
                self.horizontalHeader().visualIndex(column), neighbour
            )

    def _neighbour(self, column: int, step: int) -> int | None:
        """The visual position of the next shown column in that direction, if any."""
        header = self.horizontalHeader()
        position = header.visualIndex(column) + step
        while 0 <= position < header.count():
            if not header.isSectionHidden(header.logicalIndex(position)):
                return position
            position += step
        return None

    def visible_columns(self) -> list[Column]:
        """The shown columns, left to right."""
        header = self.horizontalHeader()
        shown = [c for c in Column if not header.isSectionHidden(c)]
        return sorted(shown, key=header.visualIndex)

    def fit_columns(self) -> None:
        """The widths wanted (first widths, or as the user dragged them) fitted to this
        font and this width (column_widths.py): called as either changes."""
        self._resize_columns(fitted_widths(self, self._wanted))

    def adopt_restored_widths(self) -> None:
        """The widths just restored from the settings are the ones wanted from now on."""
        header = self.horizontalHeader()
        for column in self._wanted:
            if not header.isSectionHidden(column):
                self._wanted[column] = header.sectionSize(column)
        self.fit_columns()

    def _resize_columns(self, widths: dict[Column, int]) -> None:
        self._fitting = True
        try:
            header = self.horizontalHeader()
            for column, width in widths.items():
                if header.sectionSize(column) != width:
                    header.resizeSection(column, width)
        finally:
            self._fitting = False

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_columns()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 8)
            self.fit_columns()

    def _on_section_resized(self, column: int, _old: int, new: int) -> None:
        # The stretched title follows the window, the others the font and the window
        # (fit_columns); only a user's drag is worth keeping. A column hidden is
        # "resized" to 0, which is no width wanted.
        if column != Column.TITLE and not self._fitting:
            if new > 0:
                self._wanted[Column(column)] = new
            self.columns_changed.emit()

    def _show_column_menu(self, position: QPoint) -> None:
        header = self.horizontalHeader()
        self.column_menu(header.logicalIndexAt(position)).exec(header.mapToGlobal(position))

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.open_requested.emit()
            return
        super().keyPressEvent(event)

    def moveCursor(
        self, cursor_action: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier
    ) -> QModelIndex:
        # Rows are papers: Home and End go to the first and last paper, as in a file
        # manager, not to the first and last column of the current row.
        action = QAbstractItemView.CursorAction
        rows = self.model().rowCount()
        if cursor_action in (action.MoveHome, action.MoveEnd) and rows:
            column = max(self.currentIndex().column(), 0)
            row = 0 if cursor_action == action.MoveHome else rows - 1
            return self.model().index(row, column)
        return super().moveCursor(cursor_action, modifiers)

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
        """Ids of the selected rows, in table order: slices of the model's ids, one per
        run of selected rows (a set of every row number, sorted, cost 15-20 ms of the
        GUI thread per call with 100,000 rows selected, and a bulk edit asks 5 times)."""
        model = self.paper_model()
        selection = self.selectionModel().selection()
        spans = sorted(
            (selection.at(number).top(), selection.at(number).bottom())
            for number in range(selection.count())
        )
        ids: list[int] = []
        end = -1  # the last row taken so far
        for top, bottom in spans:
            if bottom > end:
                ids.extend(model.ids_in_rows(max(top, end + 1), bottom))
                end = bottom
        return ids

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

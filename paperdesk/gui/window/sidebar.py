"""The sidebar: All papers, by status, shortlists, the tag tree, saved searches, imports.

Picking an entry sets the table's scope (`scope_changed`). Papers dragged from the
table onto a shortlist or a tag are added to it (`papers_dropped`). Right-click menus
and the section's own commands are reported through `command`, which the window
answers (asking for names and colours through its Asker).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QModelIndex, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QColor, QIcon, QPainter, QPixmap, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QMenu,
    QStyleOptionViewItem,
    QTreeView,
    QWidget,
)

from paperdesk.core.models import (
    ImportBatch,
    Overview,
    SavedSearch,
    ShortlistInfo,
    Status,
    TagInfo,
)
from paperdesk.core.scope import Kind, Scope
from paperdesk.gui.resources import icon
from paperdesk.gui.window.paper_table_model import PAPER_IDS_MIME, decode_paper_ids

#: The kind of a section's heading entry (its value is the kind of scope it lists).
SECTION = "section"
#: The kind of a screening's entry (no table scope: choosing one resumes it in triage).
SCREENING = "screening"


STATUS_LABELS = {
    Status.NEW: "New",
    Status.SKIMMED: "Skimmed",
    Status.TO_READ: "To read",
    Status.READ: "Read",
    Status.DISCARDED: "Discarded",
}

KindRole = Qt.ItemDataRole.UserRole + 1
ValueRole = Qt.ItemDataRole.UserRole + 2
SECTION_TITLES = {
    Kind.STATUS: "Status",
    Kind.SHORTLIST: "Shortlists",
    Kind.TAG: "Tags",
    Kind.SAVED: "Saved searches",
    Kind.IMPORT: "Imports",
}


def colour_dot(colour: str, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(colour))
    painter.drawEllipse(1, 1, size - 2, size - 2)
    painter.end()
    return QIcon(pixmap)


def _entry(text: str, kind: str, value: str, item_icon: QIcon | None = None) -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    item.setData(str(kind), KindRole)
    item.setData(value, ValueRole)
    if item_icon is not None:
        item.setIcon(item_icon)
    return item


def _row(item: QStandardItem, count: int | None = None) -> list[QStandardItem]:
    """An entry and its count, in a column of its own so a long name elides, never the count."""
    count_item = QStandardItem("" if count is None else f"{count:,}")
    count_item.setEditable(False)
    count_item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    count_item.setSelectable(item.isSelectable())
    return [item, count_item]


class SidebarView(QTreeView):
    """A tree that takes paper drops on shortlists and tags."""

    papers_dropped = Signal(str, str, list)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DropOnly)

    def _drop_target(self, position: QPoint) -> QModelIndex | None:
        index = self.indexAt(position).siblingAtColumn(0)
        if index.isValid() and index.data(KindRole) in (Kind.SHORTLIST.value, Kind.TAG.value):
            return index if index.data(ValueRole) else None
        return None

    def dragEnterEvent(self, event) -> None:
        if event.mimeData().hasFormat(PAPER_IDS_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:
        target = self._drop_target(event.position().toPoint())
        if target is not None and event.mimeData().hasFormat(PAPER_IDS_MIME):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:
        target = self._drop_target(event.position().toPoint())
        ids = decode_paper_ids(event.mimeData())
        if target is None or not ids:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        self.papers_dropped.emit(target.data(KindRole), target.data(ValueRole), ids)


class Sidebar(SidebarView):
    scope_changed = Signal(object)
    saved_search_chosen = Signal(str)
    screening_chosen = Signal(str)
    command = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sidebar")
        self.setAccessibleName("Library sidebar")
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._show_menu)
        self.model_ = QStandardItemModel(self)
        self.setModel(self.model_)
        # Names take the width and elide; counts keep theirs.
        self.model_.setColumnCount(2)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self._scope = Scope()
        self._refreshing = False
        self._labels_width: int | None = None
        self.selectionModel().currentChanged.connect(self._on_current_changed)

    # --- content ---------------------------------------------------------------------
    def populate(self, data: Overview) -> None:
        """Rebuild the entries, keeping the selected entry and what was expanded."""
        expanded = self._expanded_keys()
        first_time = self.model_.rowCount() == 0
        self._refreshing = True
        try:
            # removeRows, not clear(): clear() also drops the columns and their sizing.
            self.model_.removeRows(0, self.model_.rowCount())
            root = self.model_.invisibleRootItem()
            root.appendRow(_row(_entry("All papers", Kind.ALL, "", icon("library")), data.papers))
            root.appendRow(_row(self._status_section(dict(data.by_status))))
            root.appendRow(_row(self._shortlist_section(data.shortlists)))
            root.appendRow(_row(self._tag_section(data.tags)))
            root.appendRow(_row(self._saved_section(data.saved_searches)))
            root.appendRow(_row(self._import_section(data.imports)))
            root.appendRow(_row(self._screening_section(data.screenings)))
            if first_time:
                for kind in (Kind.STATUS, Kind.SHORTLIST, Kind.TAG, Kind.SAVED):
                    expanded.add((SECTION, kind.value))
                expanded.add((SECTION, SCREENING))
            self._restore_expanded(expanded)
            if first_time:
                tags = self._index_of_entry(SECTION, Kind.TAG)
                if tags is not None:
                    self.expandRecursively(tags)
            index = self.index_of(self._scope)
            if index is None and self._scope.kind == Kind.IDS:
                return  # papers shown by id ("more like this") have no entry to select
            if index is None:
                self._scope = Scope()
                index = self.model_.index(0, 0)
            self.setCurrentIndex(index)
        finally:
            self._refreshing = False
            self._labels_width = None  # the counts' column may have widened
            self.updateGeometry()

    # --- width -----------------------------------------------------------------------
    def minimumSizeHint(self) -> QSize:
        """Wide enough for the app's own labels and their counts in the current font: at
        font size 16 a fixed 140-200 pixels cut them ("Skim…", "Screenin…")."""
        hint = super().minimumSizeHint()
        return QSize(max(hint.width(), self._fixed_labels_width()), hint.height())

    def _fixed_labels_width(self) -> int:
        # Asked at every layout of the splitter (entering and leaving triage too): measured
        # once per content and font.
        if self._labels_width is None:
            self._labels_width = self._measure_fixed_labels()
        return self._labels_width

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.FontChange:
            self._labels_width = None
        super().changeEvent(event)  # which updates the geometry: the splitter asks again

    def fixed_entries(self) -> list[tuple[QModelIndex, int]]:
        """The entries labelled with the app's own words (All papers, the sections, the
        statuses: never cut, whatever the font), each with its depth in the tree; names a
        user gives shortlists, tags and searches elide instead."""
        top = [self.model_.index(row, 0) for row in range(self.model_.rowCount())]
        entries = [(index, 1) for index in top]
        for section in top:
            if section.data(ValueRole) == Kind.STATUS.value:
                rows = range(self.model_.rowCount(section))
                entries += [(self.model_.index(row, 0, section), 2) for row in rows]
        return entries

    def _measure_fixed_labels(self) -> int:
        option = QStyleOptionViewItem()
        self.initViewItemOption(option)
        delegate = self.itemDelegate()
        labels = max(
            (
                delegate.sizeHint(option, index).width() + depth * self.indentation()
                for index, depth in self.fixed_entries()
            ),
            default=0,
        )
        if not labels:
            return 0
        # The counts' column, the frame, and a vertical scroll bar a large font brings.
        scroll_bar = self.verticalScrollBar().sizeHint().width()
        return labels + self.sizeHintForColumn(1) + 2 * self.frameWidth() + scroll_bar

    def _section(self, kind: Kind) -> QStandardItem:
        item = _entry(SECTION_TITLES[kind], SECTION, kind.value)
        item.setSelectable(False)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        return item

    def _status_section(self, counts: dict[str, int]) -> QStandardItem:
        section = self._section(Kind.STATUS)
        for status, label in STATUS_LABELS.items():
            count = counts.get(status.value, 0)
            item = _entry(label, Kind.STATUS, status.value, icon(f"status-{status.value}"))
            section.appendRow(_row(item, count))
        return section

    def _shortlist_section(self, shortlists: Sequence[ShortlistInfo]) -> QStandardItem:
        section = self._section(Kind.SHORTLIST)
        for info in sorted(shortlists, key=lambda s: s.name.casefold()):
            item = _entry(info.name, Kind.SHORTLIST, info.name, icon("shortlist"))
            item.setToolTip(f"Shortlist {info.name} ({info.count:,}): drop papers here to add them")
            section.appendRow(_row(item, info.count))
        return section

    def _tag_section(self, tags: Sequence[TagInfo]) -> QStandardItem:
        section = self._section(Kind.TAG)
        nodes: dict[str, list[QStandardItem]] = {}
        keys = coloured_tag_keys(tags)
        for info in sorted(tags, key=lambda t: t.name.casefold()):
            parent = section
            parts = info.name.split("/")
            for depth in range(1, len(parts) + 1):
                # `a/b` lives under `a`, even when no paper carries plain `a`.
                prefix = "/".join(parts[:depth])
                node = nodes.get(prefix.casefold())
                if node is None:
                    node = _row(_entry(parts[depth - 1], Kind.TAG, prefix, icon("tag")))
                    nodes[prefix.casefold()] = node
                    parent.appendRow(node)
                parent = node[0]
            item, count_item = nodes[info.name.casefold()]
            count_item.setText(f"{info.count:,}")
            item.setIcon(colour_dot(info.colour) if info.colour else icon("tag"))
            key = keys.get(info.name)
            hint = f"; key {key} toggles it on the selected papers" if key else ""
            item.setToolTip(f"Tag {info.name}{hint}")
        return section

    def _saved_section(self, searches: Sequence[SavedSearch]) -> QStandardItem:
        section = self._section(Kind.SAVED)
        for search in sorted(searches, key=lambda s: s.name.casefold()):
            item = _entry(search.name, Kind.SAVED, search.name, icon("saved-search"))
            item.setToolTip(search.query)
            section.appendRow(_row(item))
        return section

    def _import_section(self, batches: Sequence[ImportBatch]) -> QStandardItem:
        section = self._section(Kind.IMPORT)
        for batch in sorted(batches, key=lambda b: b.imported_at, reverse=True):
            label = batch.label or batch.file_name
            item = _entry(label, Kind.IMPORT, str(batch.id), icon("batch"))
            item.setToolTip(
                f"{batch.file_name} ({batch.format}), {batch.imported_at:%Y-%m-%d %H:%M}: "
                f"{batch.added} added, {batch.merged} merged, {batch.unchanged} already "
                f"present, {batch.skipped} skipped"
            )
            section.appendRow(_row(item, batch.added))
        return section

    def _screening_section(self, progress: Sequence[tuple[str, int]]) -> QStandardItem:
        section = _entry("Screenings", SECTION, SCREENING)
        section.setSelectable(False)
        font = section.font()
        font.setBold(True)
        section.setFont(font)
        for name, decided in progress:
            item = _entry(name, SCREENING, name, icon("status-to-read"))
            item.setToolTip(f"Screening {name}: {decided:,} decided; open it to resume")
            section.appendRow(_row(item, decided))
        return section

    # --- selection -------------------------------------------------------------------
    def scope(self) -> Scope:
        return self._scope

    def index_of(self, scope: Scope) -> QModelIndex | None:
        return self._index_of_entry(scope.kind, scope.value)

    def _index_of_entry(self, kind: str, value: str) -> QModelIndex | None:
        for index in self._all_indexes():
            if index.data(KindRole) == kind and (index.data(ValueRole) or "").casefold() == (
                value.casefold()
            ):
                return index
        return None

    def select_scope(self, scope: Scope) -> None:
        index = self.index_of(scope)
        if index is not None:
            self.setCurrentIndex(index)

    def show_papers(self, scope: Scope) -> None:
        """Show papers no entry lists (chosen ids): no entry is selected meanwhile."""
        self._scope = scope
        self._refreshing = True
        try:
            self.setCurrentIndex(QModelIndex())
        finally:
            self._refreshing = False
        self.scope_changed.emit(scope)

    def follow_rename(self, kind: Kind, old: str, new: str) -> None:
        """Keep showing a shortlist or tag (or a sub-tag of it) after it is renamed."""
        if self._scope.kind != kind:
            return
        value = self._scope.value
        if value.casefold() == old.casefold():
            self._scope = Scope(kind, new)
        elif kind == Kind.TAG and value.casefold().startswith(old.casefold() + "/"):
            self._scope = Scope(kind, new + value[len(old) :])

    def _on_current_changed(self, current: QModelIndex) -> None:
        current = current.siblingAtColumn(0)
        if self._refreshing or not current.isValid():
            return
        kind = current.data(KindRole)
        value = current.data(ValueRole) or ""
        if kind == SECTION:
            return
        if kind == Kind.SAVED:
            self.saved_search_chosen.emit(value)
            return
        if kind == SCREENING:
            self.screening_chosen.emit(value)
            return
        self._scope = Scope(Kind(kind), value)
        self.scope_changed.emit(self._scope)

    def _all_indexes(self, parent: QModelIndex | None = None):
        parent = parent or QModelIndex()
        for row in range(self.model_.rowCount(parent)):
            index = self.model_.index(row, 0, parent)
            yield index
            yield from self._all_indexes(index)

    def _expanded_keys(self) -> set[tuple[str, str]]:
        return {
            (index.data(KindRole), index.data(ValueRole))
            for index in self._all_indexes()
            if self.isExpanded(index)
        }

    def _restore_expanded(self, keys: set[tuple[str, str]]) -> None:
        for index in self._all_indexes():
            if (index.data(KindRole), index.data(ValueRole)) in keys:
                self.expand(index)

    # --- commands --------------------------------------------------------------------
    def _show_menu(self, position: QPoint) -> None:
        index = self.indexAt(position).siblingAtColumn(0)
        if not index.isValid():
            # The Menu key asks at no particular point: use the current entry.
            index = self.currentIndex()
        if not index.isValid():
            return
        menu = self.menu_for(index.data(KindRole), index.data(ValueRole) or "")
        if menu.actions():
            menu.exec(self.viewport().mapToGlobal(position))

    def menu_for(self, kind: str, value: str) -> QMenu:
        """The right-click menu of an entry of this kind (a scope's kind, or SECTION), public
        so tests can check what it offers."""
        menu = QMenu(self)

        def add(text: str, command: str, name: str = value) -> None:
            menu.addAction(text, lambda: self.command.emit(command, name))

        section = value if kind == SECTION else kind
        if section == Kind.SHORTLIST.value:
            add("New shortlist…", "new-shortlist", "")
            if kind == Kind.SHORTLIST:
                add("Add selected papers", "add-to-shortlist")
                add("Export…", "export-shortlist")
                add("Rename shortlist…", "rename-shortlist")
                add("Delete shortlist", "delete-shortlist")
        elif section == Kind.TAG.value:
            add("New tag…", "new-tag", "")
            if kind == Kind.TAG:
                add("Add to selected papers", "add-tag")
                add("Remove from selected papers", "remove-tag")
                add("Rename tag…", "rename-tag")
                add("Merge into…", "merge-tag")
                add("Colour…", "colour-tag")
                add("Remove colour", "uncolour-tag")
                add("Delete tag", "delete-tag")
        elif kind == Kind.SAVED:
            add("Delete saved search", "delete-saved-search")
        elif section == SCREENING:
            if kind == SCREENING:
                add("Resume in Triage", "resume-screening")
                add("Export Labelled Dataset…", "export-labels")
                add("Import Labelled Dataset…", "import-labels")
            else:
                add("Import Labelled Dataset as a New Screening…", "import-labels", "")
        return menu


def coloured_tag_keys(tags: Sequence[TagInfo]) -> dict[str, int]:
    """The first nine coloured tags (by name) and the digit key that toggles each."""
    coloured = sorted((t.name for t in tags if t.colour), key=str.casefold)
    return {name: number for number, name in enumerate(coloured[:9], start=1)}

"""The paper table: holds ids only and fetches Paper rows a page at a time (DESIGN §6).

A 100,000-paper library costs one list of ints up front; rows are read from the store
in pages of `PAGE_SIZE` when the view first paints them, and the last `MAX_PAGES`
pages are kept (least recently used go first). Sorting re-queries ids through the
search layer (`sort_requested`), so the model never needs every row in memory.
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import IntEnum
from functools import lru_cache
from typing import Any, cast

from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QMimeData,
    QModelIndex,
    QModelRoleData,
    QModelRoleDataSpan,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QIcon, QPainter, QPixmap

from paperdesk.core import fields
from paperdesk.core.errors import PaperdeskError
from paperdesk.core.models import MAX_RATING, Paper
from paperdesk.gui.resources import icon
from paperdesk.gui.widgets.star_rating import STAR_GOLD, WAITING
from paperdesk.text import to_plain

log = logging.getLogger(__name__)

PAGE_SIZE = 64
MAX_PAGES = 128
PAPER_IDS_MIME = "application/x-paperdesk-paper-ids"

AnyIndex = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
FetchPapers = Callable[[Sequence[int]], list[Paper]]


class Column(IntEnum):
    RATING = 0
    STATUS = 1
    TITLE = 2
    AUTHOR = 3
    VENUE = 4
    YEAR = 5
    TAGS = 6
    ADDED = 7


#: Each column's paper field: the field table (core/fields.py) names its heading and the
#: sort key a click on the heading asks the search layer for.
COLUMN_FIELDS = {
    Column.RATING: fields.BY_NAME["rating"],
    Column.STATUS: fields.BY_NAME["status"],
    Column.TITLE: fields.BY_NAME["title"],
    Column.AUTHOR: fields.BY_NAME["author"],
    Column.VENUE: fields.BY_NAME["venue"],
    Column.YEAR: fields.BY_NAME["year"],
    Column.TAGS: fields.BY_NAME["tag"],
    Column.ADDED: fields.BY_NAME["added"],
}
COLUMN_TITLES = {column: field.label or field.name for column, field in COLUMN_FIELDS.items()}
COLUMN_SORT_KEYS = {
    column: field.sort_key or fields.RELEVANCE for column, field in COLUMN_FIELDS.items()
}

PaperRole = Qt.ItemDataRole.UserRole + 1
PaperIdRole = Qt.ItemDataRole.UserRole + 2
_DISPLAY = Qt.ItemDataRole.DisplayRole
_DECORATION = Qt.ItemDataRole.DecorationRole
_FONT = Qt.ItemDataRole.FontRole
_FOREGROUND = Qt.ItemDataRole.ForegroundRole
_TOOLTIP = Qt.ItemDataRole.ToolTipRole
_ACCESSIBLE_TEXT = Qt.ItemDataRole.AccessibleTextRole
# Computed once: flags() runs for every cell Qt considers selecting.
_ROW_FLAGS = (
    Qt.ItemFlag.ItemIsEnabled
    | Qt.ItemFlag.ItemIsSelectable
    | Qt.ItemFlag.ItemIsDragEnabled
    | Qt.ItemFlag.ItemNeverHasChildren
)


def encode_paper_ids(ids: Iterable[int]) -> QMimeData:
    mime = QMimeData()
    mime.setData(PAPER_IDS_MIME, QByteArray(json.dumps(list(ids)).encode()))
    return mime


def decode_paper_ids(mime: QMimeData) -> list[int]:
    """Ids dragged from a paper table; [] for anything else."""
    if not mime.hasFormat(PAPER_IDS_MIME):
        return []
    try:
        values = json.loads(bytes(mime.data(PAPER_IDS_MIME).data()).decode())
    except ValueError:
        return []
    return [int(value) for value in values if isinstance(value, int)]


@lru_cache(maxsize=8192)
def display_title(title: str) -> str:
    """A title as read (`$K^2$` -> K², `*e.g.*` -> e.g.), cached for repaints."""
    return to_plain(title)


def rating_text(rating: int) -> str:
    return "★" * rating if rating else ""


def pending_rating_text(rating: int) -> str:
    """A rating waiting for a team library's server: hollow stars ("no rating" too)."""
    return "☆" * rating if rating else "–"


def moved_order(ids: Sequence[int], moving: Sequence[int], before_row: int) -> list[int]:
    """`ids` with `moving` taken out and put back, in their order, before row `before_row`."""
    moving_set = set(moving)
    present = set(ids)
    head = [i for i in ids[:before_row] if i not in moving_set]
    tail = [i for i in ids[before_row:] if i not in moving_set]
    return head + [i for i in moving if i in present] + tail


class PaperTableModel(QAbstractTableModel):
    """Rows are papers by id; `fetch(ids)` returns those papers (unknown ids left out)."""

    sort_requested = Signal(str, bool)
    reorder_requested = Signal(list)

    def __init__(self, fetch: FetchPapers, parent=None) -> None:
        super().__init__(parent)
        self._fetch = fetch
        self._ids: list[int] = []
        self._rows_by_id: dict[int, int] | None = None
        self._pages: OrderedDict[int, dict[int, Paper]] = OrderedDict()
        #: Papers of kept pages changed since read: read again, alone, at their page's
        #: next paint (page number -> their ids).
        self._stale: dict[int, set[int]] = {}
        self._tag_colours: dict[str, str] = {}
        self._dots_cache: dict[tuple[str, ...], QIcon] = {}
        self._status_icons: dict[str, QIcon] = {}
        #: Ratings kept on this machine until a team library's server takes them.
        self._pending_ratings: dict[int, int] = {}
        self._italic = QFont()
        self._italic.setItalic(True)
        self._reorderable = False
        self.pages_fetched = 0

    # --- ids -------------------------------------------------------------------------
    def set_ids(self, ids: Sequence[int]) -> None:
        """List these papers. The same list again (leaving triage, the listing after a
        bulk edit) keeps its rows and the pages read: resetting made the view lay out
        again and read and paint every visible page afresh, up to 90 ms of the GUI
        thread at 13,417 papers. Papers changed meanwhile are read again by
        `refresh_papers`; pages read short (a paper gone, a server away) are read
        again at their next paint."""
        if len(ids) == len(self._ids) and list(ids) == self._ids:
            self._forget_short_pages()
            return
        self.beginResetModel()
        self._ids = list(ids)
        self._rows_by_id = None
        self._pages.clear()
        self._stale.clear()
        self.endResetModel()

    def ids(self) -> list[int]:
        return list(self._ids)

    def ids_in_rows(self, first: int, last: int) -> list[int]:
        """The ids of rows `first` to `last`, both included."""
        return self._ids[first : last + 1]

    def id_at(self, row: int) -> int:
        return self._ids[row]

    def row_of(self, paper_id: int) -> int | None:
        if self._rows_by_id is None:
            # dict(zip()) builds it in a third of a comprehension's time (100,000 rows).
            self._rows_by_id = dict(zip(self._ids, range(len(self._ids)), strict=True))
        return self._rows_by_id.get(paper_id)

    def paper_at(self, row: int) -> Paper | None:
        if not 0 <= row < len(self._ids):
            return None
        return self._page(row // PAGE_SIZE).get(self._ids[row])

    def cached(self, paper_id: int) -> Paper | None:
        """The paper as its page was read, reading nothing (None: that page is not
        kept): what a team library's window shows while its server is away."""
        row = self.row_of(paper_id)
        page = self._pages.get(row // PAGE_SIZE) if row is not None else None
        return page.get(paper_id) if page is not None else None

    def refresh_papers(self, paper_ids: Iterable[int]) -> None:
        """Re-read these papers on their next paint, these alone: dropping their whole
        page made leaving triage read 64 papers again for the one decided last (33 ms
        of the GUI thread at load 7). Only rows of the pages kept can be on screen, so
        only those are looked at: a status set on 100,000 papers took 0.5 s of the GUI
        thread to find the row of each."""
        changed = paper_ids if isinstance(paper_ids, set | frozenset) else set(paper_ids)
        rows = [
            row
            for page in self._pages
            for row in range(page * PAGE_SIZE, min((page + 1) * PAGE_SIZE, len(self._ids)))
            if self._ids[row] in changed
        ]
        if not rows:
            return
        for row in rows:
            self._stale.setdefault(row // PAGE_SIZE, set()).add(self._ids[row])
        last_column = self.columnCount() - 1
        self.dataChanged.emit(self.index(min(rows), 0), self.index(max(rows), last_column))

    def _forget_short_pages(self) -> None:
        short = [
            page for page, papers in self._pages.items() if len(papers) < len(self._ids_of(page))
        ]
        for page in short:
            del self._pages[page]
            self._stale.pop(page, None)
        if short:
            first, last = min(short) * PAGE_SIZE, min((max(short) + 1) * PAGE_SIZE, len(self._ids))
            self.dataChanged.emit(
                self.index(first, 0), self.index(last - 1, self.columnCount() - 1)
            )

    def set_pending_ratings(self, ratings: Mapping[int, int]) -> None:
        """Ratings waiting for a team library's server, shown hollow until it takes them."""
        changed = set(ratings.items()) ^ set(self._pending_ratings.items())
        self._pending_ratings = dict(ratings)
        # Repainted from the rows kept: re-reading them would fail while the server is away.
        for paper_id in {paper_id for paper_id, _rating in changed}:
            row = self.row_of(paper_id)
            if row is not None:
                cell = self.index(row, Column.RATING)
                self.dataChanged.emit(cell, cell)

    def set_tag_colours(self, colours: Mapping[str, str | None]) -> None:
        coloured = {name: colour for name, colour in colours.items() if colour}
        if coloured == self._tag_colours:
            return  # after every change, mostly: repainting the column costs a table paint
        self._tag_colours = coloured
        if self._ids:
            column = Column.TAGS
            self.dataChanged.emit(self.index(0, column), self.index(len(self._ids) - 1, column))

    def set_reorderable(self, reorderable: bool) -> None:
        """In a shortlist's own order, rows can be dragged to a new place."""
        self._reorderable = reorderable

    def is_reorderable(self) -> bool:
        return self._reorderable

    # --- paging ----------------------------------------------------------------------
    def _page(self, page: int) -> dict[int, Paper]:
        cached = self._pages.get(page)
        if cached is not None:
            self._pages.move_to_end(page)
            stale = self._stale.pop(page, None)
            if stale:
                fresh = self._read([i for i in self._ids_of(page) if i in stale], page)
                # Unreadable (a team library's server away): the rows stay as read before,
                # readable, rather than blank; the window reads every row again once the
                # server is back (gui/team/offline.py).
                if fresh is not None:
                    for paper_id in stale:
                        cached.pop(paper_id, None)  # a paper gone meanwhile shows blank
                    cached.update(fresh)
            return cached
        papers = self._read(self._ids_of(page), page) or {}
        self._pages[page] = papers
        if len(self._pages) > MAX_PAGES:
            dropped, _papers = self._pages.popitem(last=False)
            self._stale.pop(dropped, None)
        return papers

    def _ids_of(self, page: int) -> list[int]:
        return self._ids[page * PAGE_SIZE : (page + 1) * PAGE_SIZE]

    def _read(self, wanted: list[int], page: int) -> dict[int, Paper] | None:
        """These papers of `page` by id, read from the store (None if it fails)."""
        papers: dict[int, Paper] | None
        try:
            papers = {paper.id: paper for paper in self._fetch(wanted)}
        except PaperdeskError as error:  # a team library's server away: said by the banner
            log.info("could not read papers for table rows %d..: %s", page * PAGE_SIZE, error)
            papers = None
        except Exception:
            # Painting must not raise; the rows stay blank until the next refresh.
            log.exception("could not read papers for table rows %d..", page * PAGE_SIZE)
            papers = None
        self.pages_fetched += 1
        return papers

    # --- Qt model interface ----------------------------------------------------------
    def rowCount(self, parent: AnyIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: AnyIndex = _ROOT) -> int:
        return 0 if parent.isValid() else len(Column)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = 0) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(Column):
            return None
        column = Column(section)
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return COLUMN_TITLES[column]
        if role == _DECORATION and column == Column.STATUS:
            # The status column is as narrow as its icons; its heading is one too.
            return icon("status-read")
        return None

    def data(self, index: AnyIndex, role: int = _DISPLAY) -> Any:
        row = index.row()
        if not 0 <= row < len(self._ids):
            return None
        return self._value(row, self.paper_at(row), index.column(), role)

    def multiData(self, index: AnyIndex, roleDataSpan: QModelRoleDataSpan | QModelRoleData) -> None:
        """All the roles a cell's delegate asks for, in one call from Qt: painting asks
        seven of each cell, and each call from Qt into Python waits for the GIL (behind
        the writer thread, the ranking's) and converts its index anew."""
        # PySide6 iterates a span; its stubs do not say so.
        roles = cast("Iterable[QModelRoleData]", roleDataSpan)
        row = index.row()
        if not 0 <= row < len(self._ids):
            for role_data in roles:
                role_data.clearData()
            return
        paper, column = self.paper_at(row), index.column()
        for role_data in roles:
            role_data.setData(self._value(row, paper, column, role_data.role()))

    def _value(self, row: int, paper: Paper | None, column: int, role: int) -> Any:
        # Called for ~7 roles per painted cell: plain ints and early exits keep it cheap.
        if role == PaperIdRole:
            return self._ids[row]
        if paper is None:
            return None
        if self._pending_ratings and column == Column.RATING:
            pending = self._pending_ratings.get(paper.id)
            if pending is not None and role in (_DISPLAY, _TOOLTIP, _ACCESSIBLE_TEXT):
                waiting = f"{pending} of {MAX_RATING} stars, {WAITING}"
                return pending_rating_text(pending) if role == _DISPLAY else waiting
        if role == _DISPLAY:
            return self._display(paper, column)
        if role == _DECORATION:
            if column == Column.STATUS:
                return self._status_icon(paper.status.value)
            if column == Column.TAGS:
                return self._tag_dots(paper.tags)
            return None
        if role == _FONT:
            return self._italic if column == Column.TITLE and paper.title_is_derived else None
        if role == _FOREGROUND:
            return STAR_GOLD if column == Column.RATING else None
        if role == PaperRole:
            return paper
        if role == _TOOLTIP:
            return self._tooltip(paper, column)
        if role == _ACCESSIBLE_TEXT and column == Column.RATING:
            return f"{paper.rating} of {MAX_RATING} stars"
        return None

    @staticmethod
    def _display(paper: Paper, column: int) -> str:
        match column:
            case Column.RATING:
                return rating_text(paper.rating)
            case Column.STATUS:
                return paper.status.value
            case Column.TITLE:
                return display_title(paper.title)
            case Column.AUTHOR:
                return paper.first_author_label
            case Column.VENUE:
                return paper.venue or ""
            case Column.YEAR:
                return str(paper.year) if paper.year else ""
            case Column.TAGS:
                return ", ".join(sorted(paper.tags, key=str.casefold))
            case Column.ADDED:
                return paper.added.strftime("%Y-%m-%d")
        return ""

    @staticmethod
    def _tooltip(paper: Paper, column: int) -> str | None:
        if column == Column.TITLE:
            title = display_title(paper.title)
            if paper.title_is_derived:
                return f"{title}\n(title taken from the abstract's first sentence)"
            return title
        if column == Column.AUTHOR and paper.authors:
            return "; ".join(paper.authors)
        if column == Column.TAGS and paper.tags:
            return ", ".join(sorted(paper.tags, key=str.casefold))
        if column == Column.ADDED:
            return paper.added.strftime("%Y-%m-%d %H:%M")
        if column == Column.STATUS:
            return f"Status: {paper.status.value}"
        return None

    def _status_icon(self, status: str) -> QIcon:
        if status not in self._status_icons:
            self._status_icons[status] = icon(f"status-{status}")
        return self._status_icons[status]

    def _tag_dots(self, tags: Sequence[str]) -> QIcon | None:
        """Coloured dots for the paper's coloured tags (the Zotero habit)."""
        colours = tuple(
            self._tag_colours[t] for t in sorted(tags, key=str.casefold) if t in self._tag_colours
        )
        if not colours:
            return None
        cached = self._dots_cache.get(colours)
        if cached is None:
            size, step = 10, 7
            pixmap = QPixmap(size + step * (len(colours) - 1), size)
            pixmap.fill(Qt.GlobalColor.transparent)
            painter = QPainter(pixmap)
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            for i, colour in enumerate(colours):
                painter.setBrush(QColor(colour))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.drawEllipse(i * step, 0, size, size)
            painter.end()
            cached = QIcon(pixmap)
            self._dots_cache[colours] = cached
        return cached

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled if self._reorderable else Qt.ItemFlag.NoItemFlags
        return _ROW_FLAGS

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if 0 <= column < len(Column):
            descending = order == Qt.SortOrder.DescendingOrder
            self.sort_requested.emit(COLUMN_SORT_KEYS[Column(column)], descending)

    # --- drag and drop ---------------------------------------------------------------
    def mimeTypes(self) -> list[str]:
        return [PAPER_IDS_MIME]

    def mimeData(self, indexes: Sequence[QModelIndex]) -> QMimeData:
        rows = sorted({index.row() for index in indexes if index.isValid()})
        return encode_paper_ids(self._ids[row] for row in rows)

    def supportedDragActions(self) -> Qt.DropAction:
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    def supportedDropActions(self) -> Qt.DropAction:
        return Qt.DropAction.MoveAction if self._reorderable else Qt.DropAction.IgnoreAction

    def canDropMimeData(self, data, action, row, column, parent) -> bool:
        return self._reorderable and bool(decode_paper_ids(data))

    def dropMimeData(self, data, action, row, column, parent) -> bool:
        """A drag within a shortlist's view: ask for the new order; rows follow on re-query."""
        moving = decode_paper_ids(data)
        if not self._reorderable or not moving:
            return False
        if row < 0:
            row = parent.row() if parent.isValid() else len(self._ids)
        new_order = moved_order(self._ids, moving, row)
        if new_order != self._ids:
            self.reorder_requested.emit(new_order)
        return True

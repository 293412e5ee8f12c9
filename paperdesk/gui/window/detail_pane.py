"""The detail pane: one paper to read and annotate, or a summary of a multi-selection.

It never writes to the library itself: every edit is a signal the window turns into a
service call on the writer thread, and the pane is redrawn from the `Changes` it gets
back. So a change shows up the same way whether it came from here, a key or an undo.
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Mapping, Sequence

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.models import Paper, Status
from paperdesk.gui.resources import icon
from paperdesk.gui.team.section import TeamSection
from paperdesk.gui.triage.bars import HighlightBar
from paperdesk.gui.widgets.abstract_marks import word_styles
from paperdesk.gui.widgets.links import links_html, open_link
from paperdesk.gui.widgets.star_rating import StarRating
from paperdesk.gui.widgets.tag_chips import TagChips
from paperdesk.gui.window.field_editor import FieldForm
from paperdesk.gui.window.note_editor import NoteEditor
from paperdesk.gui.window.sidebar import STATUS_LABELS
from paperdesk.services.use_cases.rendering import abstract_html, passage_at
from paperdesk.text import to_html


def section_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionLabel")
    return label


def wrapping_label(object_name: str, rich: bool = False) -> QLabel:
    label = QLabel()
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(
        Qt.TextInteractionFlag.TextSelectableByMouse
        | Qt.TextInteractionFlag.LinksAccessibleByMouse
        | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    )
    # A click goes through open_link, which opens http(s) links only.
    label.setOpenExternalLinks(False)
    label.linkActivated.connect(open_link)
    return label


class StatusChooser(QComboBox):
    """Status picker; `chosen` fires only when the user picks one."""

    chosen = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Status")
        self.setPlaceholderText("Mixed")
        # Item data holds the plain value: Qt hands a str-based enum back as a bare str.
        for status, label in STATUS_LABELS.items():
            self.addItem(icon(f"status-{status.value}"), label, status.value)
        self.activated.connect(lambda row: self.chosen.emit(Status(self.itemData(row))))

    def set_status(self, status: Status | None) -> None:
        self.setCurrentIndex(-1 if status is None else self.findData(status.value))


class TitleEditor(QWidget):
    """The title as wrapped text; F2, double-click or the pen button edit it in place."""

    edited = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = wrapping_label("detailTitle", rich=True)
        self.label.setAccessibleName("Title")
        self.line = QLineEdit()
        self.line.setAccessibleName("Edit title")
        self.line.hide()
        self.edit_button = QToolButton()
        self.edit_button.setIcon(icon("edit"))
        self.edit_button.setAutoRaise(True)
        self.edit_button.setToolTip("Edit the title (F2)")
        self.edit_button.setAccessibleName("Edit title")
        self.edit_button.clicked.connect(self.start_editing)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        column = QVBoxLayout()
        column.addWidget(self.label)
        column.addWidget(self.line)
        layout.addLayout(column, 1)
        layout.addWidget(self.edit_button, 0, Qt.AlignmentFlag.AlignTop)
        self.line.returnPressed.connect(self._commit)
        self.line.installEventFilter(self)
        self.label.installEventFilter(self)
        self._title = ""

    def set_title(self, title: str, derived: bool) -> None:
        self._title = title
        self.label.setText(to_html(title))
        self.label.setProperty("derived", derived)
        self.label.style().unpolish(self.label)
        self.label.style().polish(self.label)
        self._stop_editing()

    def is_editing(self) -> bool:
        return not self.line.isHidden()

    def start_editing(self) -> None:
        self.line.setText(self._title)
        self.label.hide()
        self.line.show()
        self.line.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.line.selectAll()

    def _stop_editing(self) -> None:
        self.line.hide()
        self.label.show()

    def _commit(self) -> None:
        if not self.is_editing():
            return
        title = " ".join(self.line.text().split())
        self._stop_editing()
        if title and title != self._title:
            self.edited.emit(title)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.line:
            if isinstance(event, QKeyEvent) and event.key() == Qt.Key.Key_Escape:
                self._stop_editing()
                return True
            if event.type() == QEvent.Type.FocusOut:
                self._commit()
        elif watched is self.label and event.type() == QEvent.Type.MouseButtonDblClick:
            self.start_editing()
            return True
        return super().eventFilter(watched, event)


class SinglePaperView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.title = TitleEditor()
        self.derived_hint = QLabel(
            "Title taken from the abstract's first sentence; press F2 to give the real one."
        )
        self.derived_hint.setObjectName("detailMeta")
        self.derived_hint.setWordWrap(True)
        self.authors = wrapping_label("detailAuthors")
        self.meta = wrapping_label("detailMeta", rich=True)
        self.fields = FieldForm()
        self.fields.hide()
        self.fields_button = QToolButton()
        self.fields_button.setIcon(icon("edit"))
        self.fields_button.setText("Edit fields")
        self.fields_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.fields_button.setAutoRaise(True)
        self.fields_button.setCheckable(True)
        self.fields_button.setToolTip("Edit authors, venue, year, identifiers and the key")
        self.fields_button.toggled.connect(self.fields.setVisible)
        self.stars = StarRating()
        self.status = StatusChooser()
        self.tags = TagChips()
        self.team = TeamSection()  # a team library's average rating and others' notes
        self.abstract = wrapping_label("detailAbstract", rich=True)
        self.abstract.setAccessibleName("Abstract")
        # Marked passages, each with a link that removes it (issue 10).
        self.marks = wrapping_label("detailMarks", rich=True)
        self.marks.linkActivated.disconnect()  # its links remove a mark; they open nothing
        self.highlight_bar = HighlightBar()
        self.highlight_bar.hide()

        controls = QHBoxLayout()
        controls.addWidget(self.stars)
        controls.addWidget(self.status)
        controls.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addWidget(self.derived_hint)
        layout.addWidget(self.authors)
        layout.addWidget(self.meta)
        layout.addLayout(controls)
        # A row of its own: beside the stars and the status it widened the narrowest pane.
        layout.addWidget(self.fields_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.fields)
        layout.addWidget(self.tags)
        layout.addWidget(self.team)
        layout.addWidget(section_label("Abstract"))
        layout.addWidget(self.abstract)
        layout.addWidget(self.marks)
        layout.addWidget(self.highlight_bar)
        layout.addStretch(1)


class ManyPapersView(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        self.heading.setObjectName("detailTitle")
        self.stars = StarRating()
        self.status = StatusChooser()
        self.tags = TagChips()
        hint = QLabel(
            "Changes here apply to every selected paper. Drag the papers onto a shortlist "
            "or a tag in the sidebar to add them there."
        )
        hint.setObjectName("detailMeta")
        hint.setWordWrap(True)
        controls = QHBoxLayout()
        controls.addWidget(self.stars)
        controls.addWidget(self.status)
        controls.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(controls)
        layout.addWidget(self.tags)
        layout.addWidget(hint)
        layout.addStretch(1)


class DetailPane(QSplitter):
    """Signals carry what the user did; the window applies it to the selected papers."""

    title_edited = Signal(int, str)
    field_edited = Signal(int, str, str)  # paper id, field name, the text typed
    rating_chosen = Signal(int)
    status_chosen = Signal(object)
    tag_added = Signal(str)
    tag_removed = Signal(str)
    # paper id, start, stop, quote, colour, comment: a passage of the abstract to mark
    passage_marked = Signal(int, int, int, str, str, str)
    mark_removed = Signal(int)  # an annotation's id
    # Enter in a tag field: the user is done there (the window gives the table the focus).
    tags_committed = Signal()

    # Above this many selected papers, per-tag counts are not worth reading every row.
    MAX_SUMMARISED = 500
    # The stars, the status box and a word of the abstract side by side.
    MIN_WIDTH = 300

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.setObjectName("detailPane")
        self.single = SinglePaperView()
        self.many = ManyPapersView()
        self.empty = QLabel("Select a paper to read its abstract, rate, tag and annotate it.")
        self.empty.setObjectName("detailMeta")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.pages = QStackedWidget()
        for page in (self.empty, self.single, self.many):
            self.pages.addWidget(page)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setWidget(self.pages)
        self.notes = NoteEditor()
        self.addWidget(self.scroll_area)
        self.addWidget(self.notes)
        self.setStretchFactor(0, 3)
        self.setStretchFactor(1, 1)
        self.setChildrenCollapsible(False)

        self._paper: Paper | None = None
        self._pending_ratings: dict[int, int] = {}
        self._terms: tuple[str, ...] = ()
        self._always_words: tuple[str, ...] = ()
        self._passage: tuple[int, int, str] | None = None
        self.single.highlight_bar.submitted.connect(self._on_mark_submitted)
        self.single.highlight_bar.cancelled.connect(self.single.highlight_bar.hide)
        self.single.marks.linkActivated.connect(self._on_mark_link)
        for view in (self.single, self.many):
            view.stars.rating_changed.connect(self.rating_chosen)
            view.status.chosen.connect(self.status_chosen)
            view.tags.tag_added.connect(self.tag_added)
            view.tags.tag_removed.connect(self.tag_removed)
            view.tags.committed.connect(self.tags_committed)
        self.single.title.edited.connect(self._on_title_edited)
        self.single.fields.edited.connect(self._on_field_edited)
        self.show_nothing()

    def paper(self) -> Paper | None:
        return self._paper

    def show_nothing(self, message: str | None = None) -> None:
        self._paper = None
        if message:
            self.empty.setText(message)
        self.pages.setCurrentWidget(self.empty)
        self.notes.show_note(None, "")
        self.notes.setEnabled(False)

    def show_paper(self, paper: Paper, tag_colours: Mapping[str, str | None]) -> None:
        view = self.single
        same_paper = self._paper is not None and self._paper.id == paper.id
        self._paper = paper
        view.title.set_title(paper.title, paper.title_is_derived)
        view.derived_hint.setVisible(paper.title_is_derived)
        view.authors.setText("; ".join(paper.authors))
        view.authors.setVisible(bool(paper.authors))
        venue = " ".join(str(part) for part in (paper.venue, paper.year) if part)
        meta = [html.escape(venue)] if venue else []
        if paper.citation_key:
            meta.append(f"<code>{html.escape(paper.citation_key)}</code>")
        if links := links_html(paper.ids):
            meta.append(links)
        view.meta.setText(" · ".join(meta))
        view.meta.setVisible(bool(meta))
        view.fields.show_paper(paper)
        view.stars.set_rating(paper.rating)
        view.stars.set_pending(self._pending_ratings.get(paper.id))
        view.status.set_status(paper.status)
        view.tags.set_tags(paper.tags, tag_colours)
        view.team.show_team(paper.team)
        self._render_abstract()
        self.pages.setCurrentWidget(view)
        if not same_paper:
            self.scroll_area.verticalScrollBar().setValue(0)
        self.notes.setEnabled(True)
        self.notes.show_note(paper.id, paper.note)

    def show_many(
        self,
        count: int,
        papers: Sequence[Paper] | None,
        tag_colours: Mapping[str, str | None],
    ) -> None:
        """A multi-selection; `papers` is None when there are too many to summarise."""
        view = self.many
        self._paper = None
        self.notes.show_note(None, "")
        self.notes.setEnabled(False)
        view.heading.setText(f"{count:,} papers selected")
        if papers:
            ratings = {p.rating for p in papers}
            statuses = {p.status for p in papers}
            tag_counts = Counter(tag for p in papers for tag in p.tags)
            view.stars.set_rating(ratings.pop() if len(ratings) == 1 else 0)
            view.status.set_status(statuses.pop() if len(statuses) == 1 else None)
            view.tags.set_tags(list(tag_counts), tag_colours, tag_counts, len(papers))
        else:
            view.stars.set_rating(0)
            view.status.set_status(None)
            view.tags.set_tags([], tag_colours)
        self.pages.setCurrentWidget(view)

    def set_pending_ratings(self, ratings: Mapping[int, int]) -> None:
        """Ratings waiting for a team library's server (shown hollow on the stars)."""
        self._pending_ratings = dict(ratings)
        if self._paper is not None:
            self.single.stars.set_pending(self._pending_ratings.get(self._paper.id))

    def set_known_tags(self, names: Sequence[str]) -> None:
        self.single.tags.set_known_tags(names)
        self.many.tags.set_known_tags(names)

    def set_highlight(self, terms: Sequence[str]) -> None:
        self._terms = tuple(terms)
        if self._paper is not None:
            self._render_abstract()

    def set_always_words(self, words: Sequence[str]) -> None:
        """The library's always-highlight words, shown in every abstract."""
        self._always_words = tuple(words)
        if self._paper is not None:
            self._render_abstract()

    def _render_abstract(self) -> None:
        assert self._paper is not None
        paper = self._paper
        abstract = paper.abstract.strip()
        if abstract:
            styles = word_styles(self.palette(), None, self._always_words)
            html_text = abstract_html(abstract, self._terms, paper.annotations, styles)
            self.single.abstract.setText(html_text)
        else:
            self.single.abstract.setText("<i>No abstract.</i>")
        marks = [
            f"<span style='background-color:{mark.colour};color:#000'>&nbsp;"
            f"{html.escape(mark.quote)}&nbsp;</span>"
            + (f" — {html.escape(mark.comment)}" if mark.comment else "")
            + f" <a href='remove:{mark.id}'>remove</a>"
            for mark in paper.annotations
        ]
        self.single.marks.setText("<br>".join(marks))
        self.single.marks.setVisible(bool(marks))
        self.single.highlight_bar.hide()

    def highlight_selection(self) -> bool:
        """Open the highlight bar for the passage selected in the abstract (False: none)."""
        label = self.single.abstract
        paper = self._paper
        if paper is None or not label.hasSelectedText():
            return False
        start = label.selectionStart()
        passage = passage_at(paper.abstract.strip(), start, start + len(label.selectedText()))
        if passage is None:
            return False
        self._passage = passage
        self.single.highlight_bar.open(passage[2])
        return True

    def _on_mark_submitted(self, colour: str, comment: str) -> None:
        self.single.highlight_bar.hide()
        if self._paper is not None and self._passage is not None:
            start, stop, quote = self._passage
            self.passage_marked.emit(self._paper.id, start, stop, quote, colour, comment)

    def _on_mark_link(self, link: str) -> None:
        if link.startswith("remove:"):
            self.mark_removed.emit(int(link.removeprefix("remove:")))

    def edit_title(self) -> None:
        if self._paper is not None:
            self.single.title.start_editing()

    def focus_tags(self) -> None:
        view = self.single if self.pages.currentWidget() is self.single else self.many
        view.tags.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_note(self) -> None:
        if self._paper is not None:
            self.notes.setCurrentWidget(self.notes.editor)
            self.notes.editor.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _on_title_edited(self, title: str) -> None:
        if self._paper is not None:
            self.title_edited.emit(self._paper.id, title)

    def restore_fields(self, _error: BaseException | None = None) -> None:
        """Show the stored values again (an edit was refused)."""
        if self._paper is not None:
            self.single.fields.show_paper(self._paper)

    def _on_field_edited(self, name: str, text: str) -> None:
        if self._paper is not None:
            self.field_edited.emit(self._paper.id, name, text)

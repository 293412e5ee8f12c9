"""The triage view: one paper at a time, large and readable, decided from the keyboard.

A mode of the main window (View > Triage). The header says what is triaged, in which
order and onto which shortlist keeps go; the progress line under it says how far the
triage has come. Keys (also on the `?` overlay): S keep, M maybe, X discard, 1-5 rate,
T tag, Alt+1-9 toggle the first nine tags, N note, H highlight the selected passage,
J/K or arrows next/previous, L more like this, W why this paper on/off, U or Ctrl+Z
undo, Esc leave.

The view only shows and listens: the session (gui/triage/session.py) decides what to
show and makes the decisions; every other key calls the same action as the main window
(gui/actions/), on the paper shown.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QKeyEvent, QTextCursor
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from paperdesk.core.models import MAX_RATING, Paper
from paperdesk.core.triage import Decision, Progress, TriageStats
from paperdesk.gui.actions import highlights, notes, papers, tags
from paperdesk.gui.actions.notes import NoteDrafts
from paperdesk.gui.triage.bars import HighlightBar, NoteBar, ReasonBar, TagBar
from paperdesk.gui.triage.header import TriageHeader
from paperdesk.gui.triage.session import TriageSession
from paperdesk.gui.widgets.abstract_marks import calm, why_html, word_styles
from paperdesk.gui.widgets.help_overlay import HelpOverlay
from paperdesk.gui.widgets.links import links_html, open_link
from paperdesk.gui.window.sidebar import STATUS_LABELS
from paperdesk.services.use_cases.rendering import abstract_html, passage_at
from paperdesk.text import to_html

if TYPE_CHECKING:
    from paperdesk.ranking.explanation import Explanation

#: The keys, as the help overlay lists them.
KEYS = [
    ("Deciding", ""),
    ("S", "Keep: to read, and onto the shortlist chosen above"),
    ("M", "Maybe: skimmed, decide later"),
    ("X", "Discard (asks why when the screening lists exclusion reasons)"),
    ("Shift+X", "Discard with a reason (a new one joins the screening's list)"),
    ("1 – 5, 0", "Rate the paper (0 clears); 4 and 5 count as keeps for the order"),
    ("U, Ctrl+Z", "Undo the last action, back to its paper"),
    ("Annotating", ""),
    ("T", "Tag the paper (completion; commas between tags)"),
    ("Alt+1 – Alt+9", "Toggle the first nine tags (listed under the abstract)"),
    ("N", "Write a note (Ctrl+Enter saves)"),
    ("H", "Highlight the selected passage; with none, select one by keyboard"),
    ("Moving", ""),
    ("J, ↓, →", "Next paper (an undecided one waits for later)"),
    ("K, ↑, ←", "Previous paper"),
    ("L", "More like this: similar undecided papers come next"),
    ("W", "Show or hide ‘why this paper’ (its line and tinted words)"),
    ("Space, Shift+Space", "Scroll the abstract"),
    ("?", "These keys"),
    ("Esc", "Close a bar, or leave triage"),
]
FOOTER = (
    "<b>S</b> keep &nbsp; <b>M</b> maybe &nbsp; <b>X</b> discard &nbsp; <b>1–5</b> rate &nbsp; "
    "<b>T</b> tag &nbsp; <b>N</b> note &nbsp; <b>H</b> highlight &nbsp; <b>J/K</b> next/previous"
    " &nbsp; <b>L</b> more like this &nbsp; <b>U</b> undo &nbsp; <b>?</b> all keys &nbsp; "
    "<b>Esc</b> leave"
)
SELECTING = (
    "Select the passage: Shift+arrows extend it (Ctrl+Shift+arrows by word), Shift+End to the "
    "line's end. Enter highlights it, Esc cancels."
)
TAG_KEYS = 9
# Qt's Alt+digit arrives as the digit key with the Alt modifier.
_DIGITS = {getattr(Qt.Key, f"Key_{n}").value: n for n in range(10)}


#: The paper is read from a distance for a whole afternoon: larger than the detail pane.
TITLE_SCALE, ABSTRACT_SCALE = 1.45, 1.2


def enlarge(widget: QWidget, scale: float, bold: bool = False) -> None:
    """The widget's font, `scale` times the application's (the user's font size kept)."""
    font = QFont(widget.font())
    font.setPointSizeF(font.pointSizeF() * scale)
    font.setBold(bold)
    widget.setFont(font)


class AbstractView(QTextBrowser):
    """The abstract, large; selectable by mouse, and by keyboard while selecting."""

    selection_done = Signal(bool)  # True: highlight the selection; False: cancelled
    # A class default: Qt sends events while the constructor still runs.
    selecting = False

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageAbstract")
        self.setAccessibleName("Abstract")
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        enlarge(self, ABSTRACT_SCALE)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def start_selecting(self) -> None:
        self.selecting = True
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        cursor = self.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.Start)
        self.setTextCursor(cursor)
        self.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def stop_selecting(self) -> None:
        self.selecting = False
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)

    def event(self, event: QEvent) -> bool:
        if self.selecting and event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # while selecting, every key is the selection's
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if not self.selecting:
            super().keyPressEvent(event)
            return
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_H):
            self.selection_done.emit(True)
        elif key == Qt.Key.Key_Escape:
            self.selection_done.emit(False)
        elif (
            event.text().isprintable()
            and event.text()
            and not event.modifiers() & (Qt.KeyboardModifier.ControlModifier)
        ):
            return  # letters do nothing here, and never reach the triage keys
        else:
            super().keyPressEvent(event)

    def selection(self) -> tuple[int, int] | None:
        cursor = self.textCursor()
        if not cursor.hasSelection():
            return None
        return cursor.selectionStart(), cursor.selectionEnd()


class TriageView(QWidget):
    """Shows the session's paper and turns keys into the session's calls."""

    leave_requested = Signal()
    why_toggled = Signal(bool)  # W: 'why this paper' shown (True) or hidden

    def __init__(self, session: TriageSession, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageView")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.session = session
        self.tag_names: Callable[[], list[str]] = list
        # Notes whose save failed, shared with the detail pane's editor (the window's).
        self.note_drafts = NoteDrafts()
        self.always_words: list[str] = []
        self.show_why = True
        self._passage: tuple[int, int, str] | None = None
        self.header = TriageHeader()
        self.progress_line = QLabel()
        self.progress_line.setObjectName("triageProgress")
        self.progress_bar = QProgressBar()
        self.progress_bar.setTextVisible(False)
        self.progress_bar.setFixedHeight(4)
        self.hint = QLabel()
        self.hint.setObjectName("detailMeta")
        self.hint.setWordWrap(True)

        self.position = QLabel()
        self.position.setObjectName("detailMeta")
        self.title = QLabel()
        self.title.setObjectName("triageTitleText")
        enlarge(self.title, TITLE_SCALE, bold=True)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.authors = QLabel()
        self.authors.setWordWrap(True)
        self.meta = QLabel()
        self.meta.setObjectName("detailMeta")
        self.meta.setTextFormat(Qt.TextFormat.RichText)
        self.meta.linkActivated.connect(open_link)  # http(s) links only (gui/widgets/links.py)
        self.meta.setWordWrap(True)
        self.abstract = AbstractView()
        self.why = QLabel()
        self.why.setWordWrap(True)
        self.why.setTextFormat(Qt.TextFormat.RichText)
        self.marks = QLabel()
        self.marks.setWordWrap(True)
        self.marks.setTextFormat(Qt.TextFormat.RichText)
        self.tag_line = QLabel()
        self.tag_line.setObjectName("detailMeta")
        self.tag_line.setWordWrap(True)
        self.tag_line.setTextFormat(Qt.TextFormat.RichText)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setTextFormat(Qt.TextFormat.PlainText)
        self.note.setObjectName("triageNote")
        self.tag_bar = TagBar()
        self.reason_bar = ReasonBar()
        self.note_bar = NoteBar()
        self.highlight_bar = HighlightBar()
        self.select_hint = QLabel(SELECTING)
        self.select_hint.setObjectName("triageSelecting")
        self.select_hint.setWordWrap(True)
        self.footer = QLabel(FOOTER)
        self.footer.setObjectName("triageFooter")
        self.footer.setTextFormat(Qt.TextFormat.RichText)
        self.footer.setWordWrap(True)
        self.empty = QLabel()
        self.empty.setObjectName("triageEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._build_layout()
        self.overlay = HelpOverlay("Triage keys", KEYS, self)
        self._connect()
        self._show_bar(None)

    # ------------------------------------------------------------------ layout

    def _build_layout(self) -> None:
        paper = QWidget()
        paper.setObjectName("triagePaper")
        paper.setMaximumWidth(960)
        column = QVBoxLayout(paper)
        column.setContentsMargins(24, 12, 24, 8)
        column.setSpacing(6)
        for widget in (self.position, self.title, self.authors, self.meta):
            column.addWidget(widget)
        column.addWidget(self.abstract, 1)
        for widget in (self.why, self.marks, self.tag_line, self.note, self.empty):
            column.addWidget(widget)
        for bar in (
            self.select_hint,
            self.tag_bar,
            self.note_bar,
            self.highlight_bar,
            self.reason_bar,
        ):
            column.addWidget(bar)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(paper, 12)
        centred.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.header)
        status = QVBoxLayout()
        status.setContentsMargins(12, 6, 12, 4)
        status.setSpacing(3)
        status.addWidget(self.progress_line)
        status.addWidget(self.progress_bar)
        status.addWidget(self.hint)
        layout.addLayout(status)
        layout.addLayout(centred, 1)
        footer = QHBoxLayout()
        footer.setContentsMargins(12, 4, 12, 6)
        footer.addWidget(self.footer)
        layout.addLayout(footer)

    def _connect(self) -> None:
        session = self.session
        session.paper_shown.connect(self.show_paper)
        session.cannot_read.connect(self.show_unreadable)
        session.explained.connect(self.show_explanation)
        session.progress_changed.connect(self.show_progress)
        session.stats_read.connect(self.show_stats)
        session.message.connect(self.show_message)
        self.header.plan_changed.connect(self.restart)
        self.header.leave_requested.connect(self.leave_requested)
        self.header.help_requested.connect(self.overlay.open)
        self.abstract.selection_done.connect(self._on_selection_done)
        self.tag_bar.submitted.connect(self._on_tags)
        self.reason_bar.submitted.connect(self._on_reason)
        self.note_bar.submitted.connect(self._on_note)
        self.highlight_bar.submitted.connect(self._on_highlight)
        for bar in (self.tag_bar, self.note_bar, self.highlight_bar, self.reason_bar):
            bar.cancelled.connect(lambda: self._show_bar(None))

    # ------------------------------------------------------------------ starting

    def restart(self) -> None:
        self._show_bar(None)
        self.session.start(self.header.plan())
        self.setFocus(Qt.FocusReason.OtherFocusReason)

    # ------------------------------------------------------------------ showing

    def show_paper(self, paper: Paper | None) -> None:
        if paper is None:
            self._show_empty(
                f"Nothing left to decide in {self.session.plan.describe()}.\n"
                "Pick something else to triage above, or press Esc to leave."
            )
            return
        self._show_bar(None)
        for widget in (self.position, self.title, self.authors, self.meta, self.abstract):
            widget.show()
        self.empty.hide()
        status = STATUS_LABELS[paper.status]
        stars = "★" * paper.rating + "☆" * (MAX_RATING - paper.rating)
        self.position.setText(
            f"{status} · {stars}" + (" · title derived" if paper.title_is_derived else "")
        )
        title = to_html(paper.title)
        self.title.setText(f"<i>{title}</i>" if paper.title_is_derived else title)
        self.authors.setText("; ".join(paper.authors))
        self.authors.setVisible(bool(paper.authors))
        venue = " ".join(str(part) for part in (paper.venue, paper.year) if part)
        meta = [html.escape(venue)] if venue else []
        if links := links_html(paper.ids):
            meta.append(links)
        self.meta.setText(" · ".join(meta))
        self.meta.setVisible(bool(meta))
        # The last explanation of this paper, if any; a newer one is asked for and
        # tints the abstract when it comes (the paper never waits for the ranking).
        self._show_abstract(paper, self.session.explain(paper))
        self._show_marks(paper)
        self._show_tags(paper)
        draft = self.note_drafts.get(paper.id)
        note = (paper.note if draft is None else draft).strip()
        label = "Note" if draft is None else "Note (not saved yet)"
        self.note.setText(f"{label}: {note}" if note else "")
        self.note.setVisible(bool(note))

    def show_unreadable(self, reason: str) -> None:
        """The paper to show could not be read: say why; the papers to decide are kept."""
        self._show_empty(
            f"This paper could not be read: {reason}\n"
            "The papers still to decide are kept: J tries the next one, K goes back."
        )

    def _show_empty(self, text: str) -> None:
        """No paper, and why, in its place."""
        self._show_bar(None)
        for widget in (self.position, self.title, self.authors, self.meta, self.abstract):
            widget.hide()
        for widget in (self.why, self.marks, self.tag_line, self.note):
            widget.hide()
        self.empty.setText(text)
        self.empty.show()

    def _show_abstract(self, paper: Paper, explanation: Explanation | None) -> None:
        palette = self.palette()
        if explanation is not None:
            explanation = calm(explanation, paper.abstract) if self.show_why else None
        body = abstract_html(
            paper.abstract.strip() or "No abstract.",
            self.session.search_terms(),
            paper.annotations,
            word_styles(palette, explanation, self.always_words),
        )
        self.abstract.setHtml(f"<div style='line-height:145%'>{body}</div>")
        self.why.setText(why_html(palette, explanation))
        self.why.setVisible(bool(self.why.text()))

    def show_explanation(self, paper_id: int, explanation: Explanation | None) -> None:
        """'Why this paper' arrived from the ranking: tint the abstract if still shown."""
        paper = self.session.paper
        if paper is not None and paper.id == paper_id:
            self._show_abstract(paper, explanation)

    def _show_marks(self, paper: Paper) -> None:
        items = []
        for mark in paper.annotations:
            comment = f" — {html.escape(mark.comment)}" if mark.comment else ""
            items.append(
                f"<span style='background-color:{mark.colour};color:#000'>&nbsp;"
                f"{html.escape(mark.quote)}&nbsp;</span>{comment}"
            )
        self.marks.setText("<br>".join(items))
        self.marks.setVisible(bool(items))

    def _show_tags(self, paper: Paper) -> None:
        shown = ", ".join(html.escape(t) for t in paper.tags) or "no tags"
        keys = [
            f"Alt+{number} {html.escape(name)}"
            for number, name in enumerate(self.first_tags(), start=1)
        ]
        legend = f"<br>{' · '.join(keys)}" if keys else ""
        self.tag_line.setText(f"Tags: {shown}{legend}")
        self.tag_line.show()

    def first_tags(self) -> list[str]:
        return sorted(self.tag_names(), key=str.casefold)[:TAG_KEYS]

    def show_progress(self, progress: Progress) -> None:
        self.progress_line.setText(progress.text())
        self.progress_bar.setMaximum(max(progress.total, 1))
        self.progress_bar.setValue(progress.decided)

    def show_stats(self, stats: TriageStats) -> None:
        self.hint.setText(f"Stopping hint: {stats.stopping_hint()}.")

    def show_message(self, text: str) -> None:
        self.hint.setText(text)

    def toggle_why(self) -> None:
        """W: 'why this paper' off (no line, no tint) or back on, for this paper too."""
        self.show_why = not self.show_why
        paper = self.session.paper
        if paper is not None:
            self._show_abstract(paper, self.session.explain(paper))
        self.why_toggled.emit(self.show_why)

    def set_always_words(self, words: Sequence[str]) -> None:
        self.always_words = list(words)
        if self.session.paper is not None:
            self.show_paper(self.session.paper)

    # ------------------------------------------------------------------ bars

    def _show_bar(self, bar: QWidget | None) -> None:
        bars = (self.tag_bar, self.note_bar, self.highlight_bar, self.reason_bar)
        for widget in (*bars, self.select_hint):
            widget.setVisible(widget is bar)
        if bar is None:
            self.abstract.stop_selecting()
            self.setFocus(Qt.FocusReason.OtherFocusReason)

    def _discard(self, modifiers: Qt.KeyboardModifier) -> None:
        """X: discard; asking why when the screening lists exclusion reasons (Shift+X:
        always, to give the first reason)."""
        screening = self.session.screening
        reasons = list(screening.reasons) if screening is not None else []
        if self.session.paper is None or not (
            reasons or modifiers & Qt.KeyboardModifier.ShiftModifier
        ):
            self.session.decide(Decision.DISCARD)
            return
        self._show_bar(self.reason_bar)
        self.reason_bar.open(reasons)

    def _on_reason(self, reason: str | None) -> None:
        self._show_bar(None)
        self.session.decide(Decision.DISCARD, reason)

    def _on_tags(self, names: list[str]) -> None:
        paper = self.session.paper
        self._show_bar(None)
        if paper is not None:
            tags.add_tags(self.session.operations, [paper.id], names)

    def _on_note(self, text: str) -> None:
        paper = self.session.paper
        self._show_bar(None)
        if paper is None:
            return
        # What was submitted replaces any draft, typed over the note the draft was.
        based_on = self.note_drafts.based_on(paper.id, paper.note)
        self.note_drafts.take(paper.id)
        if text.strip() != paper.note.strip():
            operations, drafts = self.session.operations, self.note_drafts
            notes.save_note(operations, drafts, paper.id, text, based_on, self.show_message)

    def _on_selection_done(self, accepted: bool) -> None:
        if accepted and self.abstract.selection() is not None:
            self._open_highlight()
        else:
            self._show_bar(None)

    def _open_highlight(self) -> None:
        paper = self.session.paper
        selection = self.abstract.selection()
        if paper is None or selection is None:
            return
        passage = passage_at(paper.abstract, *selection)
        if passage is None:
            self._show_bar(None)
            return
        self._passage = passage
        self._show_bar(self.highlight_bar)
        self.highlight_bar.open(passage[2])

    def _on_highlight(self, colour: str, comment: str) -> None:
        paper, passage = self.session.paper, self._passage
        self._show_bar(None)
        if paper is not None and passage is not None:
            start, stop, quote = passage
            highlights.highlight(
                self.session.operations, paper.id, start, stop, quote, colour, comment
            )

    # ------------------------------------------------------------------ keys

    def _key_action(self, event: QKeyEvent) -> Callable[[], None] | None:
        """What a key does in the triage view (None: not a triage key)."""
        key = event.key()
        modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
        plain = modifiers in (Qt.KeyboardModifier.NoModifier, Qt.KeyboardModifier.ShiftModifier)
        session = self.session
        if modifiers == Qt.KeyboardModifier.AltModifier and key in _DIGITS and _DIGITS[key]:
            return partial(self._toggle_tag, _DIGITS[key] - 1)
        if modifiers == Qt.KeyboardModifier.ControlModifier and key == Qt.Key.Key_Z:
            return session.undo
        if event.text() == "?":
            return self.overlay.open
        if not plain:
            return None
        if (
            key in _DIGITS
            and _DIGITS[key] <= MAX_RATING
            and modifiers == Qt.KeyboardModifier.NoModifier
        ):
            return partial(self._rate, _DIGITS[key])
        actions: dict[int, Callable[[], None]] = {
            Qt.Key.Key_S: partial(session.decide, Decision.KEEP),
            Qt.Key.Key_M: partial(session.decide, Decision.MAYBE),
            Qt.Key.Key_X: partial(self._discard, modifiers),
            Qt.Key.Key_T: self._open_tags,
            Qt.Key.Key_N: self._open_note,
            Qt.Key.Key_H: self._highlight,
            Qt.Key.Key_J: session.next,
            Qt.Key.Key_Down: session.next,
            Qt.Key.Key_Right: session.next,
            Qt.Key.Key_K: session.previous,
            Qt.Key.Key_Up: session.previous,
            Qt.Key.Key_Left: session.previous,
            Qt.Key.Key_L: session.more_like_this,
            Qt.Key.Key_W: self.toggle_why,
            Qt.Key.Key_U: session.undo,
            Qt.Key.Key_Escape: self.leave_requested.emit,
            Qt.Key.Key_Space: partial(self._scroll, modifiers),
            Qt.Key.Key_PageDown: partial(self._scroll, Qt.KeyboardModifier.NoModifier),
            Qt.Key.Key_PageUp: partial(self._scroll, Qt.KeyboardModifier.ShiftModifier),
        }
        return actions.get(key)

    def event(self, event: QEvent) -> bool:
        # The window's own keys (letters set a status there) must not fire in triage.
        if (
            event.type() == QEvent.Type.ShortcutOverride
            and isinstance(event, QKeyEvent)
            and self._key_action(event) is not None
        ):
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        action = self._key_action(event)
        if action is None:
            super().keyPressEvent(event)
            return
        action()

    def _rate(self, rating: int) -> None:
        paper = self.session.paper
        if paper is not None:
            papers.set_rating(self.session.operations, [paper.id], rating)

    def _toggle_tag(self, number: int) -> None:
        paper = self.session.paper
        first = self.first_tags()
        if paper is not None and number < len(first):
            tags.toggle_tag(self.session.operations, [paper.id], first[number])

    def _open_tags(self) -> None:
        if self.session.paper is not None:
            self._show_bar(self.tag_bar)
            self.tag_bar.open(self.tag_names())

    def _open_note(self) -> None:
        """N: the paper's note, or the draft of it whose save failed."""
        paper = self.session.paper
        if paper is not None:
            draft = self.note_drafts.get(paper.id)
            self._show_bar(self.note_bar)
            self.note_bar.open(paper.note if draft is None else draft)

    def _highlight(self) -> None:
        """H: the passage selected with the mouse, else select one by keyboard first."""
        if self.session.paper is None:
            return
        if self.abstract.selection() is not None:
            self._open_highlight()
            return
        self._show_bar(self.select_hint)
        self.abstract.start_selecting()

    def _scroll(self, modifiers: Qt.KeyboardModifier) -> None:
        bar = self.abstract.verticalScrollBar()
        step = bar.pageStep()
        bar.setValue(
            bar.value() - step
            if modifiers & Qt.KeyboardModifier.ShiftModifier
            else bar.value() + step
        )

"""A Markdown note editor that saves itself, and its preview.

Text is saved ~600 ms after the user stops typing, and at once when the editor loses
focus, when another paper is shown and when the window closes (`flush`). So at most the
last fraction of a second of typing is at risk in a crash, and nothing on a normal close.
A save the store refused (a team library's server away) is kept as a draft (the
window's `NoteDrafts`, shared with the triage view's note bar): the editor shows a
paper's draft instead of its stored note, the next flush saves it, and so does `retry`.

The preview renders math as abstracts do (`$O(n^2)$` -> O(n²)). It loads nothing a
note names (no images, no files) and follows a link only when clicked, and only an
http(s) one, in the browser.
"""

from __future__ import annotations

import re

from PySide6.QtCore import QEvent, QObject, QTimer, QUrl, Signal
from PySide6.QtGui import QFontDatabase, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QTabWidget, QTextBrowser, QWidget

from paperdesk.gui.actions.notes import NoteDrafts
from paperdesk.gui.widgets.links import open_link
from paperdesk.services.use_cases.note_drafts import Draft
from paperdesk.text import to_plain

SAVE_DELAY_MS = 600
# Code is left as written; math is `$...$` or `$$...$$` as Pandoc reads it: no blank
# just inside the dollars and no digit right after, so "$5 and $10" stays money.
_CODE_OR_MATH = re.compile(
    r"(?P<code>```.*?```|`[^`\n]*`)"
    r"|(?P<math>\$\$[^$]+?\$\$|\$(?!\s)[^$\n]+?(?<!\s)\$(?!\d))",
    re.DOTALL,
)
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>#|~])")


def markdown_with_math(text: str) -> str:
    """The note's Markdown with each math span replaced by the text a reader sees."""

    def render(match: re.Match[str]) -> str:
        if match.group("code"):
            return match.group("code")
        return _MARKDOWN_SPECIAL.sub(r"\\\1", to_plain(match.group("math")))

    return _CODE_OR_MATH.sub(render, text)


class NotePreview(QTextBrowser):
    """Rendered Markdown that fetches nothing and opens only clicked http(s) links."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(lambda url: open_link(url.toString()))

    def loadResource(self, kind: int, name: QUrl | str) -> object:
        # An image or style sheet named in a note is never read: not from disk, not
        # from the network (a note may come from someone else's export).
        return None

    def show_markdown(self, text: str) -> None:
        # MarkdownNoHTML: raw HTML in a note is shown as text, never interpreted.
        self.document().setMarkdown(
            markdown_with_math(text), QTextDocument.MarkdownFeature.MarkdownNoHTML
        )


class NoteEditor(QTabWidget):
    """`save_requested(paper_id, text, based_on)` fires when the note of that paper must
    be stored; `based_on` is the note the text was typed over (None: not known)."""

    save_requested = Signal(int, str, object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note_drafts = NoteDrafts()
        self.setDocumentMode(True)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("noteEditor")
        self.editor.setPlaceholderText("Notes (Markdown) — saved as you type")
        self.editor.setAccessibleName("Note")
        self.editor.setTabChangesFocus(True)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.preview = NotePreview()
        self.preview.setAccessibleName("Note preview")
        self.addTab(self.editor, "Note")
        self.addTab(self.preview, "Preview")
        self.currentChanged.connect(self._on_tab_changed)

        self._paper_id: int | None = None
        # What the store holds for this paper as far as we know, or what was last sent.
        self._saved_text = ""
        self._loading = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SAVE_DELAY_MS)
        self._timer.timeout.connect(self.flush)
        self.editor.textChanged.connect(self._on_text_changed)
        self.editor.installEventFilter(self)

    def paper_id(self) -> int | None:
        return self._paper_id

    def text(self) -> str:
        return self.editor.toPlainText()

    def is_dirty(self) -> bool:
        """Whether the text shown is not stored: typed since, or its save failed (then
        it is the paper's draft)."""
        paper_id, text = self._paper_id, self.text()
        return paper_id is not None and (
            text != self._saved_text or self.note_drafts.get(paper_id) == text
        )

    def show_note(self, paper_id: int | None, text: str) -> None:
        """Show another paper's note, saving the current one first if it changed."""
        if paper_id != self._paper_id:
            self.flush()
        elif self.is_dirty():
            # The stored note of this paper changed while the user is typing in it:
            # the user's text wins; it is saved on the next flush.
            return
        self._paper_id = paper_id
        self._saved_text = text
        draft = self.note_drafts.get(paper_id) if paper_id is not None else None
        shown = text if draft is None else draft  # a draft stays unsaved (dirty)
        self._loading = True
        try:
            if self.editor.toPlainText() != shown:
                self.editor.setPlainText(shown)
        finally:
            self._loading = False
        self.editor.setEnabled(paper_id is not None)
        if self.currentWidget() is self.preview:
            self._render_preview()

    def flush(self) -> None:
        """Save now if the text differs from what was last saved or loaded."""
        self._timer.stop()
        if self.is_dirty():
            assert self._paper_id is not None
            text = self.text()
            based_on = self.note_drafts.based_on(self._paper_id, self._saved_text)
            self._saved_text = text
            self.note_drafts.take(self._paper_id)  # this save holds the newest text
            self.save_requested.emit(self._paper_id, text, based_on)

    def drafts(self) -> dict[int, Draft]:
        """The drafts, and the text being edited if it is not saved yet."""
        paper_id = self._paper_id
        unsaved = (
            {paper_id: Draft(self.text(), self.note_drafts.based_on(paper_id, self._saved_text))}
            if self.is_dirty() and paper_id is not None
            else {}
        )
        return {**self.note_drafts.all(), **unsaved}

    def add_drafts(self, drafts: dict[int, Draft]) -> None:
        """Drafts kept by an earlier window (`retry` saves them)."""
        for paper_id, draft in drafts.items():
            self.note_drafts.keep(paper_id, draft.text, draft.based_on)

    def retry(self) -> None:
        """Save the drafts and the text being edited again (the store takes them now)."""
        for paper_id, draft in self.note_drafts.all().items():
            if paper_id != self._paper_id:  # the flush below saves the one shown
                self.note_drafts.take(paper_id)
                self.save_requested.emit(paper_id, draft.text, draft.based_on)
        self.flush()

    def _on_text_changed(self) -> None:
        if not self._loading and self._paper_id is not None:
            self._timer.start()

    def _on_tab_changed(self) -> None:
        if self.currentWidget() is self.preview:
            self.flush()
            self._render_preview()

    def _render_preview(self) -> None:
        self.preview.show_markdown(self.text())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.editor and event.type() == QEvent.Type.FocusOut:
            self.flush()
        return super().eventFilter(watched, event)

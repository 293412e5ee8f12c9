"""A paper's note, and the drafts of notes the library refused to save.

A save that fails keeps its text as a draft, whichever editor it came from: the
detail pane's note editor and the triage view's note bar both open a paper's note on
its draft, and the next save of that paper (or `NoteEditor.retry`, once a team
library's server is back) stores it.
"""

from __future__ import annotations

from collections.abc import Callable

from paperdesk.gui.actions.offline import DRAFT_KEPT, is_offline_refusal
from paperdesk.gui.operations import Operations
from paperdesk.services.use_cases import notes
from paperdesk.services.use_cases.note_drafts import Draft


class NoteDrafts:
    """Paper id -> the note text whose save failed (newest text of each paper), and the
    note it was typed over."""

    def __init__(self) -> None:
        self._drafts: dict[int, Draft] = {}

    def get(self, paper_id: int) -> str | None:
        draft = self._drafts.get(paper_id)
        return None if draft is None else draft.text

    def based_on(self, paper_id: int, otherwise: str) -> str | None:
        """The note the paper's draft was typed over, or `otherwise` with no draft."""
        draft = self._drafts.get(paper_id)
        return otherwise if draft is None else draft.based_on

    def keep(self, paper_id: int, text: str, based_on: str | None) -> None:
        self._drafts[paper_id] = Draft(text, based_on)

    def take(self, paper_id: int) -> Draft | None:
        """Forget the paper's draft (a newer save holds it now), answering what it was."""
        return self._drafts.pop(paper_id, None)

    def all(self) -> dict[int, Draft]:
        return dict(self._drafts)


def save_note(
    operations: Operations,
    drafts: NoteDrafts,
    paper_id: int,
    text: str,
    based_on: str | None,
    tell: Callable[[str], None],
) -> None:
    """Store the paper's note, typed over `based_on` (if the stored note is no longer
    that, both are kept). A refusal keeps `text` as the paper's draft; a team library
    whose server is away says so with `tell` (the draft is saved once it is back), any
    other failure is reported as every action's is."""

    def failed(error: BaseException) -> None:
        drafts.keep(paper_id, text, based_on)
        if is_offline_refusal(operations.desk, error):
            tell(DRAFT_KEPT)
        else:
            operations.errors.report("Saving the note", error)

    def saved() -> None:
        drafts.take(paper_id)

    operations.perform(
        "Saving the note",
        lambda desk: notes.set_note(desk, paper_id, text, based_on),
        on_error=failed,
        before_apply=saved,
    )

"""Annotations: passages of an abstract the user marked, with a colour and a comment.

Each write is one journaled action, so undo takes a mark away or brings it back.
"""

from __future__ import annotations

from sqlalchemy import delete, insert, select, update

from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.rules import clean_colour
from paperdesk.store.database import SubStore, Write
from paperdesk.store.papers import require_ids
from paperdesk.store.tables import annotations_t, now


class AnnotationStore(SubStore):
    def add(
        self, paper_id: int, start: int, stop: int, quote: str, colour: str, comment: str = ""
    ) -> Changes:
        """Mark `quote`, found at `start`..`stop` of the abstract as a reader sees it."""
        colour = _colour(colour)
        if not 0 <= start < stop or not quote.strip():
            raise InvalidValueError("select a passage of the abstract to highlight")
        with self._db.action("Highlight passage") as w:
            (paper_id,) = require_ids(w.connection, [paper_id])
            with w.journal.tracked(annotations_t, annotations_t.c.paper_id == paper_id):
                w.connection.execute(
                    insert(annotations_t).values(
                        paper_id=paper_id,
                        start=start,
                        stop=stop,
                        quote=quote,
                        colour=colour,
                        comment=comment.strip(),
                        created=now(),
                    )
                )
        return w.changes

    def edit(self, annotation_id: int, colour: str, comment: str) -> Changes:
        """Give a marked passage another colour or comment."""
        colour = _colour(colour)
        with self._db.action("Edit highlight") as w:
            _require_annotation(w, annotation_id)
            with w.journal.tracked_ids(annotations_t, "id", [annotation_id]):
                w.connection.execute(
                    update(annotations_t)
                    .where(annotations_t.c.id == annotation_id)
                    .values(colour=colour, comment=comment.strip())
                )
        return w.changes

    def remove(self, annotation_id: int) -> Changes:
        with self._db.action("Remove highlight") as w:
            _require_annotation(w, annotation_id)
            with w.journal.tracked_ids(annotations_t, "id", [annotation_id]):
                w.connection.execute(
                    delete(annotations_t).where(annotations_t.c.id == annotation_id)
                )
        return w.changes


def _colour(colour: str) -> str:
    cleaned = clean_colour(colour)
    if cleaned is None:
        raise InvalidValueError("a highlight needs a colour")
    return cleaned


def _require_annotation(w: Write, annotation_id: int) -> None:
    query = select(annotations_t.c.id).where(annotations_t.c.id == annotation_id)
    if w.connection.scalar(query) is None:
        raise NotFoundError(f"no highlight with id {annotation_id}")

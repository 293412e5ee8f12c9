"""Notes: one Markdown note per paper, with when it was written and last changed.

In a team library each member has their own note of a paper (store/member_values.py).
"""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert, select, update

from paperdesk.core.changes import Changes
from paperdesk.store.database import SubStore, Write
from paperdesk.store.member_values import own_note, set_own_note
from paperdesk.store.papers import require_ids
from paperdesk.store.tables import notes_t, now


class NoteStore(SubStore):
    def set(self, paper_id: int, body: str, based_on: str | None = None) -> Changes:
        """Replace the note; a blank body removes it.

        `based_on`: the note as the writer last read it. If the stored note is no longer
        that (the same member changed it on another machine meanwhile, say while this one
        was offline), neither text is lost: the stored one is kept and `body` follows it.
        """
        with self._db.action("Edit note") as w:
            (paper_id,) = require_ids(w.connection, [paper_id])
            if based_on is not None:
                body = both_texts(self._read(w, paper_id), based_on, body)
            self._write(w, paper_id, body)
        return w.changes

    def append(self, paper_id: int, markdown: str) -> Changes:
        """Add a paragraph to the end of the note (a blank line apart from what is there)."""
        with self._db.action("Append to note") as w:
            (paper_id,) = require_ids(w.connection, [paper_id])
            existing = self._read(w, paper_id).rstrip()
            self._write(w, paper_id, f"{existing}\n\n{markdown}" if existing else markdown)
        return w.changes

    def _read(self, w: Write, paper_id: int) -> str:
        if self._db.member is not None:
            return own_note(w.connection, paper_id, self._db.member)
        query = select(notes_t.c.body).where(notes_t.c.paper_id == paper_id)
        return w.connection.scalar(query) or ""

    def _write(self, w: Write, paper_id: int, body: str) -> None:
        if self._db.member is not None:
            set_own_note(w, paper_id, self._db.member, body)
            return
        with w.journal.tracked_ids(notes_t, "paper_id", [paper_id]):
            write_note(w.connection, paper_id, body)


def both_texts(stored: str, based_on: str, body: str) -> str:
    """`body`, or the stored note then `body` when the stored note changed since the
    writer read `based_on` (and is neither empty nor `body` already)."""
    if stored.strip() in ("", based_on.strip(), body.strip()):
        return body
    return f"{stored.rstrip()}\n\n{body}"


def write_note(connection: Connection, paper_id: int, body: str) -> None:
    """Set a paper's note (a blank body removes it), keeping when it was first written."""
    stamp = now()
    existing = connection.scalar(select(notes_t.c.created).where(notes_t.c.paper_id == paper_id))
    if not body.strip():
        connection.execute(delete(notes_t).where(notes_t.c.paper_id == paper_id))
    elif existing is None:
        connection.execute(
            insert(notes_t).values(paper_id=paper_id, body=body, created=stamp, updated=stamp)
        )
    else:
        connection.execute(
            update(notes_t)
            .where(notes_t.c.paper_id == paper_id, notes_t.c.body != body)
            .values(body=body, updated=stamp)
        )

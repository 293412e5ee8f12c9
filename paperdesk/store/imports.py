"""Imports: where papers came from (one batch per imported file) and the bulk write path.

An import writes with executemany over chunks, never one ORM object per row, and a
whole file lands in one transaction or not at all (DESIGN §3: imports are atomic per
file). It is one undoable action, journaled without copying its new rows (`commit`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, func, insert, select, update

from paperdesk.core.errors import Cancelled, StalePlanError
from paperdesk.core.models import ImportBatch, PaperRecord, Status, UserData
from paperdesk.core.text import fingerprint, title_key
from paperdesk.store.database import SubStore
from paperdesk.store.import_user_data import write_user_data
from paperdesk.store.papers import touch
from paperdesk.store.tables import (
    authors_t,
    batch_papers_t,
    batches_t,
    chunked,
    now,
    papers_t,
    state_t,
)

#: New papers written per executemany round (a cancel is noticed between rounds).
INSERT_CHUNK = 2000


@dataclass(frozen=True)
class NewPaper:
    """A record to store as a new paper, with what the import decided for it.

    `keys` are its match keys (services.matching.record_keys: "fingerprint" always,
    "title" for a real title), computed once while planning.
    """

    record: PaperRecord
    keys: Mapping[str, str]
    citation_key: str | None = None

    @classmethod
    def of(cls, record: PaperRecord) -> NewPaper:
        """A record stored as it is, with its own key (tests, and code that matched nothing)."""
        keys = {
            "fingerprint": fingerprint(record.title, record.abstract),
            "title": title_key(record.title, record.title_is_derived),
        }
        return cls(record, {k: v for k, v in keys.items() if v}, record.citation_key)


@dataclass
class PlanBasis:
    """The library an import was planned against: how many papers, the highest id, and
    when each paper it merges into was last changed."""

    count: int
    last_id: int
    updated: dict[int, datetime] = field(default_factory=dict)


@dataclass(frozen=True)
class BatchRecord:
    """The provenance of one imported file, with what its import did."""

    label: str
    file_name: str
    sha256: str
    format: str
    added: int = 0
    merged: int = 0
    unchanged: int = 0
    skipped: int = 0


class ImportStore(SubStore):
    def batches(self) -> list[ImportBatch]:
        """Every import, oldest first."""
        with self._db.read() as connection:
            return list_batches(connection)

    def batch_paper_ids(self, batch_id: int) -> list[int]:
        with self._db.read() as connection:
            query = select(batch_papers_t.c.paper_id).where(batch_papers_t.c.batch_id == batch_id)
            return list(connection.scalars(query))

    def papers_first_imported_from(self, file_name: str) -> set[int]:
        """Papers whose first import was a file of this name: their text is that file's."""
        first = (
            select(batch_papers_t.c.paper_id, func.min(batch_papers_t.c.batch_id).label("batch_id"))
            .group_by(batch_papers_t.c.paper_id)
            .subquery()
        )
        query = (
            select(first.c.paper_id)
            .join(batches_t, batches_t.c.id == first.c.batch_id)
            .where(batches_t.c.file_name == file_name)
        )
        with self._db.read() as connection:
            return set(connection.scalars(query))

    def basis(self) -> PlanBasis:
        """What an import plan assumes of the library (checked again at commit)."""
        with self._db.snapshot() as connection:
            count, last = connection.execute(
                select(func.count(), func.coalesce(func.max(papers_t.c.id), 0))
            ).one()
        return PlanBasis(int(count), int(last))

    def commit(
        self,
        description: str,
        new_papers: Sequence[NewPaper | PaperRecord],
        *,
        updates: Mapping[int, Mapping[str, Any]] | None = None,
        batch: BatchRecord | None = None,
        present_ids: Sequence[int] = (),
        basis: PlanBasis | None = None,
        cancelled: Callable[[], bool] | None = None,
        user: Mapping[int, UserData] | None = None,
    ) -> list[int]:
        """Write one file's import in one transaction, as one undoable action; returns
        the new papers' ids, in order.

        `updates` are merged values by paper id; a negative id -n is the n-th new paper.
        `user` is the user data (tags, note, shortlists) the file gives papers, by the
        same ids (store/import_user_data.py); a new paper's status and rating are its
        record's.
        `batch` records the file with the papers it held (`present_ids` and the new
        ones). StalePlanError when the library is not as `basis` says (plan again);
        Cancelled when `cancelled()` turns true. Either way nothing was written.

        Undo deletes the new papers and puts the merged papers back as they were; the
        journal holds only the merged papers' former values and the new papers' id
        range (store/journal.py Step), never a copy of every new row.
        """
        updates = updates or {}
        papers = [p if isinstance(p, NewPaper) else NewPaper.of(p) for p in new_papers]
        with self._db.action(description) as w:
            connection = w.connection
            if basis is not None:
                _check_basis(connection, basis)
            first_id = _next_paper_id(connection)
            new_ids = list(range(first_id, first_id + len(papers)))
            resolved = {(new_ids[-i - 1] if i < 0 else i): v for i, v in updates.items()}
            existing = [i for i in resolved if i < first_id]
            with (
                w.journal.tracked_ids(papers_t, "id", existing),
                w.journal.tracked_ids(state_t, "paper_id", existing),
                w.journal.tracked_ids(authors_t, "paper_id", existing),
            ):
                _insert_papers(connection, papers, first_id, cancelled)
                _update_papers(connection, resolved)
            users = {(new_ids[-i - 1] if i < 0 else i): v for i, v in (user or {}).items()}
            write_user_data(w, users, [i for i in users if i < first_id])
            if batch is not None:
                last_batch = connection.scalar(select(func.coalesce(func.max(batches_t.c.id), 0)))
                # The batch's links to the papers already there; those to the new
                # papers go with them (foreign keys), unjournaled.
                old_links = and_(
                    batch_papers_t.c.batch_id > last_batch, batch_papers_t.c.paper_id < first_id
                )
                with (
                    w.journal.tracked(batches_t, batches_t.c.id > last_batch),
                    w.journal.tracked(batch_papers_t, old_links),
                ):
                    record_batch(connection, batch, [*present_ids, *new_ids])
            if new_ids:
                w.journal.added_papers(new_ids[0], new_ids[-1])
            if cancelled is not None and cancelled():
                raise Cancelled  # leaving the block by an exception rolls the whole file back
        return new_ids


def list_batches(connection: Connection) -> list[ImportBatch]:
    # The dataclass has the table's columns, by name.
    rows = connection.execute(select(batches_t).order_by(batches_t.c.id))
    return [ImportBatch(**row._mapping) for row in rows]


def record_batch(connection: Connection, batch: BatchRecord, paper_ids: Sequence[int]) -> int:
    """Store the provenance of one imported file and which papers it held."""
    # The record's fields are the table's columns, by name.
    result = connection.execute(insert(batches_t).values(**asdict(batch), imported_at=now()))
    batch_id = int(result.inserted_primary_key[0])  # type: ignore[index]
    rows = [{"batch_id": batch_id, "paper_id": p} for p in dict.fromkeys(paper_ids)]
    if rows:
        connection.execute(insert(batch_papers_t), rows)
    return batch_id


def _paper_values(paper: NewPaper, stamp: datetime) -> dict[str, Any]:
    """Column values for a new paper row made from an imported record."""
    record, keys = paper.record, paper.keys
    return {
        "title": record.title,
        "title_is_derived": record.title_is_derived,
        "title_key": keys.get("title"),
        "venue": record.venue,
        "year": record.year,
        "abstract": record.abstract,
        "doi": record.ids.doi,
        "arxiv": record.ids.arxiv,
        "openreview": record.ids.openreview,
        "url": record.ids.url,
        "entry_type": record.entry_type,
        "citation_key": paper.citation_key,
        "added": stamp,
        "fingerprint": keys["fingerprint"],
        "raw_fields": json.dumps([list(pair) for pair in record.raw_fields]),
        "alternatives": "{}",
    }


def _insert_papers(
    connection: Connection,
    papers: Sequence[NewPaper],
    first_id: int,
    cancelled: Callable[[], bool] | None,
) -> None:
    """Insert new papers with their authors, ids `first_id`, `first_id + 1`... in order.

    Explicit ids let the papers and their authors go in as two executemany calls a
    chunk; a cancel is noticed between chunks.
    """
    stamp = now()
    for start in range(0, len(papers), INSERT_CHUNK):
        if cancelled is not None and cancelled():
            raise Cancelled
        chunk = papers[start : start + INSERT_CHUNK]
        rows = [
            {"id": first_id + start + offset, **_paper_values(paper, stamp)}
            for offset, paper in enumerate(chunk)
        ]
        connection.execute(insert(papers_t), rows)
        # Every paper has its state row: the status and rating its file gave (else new,
        # unrated), changed when it was added.
        connection.execute(
            insert(state_t),
            [
                {
                    "paper_id": row["id"],
                    "status": (paper.record.user.status or Status.NEW).value,
                    "rating": paper.record.user.rating or 0,
                    "updated": stamp,
                }
                for row, paper in zip(rows, chunk, strict=True)
            ],
        )
        author_rows = [
            {"paper_id": row["id"], "position": position, "name": name}
            for row, paper in zip(rows, chunk, strict=True)
            for position, name in enumerate(paper.record.authors)
        ]
        if author_rows:
            connection.execute(insert(authors_t), author_rows)


def _update_papers(connection: Connection, updates: Mapping[int, Mapping[str, Any]]) -> None:
    """Apply merged field values to existing papers (authors given as a tuple of names;
    a status or rating the file gives goes to the paper's state row)."""
    stamp = now()
    for paper_id, values in updates.items():
        values = dict(values)
        authors = values.pop("authors", None)
        state = {k: values.pop(k) for k in ("status", "rating") if k in values}
        if values:
            connection.execute(update(papers_t).where(papers_t.c.id == paper_id).values(**values))
        if state:
            where = state_t.c.paper_id == paper_id
            connection.execute(update(state_t).where(where).values(**state))
        touch(connection, [paper_id], stamp)
        if authors is not None:
            connection.execute(authors_t.delete().where(authors_t.c.paper_id == paper_id))
            connection.execute(
                insert(authors_t),
                [{"paper_id": paper_id, "position": i, "name": n} for i, n in enumerate(authors)],
            )


def _check_basis(connection: Connection, basis: PlanBasis) -> None:
    """StalePlanError unless the papers and the merge targets are as planned."""
    count, last = connection.execute(
        select(func.count(), func.coalesce(func.max(papers_t.c.id), 0))
    ).one()
    if (count, last) != (basis.count, basis.last_id):
        raise StalePlanError("papers were added or removed while the import was planned")
    for chunk in chunked(list(basis.updated)):
        query = select(state_t.c.paper_id, state_t.c.updated).where(state_t.c.paper_id.in_(chunk))
        if dict(connection.execute(query).all()) != {i: basis.updated[i] for i in chunk}:
            raise StalePlanError("a paper the import merges into changed meanwhile")


def _next_paper_id(connection: Connection) -> int:
    # Explicit ids let us insert papers and their authors in two executemany calls.
    return int(connection.scalar(select(func.coalesce(func.max(papers_t.c.id), 0))) or 0) + 1

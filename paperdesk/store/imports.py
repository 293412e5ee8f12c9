"""Imports: where papers came from (one batch per imported file) and the bulk write path.

An import writes with executemany over chunks, never one ORM object per row, and a
whole file lands in one transaction or not at all (DESIGN §3: imports are atomic per
file). It is recorded in the history but not journaled row by row, so it is not undone.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from paperdesk.core.errors import Cancelled
from paperdesk.core.models import ImportBatch, PaperRecord
from paperdesk.core.text import fingerprint, normalise_for_matching
from paperdesk.store.database import SubStore
from paperdesk.store.papers import touch
from paperdesk.store.tables import authors_t, batch_papers_t, batches_t, now, papers_t, state_t


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

    def commit(
        self,
        description: str,
        records: Sequence[PaperRecord],
        *,
        keys: Sequence[Mapping[str, str]] | None = None,
        updates: Mapping[int, Mapping[str, Any]] | None = None,
        batch: BatchRecord | None = None,
        present_ids: Sequence[int] = (),
        cancelled: Callable[[], bool] | None = None,
    ) -> list[int]:
        """Write one file's import in one transaction; returns the new papers' ids.

        `records` become new papers (`keys`: their match keys, when already computed);
        `updates` are merged values for existing papers; `batch` records the file with
        the papers it held (`present_ids` and the new ones). Cancelled when `cancelled()`
        turns true, and then nothing was written.
        """
        with self._db.action(description, undoable=False) as w:
            new_ids = _insert_papers(w.connection, records, keys)
            _update_papers(w.connection, updates or {})
            if batch is not None:
                record_batch(w.connection, batch, [*present_ids, *new_ids])
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


def _paper_values(
    record: PaperRecord, stamp: datetime, keys: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """Column values for a new paper row made from an imported record.

    `keys` are the record's match keys when the caller already computed them
    (services.matching.record_keys): normalising a 2,000-character abstract twice
    per paper is a measurable part of a 100,000-paper import.
    """
    if keys is None:
        title_key = None if record.title_is_derived else normalise_for_matching(record.title)
        content_key = fingerprint(record.title, record.abstract)
    else:
        title_key, content_key = keys.get("title"), keys["fingerprint"]
    return {
        "title": record.title,
        "title_is_derived": record.title_is_derived,
        "title_key": title_key,
        "venue": record.venue,
        "year": record.year,
        "abstract": record.abstract,
        "doi": record.ids.doi,
        "arxiv": record.ids.arxiv,
        "openreview": record.ids.openreview,
        "url": record.ids.url,
        "entry_type": record.entry_type,
        "citation_key": None,
        "added": stamp,
        "fingerprint": content_key,
        "raw_fields": json.dumps([list(pair) for pair in record.raw_fields]),
        "alternatives": "{}",
    }


def _insert_papers(
    connection: Connection,
    records: Sequence[PaperRecord],
    keys: Sequence[Mapping[str, str]] | None = None,
) -> list[int]:
    """Insert new papers with their authors; returns their ids in the records' order.

    `keys`, when given, are the records' precomputed match keys (see _paper_values).
    """
    stamp = now()
    ids: list[int] = []
    for start in range(0, len(records), 2000):
        chunk = records[start : start + 2000]
        first_id = _next_paper_id(connection)
        chunk_keys = keys[start : start + 2000] if keys is not None else [None] * len(chunk)
        rows = [
            {"id": first_id + offset, **_paper_values(record, stamp, record_keys)}
            for offset, (record, record_keys) in enumerate(zip(chunk, chunk_keys, strict=True))
        ]
        connection.execute(insert(papers_t), rows)
        # Every paper has its state row: new, unrated, changed when it was added.
        connection.execute(
            insert(state_t),
            [
                {"paper_id": row["id"], "status": "new", "rating": 0, "updated": stamp}
                for row in rows
            ],
        )
        author_rows = [
            {"paper_id": row["id"], "position": position, "name": name}
            for row, record in zip(rows, chunk, strict=True)
            for position, name in enumerate(record.authors)
        ]
        if author_rows:
            connection.execute(insert(authors_t), author_rows)
        ids.extend(row["id"] for row in rows)
    return ids


def _update_papers(connection: Connection, updates: Mapping[int, Mapping[str, Any]]) -> None:
    """Apply merged field values to existing papers (authors given as a tuple of names)."""
    stamp = now()
    for paper_id, values in updates.items():
        values = dict(values)
        authors = values.pop("authors", None)
        if values:
            connection.execute(update(papers_t).where(papers_t.c.id == paper_id).values(**values))
        touch(connection, [paper_id], stamp)
        if authors is not None:
            connection.execute(authors_t.delete().where(authors_t.c.paper_id == paper_id))
            connection.execute(
                insert(authors_t),
                [{"paper_id": paper_id, "position": i, "name": n} for i, n in enumerate(authors)],
            )


def _next_paper_id(connection: Connection) -> int:
    # Explicit ids let us insert papers and their authors in two executemany calls.
    return int(connection.scalar(select(func.coalesce(func.max(papers_t.c.id), 0))) or 0) + 1

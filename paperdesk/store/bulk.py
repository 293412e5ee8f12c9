"""Bulk writes for imports: executemany over chunks, never one ORM object per row.

These run inside `Library.bulk_write`, so a whole file lands in one transaction or not
at all (DESIGN §3: imports are atomic per file).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from paperdesk.core.models import PaperRecord
from paperdesk.core.text import fingerprint, normalise_for_matching
from paperdesk.store.library import (
    authors_t,
    batch_papers_t,
    batches_t,
    chunked,
    now,
    papers_t,
)


@dataclass(frozen=True)
class BatchInfo:
    label: str
    file_name: str
    sha256: str
    format: str


def record_batch(
    connection: Connection,
    info: BatchInfo,
    counts: Mapping[str, int],
    paper_ids: Sequence[int],
    when: datetime | None = None,
) -> int:
    """Store the provenance of one imported file and which papers it held."""
    result = connection.execute(
        insert(batches_t).values(
            label=info.label,
            file_name=info.file_name,
            sha256=info.sha256,
            format=info.format,
            added=counts.get("added", 0),
            merged=counts.get("merged", 0),
            unchanged=counts.get("unchanged", 0),
            skipped=counts.get("skipped", 0),
            imported_at=when or now(),
        )
    )
    batch_id = int(result.inserted_primary_key[0])  # type: ignore[index]
    rows = [{"batch_id": batch_id, "paper_id": p} for p in dict.fromkeys(paper_ids)]
    if rows:
        connection.execute(insert(batch_papers_t), rows)
    return batch_id


def paper_values(
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
        "status": "new",
        "rating": 0,
        "added": stamp,
        "updated": stamp,
        "fingerprint": content_key,
        "raw_fields": json.dumps([list(pair) for pair in record.raw_fields]),
        "alternatives": "{}",
    }


def insert_papers(
    connection: Connection,
    records: Sequence[PaperRecord],
    keys: Sequence[Mapping[str, str]] | None = None,
) -> list[int]:
    """Insert new papers with their authors; returns their ids in the records' order.

    `keys`, when given, are the records' precomputed match keys (see paper_values).
    """
    stamp = now()
    ids: list[int] = []
    for start in range(0, len(records), 2000):
        chunk = records[start : start + 2000]
        first_id = _next_paper_id(connection)
        chunk_keys = keys[start : start + 2000] if keys is not None else [None] * len(chunk)
        rows = [
            {"id": first_id + offset, **paper_values(record, stamp, record_keys)}
            for offset, (record, record_keys) in enumerate(zip(chunk, chunk_keys, strict=True))
        ]
        connection.execute(insert(papers_t), rows)
        author_rows = [
            {"paper_id": row["id"], "position": position, "name": name}
            for row, record in zip(rows, chunk, strict=True)
            for position, name in enumerate(record.authors)
        ]
        if author_rows:
            connection.execute(insert(authors_t), author_rows)
        ids.extend(row["id"] for row in rows)
    return ids


def update_papers(connection: Connection, updates: Mapping[int, Mapping[str, Any]]) -> None:
    """Apply merged field values to existing papers (authors given as a tuple of names)."""
    stamp = now()
    for paper_id, values in updates.items():
        values = dict(values)
        authors = values.pop("authors", None)
        if values:
            connection.execute(
                update(papers_t).where(papers_t.c.id == paper_id).values(**values, updated=stamp)
            )
        if authors is not None:
            connection.execute(authors_t.delete().where(authors_t.c.paper_id == paper_id))
            connection.execute(
                insert(authors_t),
                [{"paper_id": paper_id, "position": i, "name": n} for i, n in enumerate(authors)],
            )


def current_rows(connection: Connection, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Stored column values (and authors) of papers, for merging decisions."""
    result: dict[int, dict[str, Any]] = {}
    for chunk in chunked(list(ids)):
        for row in connection.execute(select(papers_t).where(papers_t.c.id.in_(chunk))):
            result[row.id] = {**row._mapping, "authors": ()}
        authors: dict[int, list[str]] = {}
        query = (
            select(authors_t.c.paper_id, authors_t.c.name)
            .where(authors_t.c.paper_id.in_(chunk))
            .order_by(authors_t.c.paper_id, authors_t.c.position)
        )
        for paper_id, name in connection.execute(query):
            authors.setdefault(paper_id, []).append(name)
        for paper_id, names in authors.items():
            result[paper_id]["authors"] = tuple(names)
    return result


def _next_paper_id(connection: Connection) -> int:
    # Explicit ids let us insert papers and their authors in two executemany calls.
    return int(connection.scalar(select(func.coalesce(func.max(papers_t.c.id), 0))) or 0) + 1

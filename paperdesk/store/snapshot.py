"""The whole library state in memory, read in bulk and restored in one transaction.

The state is what a JSON backup holds (paperdesk.formats.backup describes the shape):
a dict of sections, each a list of rows keyed by column name, with a paper's authors,
a shortlist's entries and an import batch's papers nested in their row. Every table
the user's work lives in is covered; history, the meta counters, a team library's
change log and the search index are not (they describe the old library or are
derived from the data).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from sqlalchemy import Connection, Table, func, insert, select
from sqlalchemy.exc import IntegrityError

from paperdesk.core.errors import InvalidValueError, LibraryError
from paperdesk.store.database import SubStore
from paperdesk.store.papers import STATE_COLUMNS
from paperdesk.store.schema import written_columns
from paperdesk.store.tables import (
    annotations_t,
    authors_t,
    batch_papers_t,
    batches_t,
    decisions_t,
    definitions_t,
    entries_t,
    finishes_t,
    generated_keys_t,
    highlight_words_t,
    not_duplicates_t,
    notes_t,
    paper_tags_t,
    papers_t,
    saved_t,
    screenings_t,
    shortlists_t,
    state_t,
    tags_t,
)

State = dict[str, list[dict[str, Any]]]

# Paper columns holding JSON text in the database and structured values in the state,
# each with how the store writes it (store/imports.py, services/use_cases/merging.py), so a restore
# gives back the very text that was backed up.
# (Encoders built once: json.dumps with an option builds a new one per call.)
_JSON_COLUMNS: dict[str, Callable[[Any], str]] = {
    "raw_fields": json.JSONEncoder().encode,
    "alternatives": json.JSONEncoder(ensure_ascii=False).encode,
}

# Tables whose rows the state carries one to one (the nested ones are handled apart).
_FLAT_TABLES: dict[str, Table] = {
    "tags": tags_t,
    "paper_tags": paper_tags_t,
    "notes": notes_t,
    "saved_searches": saved_t,
    "not_duplicates": not_duplicates_t,
    "annotations": annotations_t,
    "decisions": decisions_t,
    "highlight_words": highlight_words_t,
    "screenings": screenings_t,
    "screening_finishes": finishes_t,
    "bibtex_definitions": definitions_t,
    "generated_keys": generated_keys_t,
}

# What makes a library non-empty: every other table of user data hangs off a paper.
_OWN_ROWS = {
    "papers": papers_t,
    "tags": tags_t,
    "shortlists": shortlists_t,
    "saved searches": saved_t,
    "import batches": batches_t,
    "highlight words": highlight_words_t,
    "screenings": screenings_t,
}


class LibraryNotEmptyError(LibraryError):
    """A restore met a library that already holds data (a restore never merges)."""

    def __init__(self, held: Mapping[str, int]) -> None:
        self.held = dict(held)
        self.listed = ", ".join(f"{kind}: {count}" for kind, count in self.held.items())
        super().__init__(f"the library is not empty ({self.listed})")


class BackupStore(SubStore):
    """The whole library as one state, read and restored (what a JSON backup holds)."""

    def read_state(self) -> State:
        """Every table of user data, a few whole-table queries, one consistent snapshot."""
        with self._db.snapshot() as connection:
            return read_state(connection)

    def restore(self, state: Mapping[str, Sequence[Mapping[str, Any]]], description: str) -> None:
        """Fill an empty library with a state, ids preserved, in one transaction.

        LibraryNotEmptyError when the library holds data; InvalidValueError when the
        state breaks a database rule. Either way nothing is written.
        """
        # Not announced: the restore's service rebuilds the whole index after it.
        with self._db.action(description, undoable=False, announced=False) as w:
            held = occupied_tables(w.connection)
            if held:
                raise LibraryNotEmptyError(held)
            restore_state(w.connection, state)


def read_state(connection: Connection) -> State:
    """Every table of user data (inside the caller's read transaction)."""
    state = {
        "papers": _papers(connection),
        "shortlists": _nested(
            connection,
            shortlists_t,
            entries_t,
            "shortlist_id",
            "entries",
            order=(entries_t.c.position, entries_t.c.paper_id),
        ),
        "import_batches": _nested(
            connection,
            batches_t,
            batch_papers_t,
            "batch_id",
            "paper_ids",
            order=(batch_papers_t.c.paper_id,),
        ),
    }
    for name, table in _FLAT_TABLES.items():
        state[name] = _rows(connection, table)
    return state


def occupied_tables(connection: Connection) -> dict[str, int]:
    """How many rows of user data the library already has, by kind (empty: none)."""
    counts = {
        kind: int(connection.scalar(select(func.count()).select_from(table)) or 0)
        for kind, table in _OWN_ROWS.items()
    }
    return {kind: count for kind, count in counts.items() if count}


def restore_state(connection: Connection, state: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
    """Insert a whole state, ids preserved, into an empty library inside `connection`'s
    transaction. InvalidValueError when the state breaks a database rule the backup
    reader does not check; the caller's transaction then rolls everything back."""
    papers = state["papers"]
    shortlists = state["shortlists"]
    batches = state["import_batches"]
    try:
        _insert(connection, papers_t, [_paper_row(p) for p in papers])
        _insert(
            connection,
            state_t,
            [{"paper_id": p["id"], **{c: p[c] for c in STATE_COLUMNS}} for p in papers],
        )
        _insert(
            connection,
            authors_t,
            [
                {"paper_id": p["id"], "position": position, "name": name}
                for p in papers
                for position, name in enumerate(p["authors"])
            ],
        )
        _insert(connection, shortlists_t, [_columns(shortlists_t, s) for s in shortlists])
        # The order is the user's datum; positions are renumbered 1, 2, 3... as a
        # reorder does, since the float gaps left by drags mean nothing on their own.
        _insert(
            connection,
            entries_t,
            [
                {"shortlist_id": s["id"], "paper_id": paper_id, "position": float(position)}
                for s in shortlists
                for position, paper_id in enumerate(s["entries"], start=1)
            ],
        )
        _insert(connection, batches_t, [_columns(batches_t, b) for b in batches])
        _insert(
            connection,
            batch_papers_t,
            [{"batch_id": b["id"], "paper_id": p} for b in batches for p in b["paper_ids"]],
        )
        # After the batches: a batch's BibTeX definitions refer to it.
        for name, table in _FLAT_TABLES.items():
            _insert(connection, table, [_columns(table, row) for row in state[name]])
    except IntegrityError as error:
        raise InvalidValueError(f"the backup breaks a rule of the library: {error.orig}") from None


# --------------------------------------------------------------------------- reading


def _rows(connection: Connection, table: Table) -> list[dict[str, Any]]:
    order = list(table.primary_key.columns)
    query = select(*written_columns(table)).order_by(*order)
    return [dict(row._mapping) for row in connection.execute(query)]


def _papers(connection: Connection) -> list[dict[str, Any]]:
    authors: dict[int, list[str]] = defaultdict(list)
    query = select(authors_t.c.paper_id, authors_t.c.name).order_by(
        authors_t.c.paper_id, authors_t.c.position
    )
    for paper_id, name in connection.execute(query):
        authors[paper_id].append(name)
    states = {row.pop("paper_id"): row for row in _rows(connection, state_t)}
    papers = _rows(connection, papers_t)
    for paper in papers:
        for column in _JSON_COLUMNS:
            paper[column] = json.loads(paper[column])
        # A backup keeps a paper's state on the paper, as it was before the state
        # had a table of its own (store/schema.py PaperStateRow).
        paper.update(states[paper["id"]])
        paper["authors"] = authors.get(paper["id"], [])
    return papers


def _nested(
    connection: Connection,
    parent: Table,
    child: Table,
    parent_key: str,
    field: str,
    order: Iterable[Any],
) -> list[dict[str, Any]]:
    """Parent rows, each with the paper ids of its child rows as a list under `field`."""
    members: dict[int, list[int]] = defaultdict(list)
    query = select(child.c[parent_key], child.c.paper_id).order_by(child.c[parent_key], *order)
    for parent_id, paper_id in connection.execute(query):
        members[parent_id].append(paper_id)
    rows = _rows(connection, parent)
    for row in rows:
        row[field] = members.get(row["id"], [])
    return rows


# --------------------------------------------------------------------------- writing


def _columns(table: Table, row: Mapping[str, Any]) -> dict[str, Any]:
    return {column.name: row[column.name] for column in written_columns(table)}


def _paper_row(paper: Mapping[str, Any]) -> dict[str, Any]:
    row = _columns(papers_t, paper)
    for column, encode in _JSON_COLUMNS.items():
        row[column] = encode(paper[column])
    return row


def _insert(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    if rows:
        connection.execute(insert(table), rows)

"""Imports: where papers came from (one batch per imported file) and the bulk write path.

An import writes with executemany over chunks, never one ORM object per row, and a
whole file lands in one transaction or not at all (DESIGN §3: imports are atomic per
file). It is one undoable action, journaled without copying its new rows (`commit`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import datetime
from operator import itemgetter
from typing import Any, Protocol, runtime_checkable

from sqlalchemy import Connection, Table, and_, delete, func, insert, select, update

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled, StalePlanError
from paperdesk.core.models import (
    PREAMBLE,
    STRING,
    BibtexDefinitions,
    ImportBatch,
    PaperRecord,
    Status,
    UserData,
)
from paperdesk.core.text import fingerprint, title_key
from paperdesk.store.database import SubStore, bump_generation
from paperdesk.store.history import replay_candidate
from paperdesk.store.import_user_data import write_user_data
from paperdesk.store.journal import apply_states, steps_from_json
from paperdesk.store.journal_changes import changes_of, papers_touched
from paperdesk.store.papers import touch
from paperdesk.store.tables import (
    authors_t,
    batch_papers_t,
    batches_t,
    chunked,
    definitions_t,
    generated_keys_t,
    history_t,
    meta_t,
    now,
    papers_t,
    state_t,
)

#: New papers written per executemany round (a cancel is noticed between rounds).
INSERT_CHUNK = 2000
#: An import of at least this many new papers, and of more than the library holds,
#: builds the indexes of the tables it fills once its rows are in (`_bulk_writing`).
DEFERRED_INDEXES_FROM = 4000
#: SQLite's page cache while an import of that size into a larger library writes, in
#: KiB (the default is 2 MB).
BULK_CACHE_KIB = 65536
#: The tables an import fills, whose indexes `_bulk_writing` builds after the rows.
_BULK_TABLES = (papers_t.name, state_t.name, authors_t.name)


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


@runtime_checkable
class PaperChunks(Protocol):
    """New papers handed over a chunk at a time, so that they are never all in memory."""

    def __len__(self) -> int: ...

    def chunks(self) -> Iterator[list[NewPaper]]: ...


class _InMemory:
    """A list of records as PaperChunks."""

    def __init__(self, papers: Sequence[NewPaper | PaperRecord]) -> None:
        self._papers = [p if isinstance(p, NewPaper) else NewPaper.of(p) for p in papers]

    def __len__(self) -> int:
        return len(self._papers)

    def chunks(self) -> Iterator[list[NewPaper]]:
        for start in range(0, len(self._papers), INSERT_CHUNK):
            yield self._papers[start : start + INSERT_CHUNK]


@dataclass(frozen=True)
class ImportCommit:
    """What an import wrote: its new papers' ids, and what it changed (its history row
    is the one a cancel withdraws; None when it changed nothing)."""

    new_ids: list[int]
    changes: Changes


@dataclass
class PlanBasis:
    """The library an import was planned against: how many papers, the highest id, and
    when each paper it merges into was last changed."""

    count: int
    last_id: int
    updated: dict[int, datetime] = field(default_factory=dict)


@dataclass(frozen=True)
class PendingIndexing:
    """Papers an import stored but had not finished indexing, at `generation`."""

    generation: int
    paper_ids: list[int]


# The meta key of the papers an import is indexing (store.imports.PendingIndexing).
_PENDING_INDEXING = "import:pending-indexing"


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
    definitions: BibtexDefinitions = BibtexDefinitions()  # kept in a table of their own


class ImportStore(SubStore):
    def batches(self) -> list[ImportBatch]:
        """Every import, oldest first."""
        with self._db.read() as connection:
            return list_batches(connection)

    def batch_paper_ids(self, batch_id: int) -> list[int]:
        with self._db.read() as connection:
            query = select(batch_papers_t.c.paper_id).where(batch_papers_t.c.batch_id == batch_id)
            return list(connection.scalars(query))

    def definitions_for(self, paper_ids: Collection[int]) -> BibtexDefinitions:
        """The BibTeX definitions of the files these papers were imported from, the
        oldest import's first (each text and macro name once)."""
        wanted = set(paper_ids)
        if not wanted:
            return BibtexDefinitions()
        with self._db.read() as connection:
            rows = connection.execute(select(definitions_t).order_by(*definitions_t.primary_key))
            by_batch: dict[int, list[Any]] = {}
            for row in rows:
                by_batch.setdefault(row.batch_id, []).append(row)
            combined = BibtexDefinitions()
            for batch_id, definitions in by_batch.items():
                papers = batch_papers_t.c
                held = select(papers.paper_id).where(papers.batch_id == batch_id)
                if wanted.isdisjoint(connection.scalars(held)):
                    continue
                combined += BibtexDefinitions(
                    tuple(d.value for d in definitions if d.kind == PREAMBLE),
                    tuple((d.name, d.value) for d in definitions if d.kind == STRING),
                )
        return combined

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
        new_papers: Sequence[NewPaper | PaperRecord] | PaperChunks,
        *,
        updates: Mapping[int, Mapping[str, Any]] | None = None,
        batch: BatchRecord | None = None,
        present_ids: Sequence[int] = (),
        basis: PlanBasis | None = None,
        cancelled: Callable[[], bool] | None = None,
        user: Mapping[int, UserData] | None = None,
        index_current: bool = False,
    ) -> ImportCommit:
        """Write one file's import in one transaction, as one undoable action; returns
        the new papers' ids, in order, and the import's history row. The new papers
        may come a chunk at a time (`PaperChunks`: a plan's papers are kept in a file
        until written).

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

        `index_current`: the search index has every change before this import. The
        papers it touched are then noted as waiting to be indexed, in this same
        transaction (`pending_indexing`): indexing stopped half-way (the program
        killed) resumes at the next open with just them.
        """
        updates = updates or {}
        papers = new_papers if isinstance(new_papers, PaperChunks) else _InMemory(new_papers)
        # The service indexes an import's papers itself, with progress and a cancel
        # button (services/use_cases/importing.py), not as any other action's.
        with self._db.action(description, announced=False) as w:
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
                w.journal.tracked_ids(generated_keys_t, "paper_id", existing),
            ):
                with _bulk_writing(connection, len(papers)):
                    _insert_papers(connection, papers, first_id, cancelled)
                _update_papers(connection, resolved)
            users = {(new_ids[-i - 1] if i < 0 else i): v for i, v in (user or {}).items()}
            write_user_data(w, users, [i for i in users if i < first_id], self._db.member)
            if batch is not None:
                last_batch = connection.scalar(select(func.coalesce(func.max(batches_t.c.id), 0)))
                # The batch's links to the papers already there; those to the new
                # papers go with them (foreign keys), unjournaled.
                old_links = and_(
                    batch_papers_t.c.batch_id > last_batch, batch_papers_t.c.paper_id < first_id
                )
                # The batch is journaled innermost: its step comes first, so a redo
                # puts it back before the rows that refer to it.
                with (
                    w.journal.tracked(batch_papers_t, old_links),
                    w.journal.tracked(definitions_t, definitions_t.c.batch_id > last_batch),
                    w.journal.tracked(batches_t, batches_t.c.id > last_batch),
                ):
                    record_batch(connection, batch, [*present_ids, *new_ids])
            if new_ids:
                w.journal.added_papers(new_ids[0], new_ids[-1])
            touched = {*new_ids, *existing, *(i for i in users if i < first_id)}
            if index_current and touched:
                _note_pending_indexing(connection, touched)
            if cancelled is not None and cancelled():
                raise Cancelled  # leaving the block by an exception rolls the whole file back
        return ImportCommit(new_ids, w.changes)

    def pending_indexing(self) -> PendingIndexing | None:
        """The papers an import left to index, and the generation they belong to."""
        with self._db.read() as connection:
            value = connection.scalar(
                select(meta_t.c.value).where(meta_t.c.key == _PENDING_INDEXING)
            )
        if value is None:
            return None
        found = json.loads(value)
        ids = [i for first, last in found["ranges"] for i in range(first, last + 1)]
        return PendingIndexing(int(found["generation"]), ids)

    def withdraw(self, history_id: int) -> Changes | None:
        """Take back an import the user cancelled once it was written, as if it had never
        been: its new papers are deleted by their id range, the papers it merged into
        get their journaled values back, and its history row goes (there is nothing to
        redo). None unless it is still the newest action, not undone.

        Undo would read every new row into the journal first, for a redo: 33 s and
        1.3 GB for 100,000 papers, where this takes a few seconds and no memory.
        """
        with self._db.transaction() as connection:
            entry = replay_candidate(connection, undone=False, actor=self._db.member)
            if entry is None or entry.id != history_id:
                return None
            payload = connection.scalar(
                select(history_t.c.payload).where(history_t.c.id == history_id)
            )
            steps = steps_from_json(str(payload))
            journaled = [step for step in steps if step.added_ids is None]
            touched = papers_touched(connection, steps)  # the new papers among them
            apply_states(connection, journaled, undo=True)
            for step in steps:
                if step.added_ids is not None:
                    first, last = step.added_ids
                    # Their state, authors, links and user data go with them (cascades).
                    connection.execute(delete(papers_t).where(papers_t.c.id.between(first, last)))
            connection.execute(delete(history_t).where(history_t.c.id == history_id))
            generation = bump_generation(connection)
            changes = changes_of(
                connection, f"Cancel {entry.action}", steps, also=touched, generation=generation
            )
        self._db.announce(changes)
        return changes


def _note_pending_indexing(connection: Connection, paper_ids: Collection[int]) -> None:
    """Note an import's papers as waiting to be indexed at the generation its commit
    gives (the one after the current: the action's last statement raises it)."""
    current = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == "generation"))
    ranges = [[group[0], group[-1]] for group in _runs(sorted(paper_ids))]
    value = json.dumps({"generation": int(current or 0) + 1, "ranges": ranges})
    connection.execute(delete(meta_t).where(meta_t.c.key == _PENDING_INDEXING))
    connection.execute(insert(meta_t).values(key=_PENDING_INDEXING, value=value))


def _runs(ids: Sequence[int]) -> Iterator[list[int]]:
    """Sorted ids cut into runs of consecutive ones (an import's new papers are one)."""
    run: list[int] = []
    for paper_id in ids:
        if run and paper_id != run[-1] + 1:
            yield run
            run = []
        run.append(paper_id)
    if run:
        yield run


def list_batches(connection: Connection) -> list[ImportBatch]:
    # The dataclass has the table's columns, by name.
    rows = connection.execute(select(batches_t).order_by(batches_t.c.id))
    return [ImportBatch(**row._mapping) for row in rows]


def record_batch(connection: Connection, batch: BatchRecord, paper_ids: Sequence[int]) -> int:
    """Store the provenance of one imported file and which papers it held."""
    # The record's fields are the table's columns, by name, but for its definitions.
    columns = {k: v for k, v in asdict(batch).items() if k != "definitions"}
    result = connection.execute(insert(batches_t).values(**columns, imported_at=now()))
    batch_id = int(result.inserted_primary_key[0])  # type: ignore[index]
    # Straight to the driver: one row per paper, 100,000 for a large file.
    _insert_many(
        connection,
        batch_papers_t,
        [{"batch_id": batch_id, "paper_id": p} for p in dict.fromkeys(paper_ids)],
    )
    definitions = [
        *((PREAMBLE, "", text) for text in batch.definitions.preamble),
        *((STRING, name, text) for name, text in batch.definitions.strings),
    ]
    if definitions:
        connection.execute(
            insert(definitions_t),
            [
                {"batch_id": batch_id, "position": position, "kind": kind, "name": n, "value": v}
                for position, (kind, n, v) in enumerate(definitions)
            ],
        )
    return batch_id


def _paper_values(paper: NewPaper, stamp: Any) -> dict[str, Any]:
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
        "raw_fields": raw_fields_json(record),
        "alternatives": "{}",
    }


def raw_fields_json(record: PaperRecord, stored_abstract: str | None = None) -> str:
    """The record's source fields as stored, without those its row gives back verbatim.

    The abstract (`stored_abstract`, by default the record's), its ids and URL and its
    author list (as JSON lists it) are columns of the paper already: kept again here
    they were more than half of every row. The title stays: a BibTeX export reads the
    source's own title back as LaTeX.
    """
    abstract = record.abstract if stored_abstract is None else stored_abstract
    ids = record.ids
    stored = {abstract, ids.doi, ids.arxiv, ids.openreview, ids.url} - {None, ""}
    authors = _AUTHORS_JSON(list(record.authors)) if record.authors else None
    return json.dumps(
        [
            [name, value]
            for name, value in record.raw_fields
            if value not in stored and value != authors
        ]
    )


# As formats/json_reader keeps a list: one encoder, made once.
_AUTHORS_JSON = json.JSONEncoder(ensure_ascii=False).encode


@contextmanager
def _bulk_writing(connection: Connection, adding: int) -> Iterator[None]:
    """Inserting many new papers into SQLite: when they outnumber the papers there, the
    tables' secondary indexes are dropped first and made again after the rows (in the
    same transaction, so a kill or a cancel leaves them as they were); else the rows
    go into the indexes with a larger page cache.

    Row by row, each new paper went into seven indexes of the papers table at random
    places: at 100,000 papers the 2 MB cache spilled to the write-ahead log over and
    over, and the commit's CPU grew 12x for 7.5x the papers. An index made at the end
    is one sort (there the cache made no difference, and cost 74 MB at 100,000).
    """
    if connection.dialect.name != "sqlite" or adding < DEFERRED_INDEXES_FROM:
        yield
        return
    held = connection.scalar(select(func.count()).select_from(papers_t)) or 0
    if adding <= held:
        cache = connection.exec_driver_sql("PRAGMA cache_size").scalar()
        connection.exec_driver_sql(f"PRAGMA cache_size=-{BULK_CACHE_KIB}")
        try:
            yield
        finally:
            connection.exec_driver_sql(f"PRAGMA cache_size={cache}")
        return
    # pysqlite begins its transaction at the first INSERT, UPDATE or DELETE: a DROP
    # INDEX before it would be committed at once, and a kill or a cancel would leave
    # the indexes gone.
    if not connection.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
        connection.exec_driver_sql("BEGIN")
    places = ", ".join("?" * len(_BULK_TABLES))
    indexes = connection.exec_driver_sql(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index'"
        f" AND sql IS NOT NULL AND tbl_name IN ({places}) ORDER BY name",
        _BULK_TABLES,
    ).all()
    for name, _sql in indexes:
        connection.exec_driver_sql(f'DROP INDEX "{name}"')
    yield
    for _name, sql in indexes:
        connection.exec_driver_sql(sql)


def _insert_papers(
    connection: Connection,
    papers: PaperChunks,
    first_id: int,
    cancelled: Callable[[], bool] | None,
) -> None:
    """Insert new papers with their authors, ids `first_id`, `first_id + 1`... in order.

    Explicit ids let the papers and their authors go in as two executemany calls a
    chunk; a cancel is noticed between chunks.
    """
    stamp = now()
    # The time stamp as the driver takes it, once (not once a row: see _insert_many).
    dialect = connection.dialect
    stamped = papers_t.c.added.type.dialect_impl(dialect).bind_processor(dialect)
    stamp_value: Any = stamped(stamp) if stamped else stamp
    next_id = first_id
    for chunk in papers.chunks():
        if cancelled is not None and cancelled():
            raise Cancelled
        ids = range(next_id, next_id + len(chunk))
        next_id += len(chunk)
        _insert_many(
            connection,
            papers_t,
            [
                {"id": paper_id, **_paper_values(paper, stamp_value)}
                for paper_id, paper in zip(ids, chunk, strict=True)
            ],
        )
        # Every paper has its state row: the status and rating its file gave (else new,
        # unrated), changed when it was added.
        _insert_many(
            connection,
            state_t,
            [
                {
                    "paper_id": paper_id,
                    "status": (paper.record.user.status or Status.NEW).value,
                    "rating": paper.record.user.rating or 0,
                    "updated": stamp_value,
                }
                for paper_id, paper in zip(ids, chunk, strict=True)
            ],
        )
        _insert_many(
            connection,
            authors_t,
            [
                {"paper_id": paper_id, "position": position, "name": name}
                for paper_id, paper in zip(ids, chunk, strict=True)
                for position, name in enumerate(paper.record.authors)
            ],
        )


def _insert_many(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """executemany on the driver, the rows' values already as it takes them.

    SQLAlchemy's Core insert processes every parameter of every row in Python, a third
    of the time to store 100,000 papers; the statement is still SQLAlchemy's, compiled
    for the connection's dialect, so its parameter style is the driver's.
    """
    if not rows:
        return
    compiled = insert(table).compile(dialect=connection.dialect, column_keys=list(rows[0]))
    if compiled.positional:
        order: Sequence[str] = compiled.positiontup or []
        values = itemgetter(*order) if len(order) > 1 else lambda row: (row[order[0]],)
        connection.exec_driver_sql(compiled.string, [values(row) for row in rows])
    else:
        connection.exec_driver_sql(compiled.string, rows)  # type: ignore[arg-type]


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
        if "citation_key" in values:  # a file's key: no longer a generated one
            generated = generated_keys_t.c.paper_id == paper_id
            connection.execute(delete(generated_keys_t).where(generated))
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

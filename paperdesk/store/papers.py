"""Papers: reads (one, a page, all in batches, sorted ids), field edits and deletion.

Reads return core `Paper` dataclasses with their authors, tags, shortlists and note
attached, five queries per chunk of ids and never one per paper.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Select,
    Table,
    delete,
    func,
    null,
    or_,
    select,
    update,
)

from paperdesk.core import fields
from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.evidence import Evidence, evidence_of
from paperdesk.core.fields import Field, FieldType
from paperdesk.core.models import Annotation, Identifiers, Paper, PaperRecord, Status
from paperdesk.core.rules import check_rating, clean_title, rating_label
from paperdesk.core.team_values import TeamValues
from paperdesk.core.text import normalise_for_matching
from paperdesk.store.bulk import Groups, chosen_ids, missing_ids, read_groups
from paperdesk.store.database import SubStore, Write
from paperdesk.store.journal import Journal, Step
from paperdesk.store.member_values import own_rating, set_own_ratings, team_values
from paperdesk.store.tables import (
    annotations_t,
    authors_t,
    batch_papers_t,
    chunked,
    decisions_t,
    entries_t,
    generated_keys_t,
    insert_missing,
    member_values_t,
    meta_t,
    not_duplicates_t,
    notes_t,
    now,
    paper_tags_t,
    papers_t,
    shortlists_t,
    state_t,
    tags_t,
)

MatchKeys = tuple[int, str, str | None, str | None, str | None, str | None]
#: In `stored_values`: the paper's citation key was generated (pin-keys), not given by a file.
KEY_GENERATED = "key_generated"
#: A paper's fields kept in the narrow state table (store/schema.py PaperStateRow).
STATE_COLUMNS = ("status", "rating", "updated")
#: Papers with their state: every read of a whole paper or of its order goes through it.
PAPERS_WITH_STATE = papers_t.join(state_t, state_t.c.paper_id == papers_t.c.id)

#: The column each kind of match key lives in (services/use_cases/matching.py names the kinds).
MATCH_COLUMNS = {
    "doi": papers_t.c.doi,
    "arxiv": papers_t.c.arxiv,
    "openreview": papers_t.c.openreview,
    "title": papers_t.c.title_key,
    "fingerprint": papers_t.c.fingerprint,
}


def _order_by(field: Field) -> Any:
    """The SQL a sort key orders by: text without case, numbers and dates as they are."""
    caseless = field.type in (FieldType.TEXT, FieldType.KEYWORD)
    if field.name == "author":  # the first author's name
        author = authors_t.c.name_sort if caseless else authors_t.c.name
        return (
            select(author)
            .where(authors_t.c.paper_id == papers_t.c.id, authors_t.c.position == 0)
            .scalar_subquery()
        )
    if field.name == "title" and caseless:
        return papers_t.c.title_sort  # lower(title), computed and indexed by the database
    if field.name == "tag":  # the tag first in the alphabet
        name = func.lower(tags_t.c.name) if caseless else tags_t.c.name
        return (
            select(func.min(name))
            .select_from(paper_tags_t.join(tags_t, tags_t.c.id == paper_tags_t.c.tag_id))
            .where(paper_tags_t.c.paper_id == papers_t.c.id)
            .scalar_subquery()
        )
    table = state_t if field.name in STATE_COLUMNS else papers_t
    column = table.c[field.name]
    return func.lower(column) if caseless else column


#: Every sort key of the field table, as an SQL expression.
SORT_COLUMNS = {key: _order_by(field) for key, field in fields.BY_SORT_KEY.items()}
_SORTS_BY_STATE = {key for key, field in fields.BY_SORT_KEY.items() if field.name in STATE_COLUMNS}
FIRST_AUTHOR_SORT = next(key for key, f in fields.BY_SORT_KEY.items() if f.name == "author")


def _first_author_order(connection: Connection, descending: bool) -> list[tuple[int, Any]]:
    """(id, first author's sort name) of every paper, ordered as `sort_values` orders
    them, read from the first authors' index in its order (a correlated lookup per
    paper took 1.1 s at 100,000 papers): papers with no author first when ascending,
    last when descending, by id."""
    name = authors_t.c.name_sort
    named = _driver_rows(
        connection,
        select(authors_t.c.paper_id, name)
        .where(authors_t.c.position == 0)
        .order_by(name.desc() if descending else name, authors_t.c.paper_id),
    )
    nameless: list[tuple[int, Any]] = []
    # Counted from a small index: most libraries have no paper without an author, and
    # finding them walks the wide papers table (80 ms at 100,000 papers).
    if connection.scalar(select(func.count()).select_from(papers_t)) != len(named):
        first_author = select(authors_t.c.paper_id).where(
            authors_t.c.paper_id == papers_t.c.id, authors_t.c.position == 0
        )
        nameless = _driver_rows(
            connection,
            select(papers_t.c.id, null()).where(~first_author.exists()).order_by(papers_t.c.id),
        )
    return named + nameless if descending else nameless + named


def _plain(column: ColumnElement[Any], connection: Connection) -> bool:
    """Whether the driver gives the column's values as SQLAlchemy would (no dates to
    convert from text, say): then `_driver_rows` may read them."""
    dialect = connection.dialect
    return column.type.dialect_impl(dialect).result_processor(dialect, None) is None


def _driver_rows(connection: Connection, query: Select[Any]) -> list[tuple[Any, ...]]:
    """The rows of a read of plain values (ids, text: nothing to convert) as the
    driver's tuples: SQLAlchemy makes a Row of each, 2/3 of the first sort of a session
    by first author at 100,000 papers (115 of 170 ms)."""
    sql = query.compile(dialect=connection.dialect, compile_kwargs={"literal_binds": True})
    result = connection.exec_driver_sql(str(sql))
    try:
        return list(result.cursor.fetchall())
    finally:
        result.close()


class PaperStore(SubStore):
    # ------------------------------------------------------------------ reads

    def count(self) -> int:
        with self._db.read() as connection:
            return int(connection.scalar(select(func.count()).select_from(papers_t)) or 0)

    def count_and_generation(self) -> tuple[int, int]:
        """How many papers, and the generation (Database.generation), in one statement:
        a search needs both, and on a team library each statement is a round trip."""
        count = select(func.count()).select_from(papers_t).scalar_subquery()
        generation = select(meta_t.c.value).where(meta_t.c.key == "generation")
        with self._db.read() as connection:
            row = connection.execute(select(count, generation.scalar_subquery())).one()
        return int(row[0] or 0), int(row[1] or 0)

    def get(self, paper_id: int) -> Paper:
        found = self.get_many([paper_id])
        if not found:
            raise NotFoundError(f"no paper with id {paper_id}")
        return found[0]

    def get_many(self, ids: Sequence[int]) -> list[Paper]:
        """Papers with their tags, shortlists and note, in the order of `ids` (unknown
        ids are left out)."""
        wanted = unique(ids)
        by_id: dict[int, Paper] = {}
        with self._db.read() as connection:
            for chunk in chunked(wanted):
                by_id.update(load_papers(connection, chunk, self._db.member))
        return [by_id[i] for i in wanted if i in by_id]

    def require(self, ids: Sequence[int]) -> list[int]:
        """The ids, deduplicated; NotFoundError naming those that do not exist."""
        with self._db.read() as connection:
            return require_ids(connection, ids)

    def sorted_ids(self, sort: str = "added", descending: bool = False) -> list[int]:
        """All paper ids ordered by a sort key (ties broken by id so the order is stable)."""
        return [paper_id for paper_id, _value in self.sort_values(sort, descending)]

    def sort_values(
        self, sort: str, descending: bool = False, ids: Collection[int] | None = None
    ) -> list[tuple[int, Any]]:
        """(id, the value it sorts by) of every paper, or of those of `ids` the library
        holds, ordered by the value then the id (kept orders follow changes with them:
        services/use_cases/column_orders.py)."""
        column = SORT_COLUMNS.get(sort)
        if sort == "rating" and self._db.member is not None:
            column = own_rating(self._db.member)  # a team library: the reader's own
        if column is None:
            raise InvalidValueError(f"cannot sort by {sort!r}")
        order = [column.desc() if descending else column.asc(), papers_t.c.id]
        # The state table is joined only for its own columns: joined, the database reads
        # every paper's row in another order than its sort index's (0.3 s at 100,000).
        source = PAPERS_WITH_STATE if sort in _SORTS_BY_STATE else papers_t
        query = select(papers_t.c.id, column).select_from(source).order_by(*order)
        with self._db.read() as connection:
            if ids is None and sort == FIRST_AUTHOR_SORT:
                return _first_author_order(connection, descending)
            if ids is None and _plain(column, connection):
                return _driver_rows(connection, query)
            if ids is None:
                return [(i, v) for i, v in connection.execute(query)]
            found: list[tuple[int, Any]] = []
            for chunk in chunked(sorted(ids)):
                rows = connection.execute(query.where(papers_t.c.id.in_(chunk)))
                found.extend((i, v) for i, v in rows)
            return found

    def ids_with_status(self, status: str) -> list[int]:
        """The papers of one status, oldest first (the sidebar's status entries)."""
        query = (
            select(state_t.c.paper_id)
            .where(state_t.c.status == status)
            .order_by(state_t.c.paper_id)
        )
        with self._db.read() as connection:
            return list(connection.scalars(query))

    def iter_all(self, batch_size: int = 2000) -> Iterator[list[Paper]]:
        """Every paper, in id order, in batches (for indexing and whole-library export)."""
        last_id = 0
        while True:
            with self._db.read() as connection:
                ids = list(
                    connection.scalars(
                        select(papers_t.c.id)
                        .where(papers_t.c.id > last_id)
                        .order_by(papers_t.c.id)
                        .limit(batch_size)
                    )
                )
                if not ids:
                    return
                loaded = load_papers(connection, ids, self._db.member)
            yield [loaded[i] for i in ids]
            last_id = ids[-1]

    def text_size(self) -> int:
        """Characters of title and abstract over every paper (what an index will hold)."""
        query = select(func.sum(func.length(papers_t.c.title) + func.length(papers_t.c.abstract)))
        with self._db.read() as connection:
            return int(connection.scalar(query) or 0)

    def citation_keys_in_use(self) -> set[str]:
        with self._db.read() as connection:
            query = select(papers_t.c.citation_key).where(papers_t.c.citation_key.is_not(None))
            return set(connection.scalars(query))

    # ------------------------------------------------------------------ reads for matching

    def match_keys(self) -> Iterator[MatchKeys]:
        """(id, fingerprint, doi, arxiv, openreview, title_key) of every paper, for matching."""
        query = select(
            papers_t.c.id,
            papers_t.c.fingerprint,
            papers_t.c.doi,
            papers_t.c.arxiv,
            papers_t.c.openreview,
            papers_t.c.title_key,
        )
        with self._db.read() as connection:
            for row in connection.execute(query):
                yield tuple(row)  # type: ignore[misc]

    def match_texts(self) -> Iterator[tuple[int, str, bool, str]]:
        """(id, title, title_is_derived, abstract) of papers with an abstract (fuzzy matching)."""
        query = select(
            papers_t.c.id, papers_t.c.title, papers_t.c.title_is_derived, papers_t.c.abstract
        ).where(papers_t.c.abstract != "")
        with self._db.read() as connection:
            for row in connection.execute(query):
                yield row.id, row.title, bool(row.title_is_derived), row.abstract

    def holders(self, kind: str, values: Collection[str]) -> dict[str, list[int]]:
        """The papers holding each of these match keys (`kind`: one of MATCH_COLUMNS),
        oldest first: one indexed query per chunk, never a scan of the library."""
        column = MATCH_COLUMNS[kind]
        found: dict[str, list[int]] = defaultdict(list)
        with self._db.read() as connection:
            for chunk in chunked(list(values)):
                query = (
                    select(column, papers_t.c.id).where(column.in_(chunk)).order_by(papers_t.c.id)
                )
                for value, paper_id in connection.execute(query):
                    found[value].append(paper_id)
        return found

    def evidence(self, ids: Collection[int]) -> dict[int, tuple[Evidence, str]]:
        """Each paper's evidence (core.evidence) and real-title key ("" when derived)."""
        result: dict[int, tuple[Evidence, str]] = {}
        columns = (
            papers_t.c.id,
            papers_t.c.year,
            papers_t.c.venue,
            papers_t.c.entry_type,
            papers_t.c.raw_fields,
            papers_t.c.title_key,
        )
        with self._db.read() as connection:
            for chunk in chunked(list(ids)):
                authors = names_by_paper(connection, _authors_of(chunk))
                for row in connection.execute(select(*columns).where(papers_t.c.id.in_(chunk))):
                    raw = [tuple(pair) for pair in json.loads(row.raw_fields or "[]")]
                    found = evidence_of(
                        row.year, authors.get(row.id, ()), row.venue, row.entry_type, raw
                    )
                    result[row.id] = (found, row.title_key or "")
        return result

    def stored_values(self, ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """Stored column values (and authors) of papers, for merging decisions."""
        result: dict[int, dict[str, Any]] = {}
        with self._db.read() as connection:
            for chunk in chunked(list(ids)):
                query = (
                    select(papers_t, *(state_t.c[name] for name in STATE_COLUMNS))
                    .select_from(PAPERS_WITH_STATE)
                    .where(papers_t.c.id.in_(chunk))
                )
                for row in connection.execute(query):
                    result[row.id] = {**row._mapping, "authors": ()}
                authors = names_by_paper(connection, _authors_of(chunk))
                for paper_id, names in authors.items():
                    result[paper_id]["authors"] = tuple(names)
                generated = generated_keys_t.c.paper_id
                for paper_id in connection.scalars(select(generated).where(generated.in_(chunk))):
                    result[paper_id][KEY_GENERATED] = True
        return result

    # ------------------------------------------------------------------ edits

    def set_status(self, ids: Sequence[int], status: Status) -> Changes:
        return self._set_field(ids, "status", status.value, f"Set status {status.value}")

    def set_rating(self, ids: Sequence[int], rating: int) -> Changes:
        """Rate papers; in a team library, this member's own rating of them."""
        member = self._db.member
        if member is None:
            return self._set_field(ids, "rating", check_rating(rating), rating_label(rating))
        label = rating_label(rating)
        with self._db.action(label) as w:
            wanted = require_ids(w.connection, ids)
            set_own_ratings(w, wanted, member, check_rating(rating))
        return w.changes

    def set_title(self, paper_id: int, title: str) -> Changes:
        """Replace a title; a derived title given by hand stops being derived."""
        title = clean_title(title)
        with self._db.action("Edit title") as w:
            (paper_id,) = require_ids(w.connection, [paper_id])
            with (
                w.journal.tracked_ids(papers_t, "id", [paper_id]),
                w.journal.tracked_ids(state_t, "paper_id", [paper_id], only=["updated"]),
            ):
                w.connection.execute(
                    update(papers_t)
                    .where(papers_t.c.id == paper_id)
                    .values(
                        title=title,
                        title_is_derived=False,
                        title_key=normalise_for_matching(title),
                    )
                )
                touch(w.connection, [paper_id])
        return w.changes

    def set_field(self, paper_id: int, name: str, value: object) -> Changes:
        """Store one edited field (core.fields.EDITABLE_FIELDS, already parsed): one undo
        step. A citation key another paper holds, in any case, is refused."""
        if name == "title":
            return self.set_title(paper_id, str(value))
        label = f"Edit {_EDIT_LABELS.get(name, name)}"
        with self._db.action(label) as w:
            (paper_id,) = require_ids(w.connection, [paper_id])
            if name == "key" and value is not None:
                _check_key_free(w.connection, paper_id, str(value))
            with (
                w.journal.tracked_ids(papers_t, "id", [paper_id]),
                w.journal.tracked_ids(authors_t, "paper_id", [paper_id]),
                w.journal.tracked_ids(state_t, "paper_id", [paper_id], only=["updated"]),
            ):
                if name == "authors":
                    _replace_authors(w.connection, paper_id, list(value))  # type: ignore[call-overload]
                else:
                    _set_paper_column(w.connection, paper_id, name, value)
                touch(w.connection, [paper_id])
        return w.changes

    def set_citation_keys(self, keys: dict[int, str]) -> Changes:
        """Pin citation keys (paper id -> key): one undo step, as any edit."""
        label = f"Pin {len(keys)} citation key{'s' if len(keys) != 1 else ''}"
        # Not announced: keys are not searched, and an export pins thousands at once;
        # the service marks the index current for the new generation instead
        # (services/use_cases/exporting.py pin_keys).
        with self._db.action(label, announced=False) as w:
            ids = require_ids(w.connection, list(keys))
            with (
                w.journal.tracked_ids(papers_t, "id", ids),
                w.journal.tracked_ids(generated_keys_t, "paper_id", ids),
            ):
                for paper_id in ids:
                    w.connection.execute(
                        update(papers_t)
                        .where(papers_t.c.id == paper_id)
                        .values(citation_key=keys[paper_id])
                    )
                # Made by the key pattern, not given by a file: a file's key replaces it.
                insert_missing(w.connection, generated_keys_t, [{"paper_id": i} for i in ids])
        return w.changes

    def key_sources(self) -> Iterator[tuple[int, str | None, PaperRecord]]:
        """(id, stored key, what a generated key is made of) of every paper, in id order:
        the title, the first author and the year (core/citekeys.py)."""
        first_author = (
            select(authors_t.c.name)
            .where(authors_t.c.paper_id == papers_t.c.id)
            .order_by(authors_t.c.position)
            .limit(1)
            .scalar_subquery()
        )
        query = select(
            papers_t.c.id,
            papers_t.c.citation_key,
            papers_t.c.title,
            papers_t.c.year,
            first_author.label("author"),
        ).order_by(papers_t.c.id)
        with self._db.read() as connection:
            for row in connection.execute(query):
                authors = (row.author,) if row.author else ()
                yield (
                    row.id,
                    row.citation_key,
                    PaperRecord(row.title, authors=authors, year=row.year),
                )

    def delete(self, ids: Sequence[int]) -> Changes:
        ids = unique(ids)
        label = f"Delete {len(ids)} paper{'s' if len(ids) != 1 else ''}"
        with self._db.action(label) as w:
            require_ids(w.connection, ids)
            with tracked_with_links(w.journal, ids):
                for chunk in chunked(ids):
                    w.connection.execute(delete(papers_t).where(papers_t.c.id.in_(chunk)))
        return w.changes

    def _set_field(self, ids: Sequence[int], column: str, value: object, label: str) -> Changes:
        """One state column set on many papers (Ctrl+A, S on 100,000 of them)."""
        with self._db.action(label) as w:
            set_state(w, ids, column, value)
        return w.changes


# --------------------------------------------------------------------- shared helpers


def set_state(w: Write, ids: Sequence[int], column: str, value: object) -> list[int]:
    """Set one state column of these papers inside the caller's action; the ids changed.

    One read of the old values finds the missing ids and the papers that change; the
    new states follow from it, so the journal needs no second read. Papers that already
    have the value are left alone and are not returned.
    """
    wanted = unique(ids)
    columns = (column, "updated")
    differs = state_t.c[column] != value
    with chosen_ids(w.connection, wanted) as chosen:
        connection = w.connection
        if missing := missing_ids(connection, state_t, "paper_id", chosen, wanted):
            raise _not_found(missing)
        before = read_groups(connection, state_t, "paper_id", columns, chosen, differs)
        changing = [paper_id for _, group in before for paper_id in group]
        stamp = now()
        connection.execute(
            update(state_t)
            .where(state_t.c.paper_id.in_(chosen), differs)
            .values({column: value, "updated": stamp})
        )
        after = [((value, stamp), changing)] if changing else []
        w.journal.record_groups(state_t, Groups("paper_id", columns, before, after))
    return changing


#: Edited fields kept in a papers column of another name, and how the history names them.
_EDIT_COLUMNS = {"type": "entry_type", "key": "citation_key"}
_EDIT_LABELS = {"type": "entry type", "key": "citation key", "doi": "DOI", "arxiv": "arXiv id",
                "openreview": "OpenReview id", "url": "URL"}  # fmt: skip


def _check_key_free(connection: Connection, paper_id: int, key: str) -> None:
    holder = connection.scalar(
        select(papers_t.c.id).where(
            func.lower(papers_t.c.citation_key) == key.lower(), papers_t.c.id != paper_id
        )
    )
    if holder is not None:
        raise InvalidValueError(f"citation key {key!r} is already paper {holder}'s")


def _replace_authors(connection: Connection, paper_id: int, names: list[str]) -> None:
    connection.execute(delete(authors_t).where(authors_t.c.paper_id == paper_id))
    if names:
        connection.execute(
            authors_t.insert(),
            [{"paper_id": paper_id, "position": i, "name": n} for i, n in enumerate(names)],
        )


def _set_paper_column(connection: Connection, paper_id: int, name: str, value: object) -> None:
    """One column of the papers row; `pages` lives among the source's verbatim fields."""
    where = papers_t.c.id == paper_id
    if name == "pages":
        raw = json.loads(connection.scalar(select(papers_t.c.raw_fields).where(where)) or "[]")
        kept = [[key, text] for key, text in raw if key.lower() != "pages"]
        if value is not None:
            kept.append(["pages", value])
        connection.execute(update(papers_t).where(where).values(raw_fields=json.dumps(kept)))
        return
    connection.execute(update(papers_t).where(where).values({_EDIT_COLUMNS.get(name, name): value}))


def unique(ids: Iterable[int]) -> list[int]:
    """The ids as ints, each once, in their first order."""
    return list(dict.fromkeys(int(i) for i in ids))


def existing_ids(connection: Connection, ids: Iterable[int]) -> set[int]:
    found: set[int] = set()
    for chunk in chunked(list(ids)):
        found.update(connection.scalars(select(papers_t.c.id).where(papers_t.c.id.in_(chunk))))
    return found


def require_ids(connection: Connection, ids: Sequence[int]) -> list[int]:
    """The ids, deduplicated; NotFoundError naming those that do not exist."""
    wanted = unique(ids)
    if missing := sorted(set(wanted) - existing_ids(connection, wanted)):
        raise _not_found(missing)
    return wanted


def _not_found(missing: Sequence[int]) -> NotFoundError:
    return NotFoundError(f"no paper with id {', '.join(str(i) for i in missing[:10])}")


def touch(connection: Connection, ids: Sequence[int], stamp: datetime | None = None) -> None:
    """Record that these papers changed now (their `updated` time)."""
    for chunk in chunked(list(ids)):
        connection.execute(
            update(state_t).where(state_t.c.paper_id.in_(chunk)).values(updated=stamp or now())
        )


def not_duplicates_of(ids: Sequence[int]) -> ColumnElement[bool]:
    """The "not duplicates" pairs naming any of these papers."""
    return or_(not_duplicates_t.c.paper_a.in_(ids), not_duplicates_t.c.paper_b.in_(ids))


#: Tables whose rows belong to one paper (by `paper_id`), besides "not duplicates" pairs.
LINKED_TABLES = (
    state_t,
    authors_t,
    paper_tags_t,
    notes_t,
    entries_t,
    batch_papers_t,
    annotations_t,
    decisions_t,
    member_values_t,
    generated_keys_t,
)


def rows_with_links(journal: Journal, ids: Sequence[int]) -> list[Step]:
    """The rows of these papers and of everything hanging off them, as steps that add
    them (papers first, as a redo inserts them)."""
    steps = [Step("papers", [], journal.rows(papers_t, "id", ids))]
    steps += [Step(t.name, [], journal.rows(t, "paper_id", ids)) for t in LINKED_TABLES]
    pairs = journal.connection.execute(select(not_duplicates_t).where(not_duplicates_of(ids)))
    steps.append(Step(not_duplicates_t.name, [], [dict(row._mapping) for row in pairs]))
    return [step for step in steps if step.after]


@contextmanager
def tracked_with_links(journal: Journal, *groups: Sequence[int]) -> Iterator[None]:
    """Journal the papers of each group and every row that hangs off them.

    Undo replays steps backwards, so the groups' paper rows come back first, in the
    order given, and then the rows that point at them (a merge's survivor before the
    papers folded into it, releasing a citation key it inherited).
    """
    ids = [paper_id for group in groups for paper_id in group]
    with ExitStack() as stack:
        for group in groups:
            stack.enter_context(journal.tracked_ids(papers_t, "id", group))
        for table in LINKED_TABLES:
            stack.enter_context(journal.tracked_ids(table, "paper_id", ids))
        stack.enter_context(journal.tracked(not_duplicates_t, not_duplicates_of(ids)))
        yield


def names_by_paper(connection: Connection, query: Select[Any]) -> dict[int, list[str]]:
    """(paper_id, name) rows grouped by paper, in the query's order."""
    grouped: dict[int, list[str]] = defaultdict(list)
    for paper_id, name in connection.execute(query):
        grouped[paper_id].append(name)
    return grouped


def _authors_of(ids: list[int]) -> Select[Any]:
    return (
        select(authors_t.c.paper_id, authors_t.c.name)
        .where(authors_t.c.paper_id.in_(ids))
        .order_by(authors_t.c.paper_id, authors_t.c.position)
    )


def _linked_names(
    connection: Connection, links: Table, key: str, named: Table, ids: list[int]
) -> dict[int, list[str]]:
    """The names of what each paper is linked to (its tags, its shortlists), by name."""
    return names_by_paper(
        connection,
        select(links.c.paper_id, named.c.name)
        .join(named, named.c.id == links.c[key])
        .where(links.c.paper_id.in_(ids))
        .order_by(func.lower(named.c.name)),
    )


def _shortlist_places(connection: Connection, ids: list[int]) -> dict[int, list[tuple[str, int]]]:
    """Each paper's shortlists by name, with its place in each (1 the first)."""
    in_theirs = select(entries_t.c.shortlist_id).where(entries_t.c.paper_id.in_(ids))
    places = (
        select(
            entries_t.c.paper_id,
            entries_t.c.shortlist_id,
            func.row_number()
            .over(partition_by=entries_t.c.shortlist_id, order_by=entries_t.c.position)
            .label("place"),
        )
        .where(entries_t.c.shortlist_id.in_(in_theirs))
        .subquery()
    )
    query = (
        select(places.c.paper_id, shortlists_t.c.name, places.c.place)
        .join(shortlists_t, shortlists_t.c.id == places.c.shortlist_id)
        .where(places.c.paper_id.in_(ids))
        .order_by(func.lower(shortlists_t.c.name))
    )
    grouped: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for paper_id, name, place in connection.execute(query):
        grouped[paper_id].append((name, place))
    return grouped


def annotations_by_paper(connection: Connection, ids: list[int]) -> dict[int, list[Annotation]]:
    """Each paper's annotated passages, in the order they stand in the abstract."""
    grouped: dict[int, list[Annotation]] = defaultdict(list)
    query = (
        select(annotations_t)
        .where(annotations_t.c.paper_id.in_(ids))
        .order_by(annotations_t.c.paper_id, annotations_t.c.start, annotations_t.c.id)
    )
    for row in connection.execute(query):
        grouped[row.paper_id].append(
            Annotation(
                row.id,
                row.paper_id,
                row.start,
                row.stop,
                row.quote,
                row.colour,
                row.comment,
                row.created,
            )
        )
    return grouped


def load_papers(
    connection: Connection, ids: list[int], member: str | None = None
) -> dict[int, Paper]:
    """Papers by id with everything attached: six queries per chunk, no per-row queries.

    With a `member` (a team library), the note and rating are that member's own."""
    authors = names_by_paper(connection, _authors_of(ids))
    tags = _linked_names(connection, paper_tags_t, "tag_id", tags_t, ids)
    shortlists = _shortlist_places(connection, ids)
    annotations = annotations_by_paper(connection, ids)
    notes: dict[int, str] = {}
    teams: dict[int, TeamValues] = {}
    if member is None:
        query = select(notes_t.c.paper_id, notes_t.c.body).where(notes_t.c.paper_id.in_(ids))
        notes = dict(connection.execute(query).all())
    else:  # everyone's values, the member's own among them
        teams = team_values(connection, ids, member)
    result: dict[int, Paper] = {}
    query = (
        select(papers_t, state_t.c.status, state_t.c.rating, state_t.c.updated)
        .select_from(PAPERS_WITH_STATE)
        .where(papers_t.c.id.in_(ids))
    )
    for row in connection.execute(query):
        team = None if member is None else teams.get(row.id, TeamValues(reader=member))
        rating, note = (
            (row.rating, notes.get(row.id, ""))
            if team is None
            else (team.own_rating, team.own_note)
        )
        result[row.id] = Paper(
            id=row.id,
            title=row.title,
            title_is_derived=bool(row.title_is_derived),
            authors=tuple(authors.get(row.id, ())),
            venue=row.venue,
            year=row.year,
            abstract=row.abstract or "",
            ids=Identifiers(row.doi, row.arxiv, row.openreview, row.url),
            status=Status(row.status),
            rating=rating,
            added=row.added,
            updated=row.updated,
            fingerprint=row.fingerprint,
            entry_type=row.entry_type,
            citation_key=row.citation_key,
            tags=tuple(tags.get(row.id, ())),
            shortlists=tuple(name for name, _ in shortlists.get(row.id, ())),
            shortlist_places=tuple(place for _, place in shortlists.get(row.id, ())),
            note=note,
            raw_fields=tuple(tuple(pair) for pair in json.loads(row.raw_fields or "[]")),
            annotations=tuple(annotations.get(row.id, ())),
            team=team,
        )
    return result

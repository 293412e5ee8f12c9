"""The Library facade: the only door to the database.

It returns core dataclasses (never ORM objects) and every mutation returns a `Changes`
record. User actions run inside `_action`, which journals the rows they touch into the
history table so they can be undone. Bulk paths (import, index feeding) use Core
statements over chunks, never per-row ORM loops, so 100,000 papers stay fast.
"""

from __future__ import annotations

import getpass
import json
import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from itertools import combinations
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    Select,
    Table,
    and_,
    delete,
    func,
    insert,
    or_,
    select,
    true,
    update,
)

from paperdesk.core.changes import Changes, ids_of
from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.models import (
    MAX_RATING,
    HistoryEntry,
    Identifiers,
    ImportBatch,
    Paper,
    SavedSearch,
    ShortlistInfo,
    Status,
    TagInfo,
)
from paperdesk.store.db import make_engine
from paperdesk.store.journal import CHUNK, Journal, Step, apply_states, steps_from_json
from paperdesk.store.migrate import upgrade_to_head
from paperdesk.store.schema import (
    AuthorRow,
    HistoryRow,
    ImportBatchPaperRow,
    ImportBatchRow,
    MetaRow,
    NotDuplicateRow,
    NoteRow,
    PaperRow,
    PaperTagRow,
    SavedSearchRow,
    ShortlistEntryRow,
    ShortlistRow,
    TagRow,
)

log = logging.getLogger(__name__)

papers_t: Table = PaperRow.__table__  # type: ignore[assignment]
authors_t: Table = AuthorRow.__table__  # type: ignore[assignment]
tags_t: Table = TagRow.__table__  # type: ignore[assignment]
paper_tags_t: Table = PaperTagRow.__table__  # type: ignore[assignment]
notes_t: Table = NoteRow.__table__  # type: ignore[assignment]
shortlists_t: Table = ShortlistRow.__table__  # type: ignore[assignment]
entries_t: Table = ShortlistEntryRow.__table__  # type: ignore[assignment]
saved_t: Table = SavedSearchRow.__table__  # type: ignore[assignment]
batches_t: Table = ImportBatchRow.__table__  # type: ignore[assignment]
batch_papers_t: Table = ImportBatchPaperRow.__table__  # type: ignore[assignment]
history_t: Table = HistoryRow.__table__  # type: ignore[assignment]
meta_t: Table = MetaRow.__table__  # type: ignore[assignment]
not_duplicates_t: Table = NotDuplicateRow.__table__  # type: ignore[assignment]

#: Columns a user can sort the paper table by, mapped to SQL expressions.
SORT_COLUMNS = {
    "added": papers_t.c.added,
    "title": func.lower(papers_t.c.title),
    "venue": func.lower(papers_t.c.venue),
    "year": papers_t.c.year,
    "status": papers_t.c.status,
    "rating": papers_t.c.rating,
    "updated": papers_t.c.updated,
    "first_author": select(func.lower(authors_t.c.name))
    .where(authors_t.c.paper_id == papers_t.c.id, authors_t.c.position == 0)
    .scalar_subquery(),
    "tags": select(func.min(func.lower(tags_t.c.name)))
    .select_from(paper_tags_t.join(tags_t, tags_t.c.id == paper_tags_t.c.tag_id))
    .where(paper_tags_t.c.paper_id == papers_t.c.id)
    .scalar_subquery(),
}


def now() -> datetime:
    return datetime.now().replace(microsecond=0)


def chunked(values: Sequence[int], size: int = CHUNK) -> Iterator[list[int]]:
    values = list(values)
    for start in range(0, len(values), size):
        yield values[start : start + size]


@dataclass(frozen=True)
class PaperMerge:
    """One cluster of duplicates folded into its survivor (decided by services/duplicates)."""

    survivor: int
    others: tuple[int, ...]
    # Survivor columns to set; "authors" (a sequence of names) replaces its author list.
    values: Mapping[str, Any]
    note: str  # the survivor's note after the merge; "" for none


@dataclass
class Write:
    """What a write block hands its body: the connection and the action's journal."""

    connection: Connection
    journal: Journal


class Library:
    """An open library database. Thread-safe for reads; one thread should do all writes."""

    def __init__(self, engine: Engine, actor: str | None = None) -> None:
        self.engine = engine
        self.actor = actor or _current_user()

    @classmethod
    def open(cls, url: str, db_path: Path | None = None, backup_dir: Path | None = None) -> Library:
        engine = make_engine(url)
        upgrade_to_head(engine, db_path, backup_dir)
        return cls(engine)

    def close(self) -> None:
        self.engine.dispose()

    # ----------------------------------------------------------------- write plumbing

    @contextmanager
    def _action(self, description: str, *, undoable: bool = True) -> Iterator[Write]:
        """One user action: a transaction, a journal, a history row, a new generation."""
        with self.engine.begin() as connection:
            journal = Journal(connection)
            yield Write(connection, journal)
            if journal.steps or not undoable:
                if undoable:
                    # A new action forgets what could have been redone (as every editor does).
                    connection.execute(delete(history_t).where(history_t.c.undone.is_(True)))
                connection.execute(
                    insert(history_t).values(
                        action=description,
                        actor=self.actor,
                        at=now(),
                        undone=False,
                        payload=journal.to_json() if undoable else json.dumps({"undoable": False}),
                    )
                )
                _bump_generation(connection)

    def generation(self) -> int:
        """A counter raised by every committed write; the index stores the one it reflects."""
        with self.engine.connect() as connection:
            value = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == "generation"))
        return int(value or 0)

    # ----------------------------------------------------------------- paper reads

    def count(self) -> int:
        with self.engine.connect() as connection:
            return int(connection.scalar(select(func.count()).select_from(papers_t)) or 0)

    def paper(self, paper_id: int) -> Paper:
        found = self.papers([paper_id])
        if not found:
            raise NotFoundError(f"no paper with id {paper_id}")
        return found[0]

    def papers(self, ids: Sequence[int]) -> list[Paper]:
        """Papers with their tags, shortlists and note, in the order of `ids`."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        by_id: dict[int, Paper] = {}
        with self.engine.connect() as connection:
            for chunk in chunked(wanted):
                by_id.update(_load_papers(connection, chunk))
        return [by_id[i] for i in wanted if i in by_id]

    def existing_ids(self, ids: Iterable[int]) -> set[int]:
        wanted = list(ids)
        found: set[int] = set()
        with self.engine.connect() as connection:
            for chunk in chunked(wanted):
                found.update(
                    connection.scalars(select(papers_t.c.id).where(papers_t.c.id.in_(chunk)))
                )
        return found

    def require_papers(self, ids: Sequence[int]) -> list[int]:
        """The ids, deduplicated; NotFoundError naming those that do not exist."""
        wanted = list(dict.fromkeys(int(i) for i in ids))
        missing = sorted(set(wanted) - self.existing_ids(wanted))
        if missing:
            listed = ", ".join(str(i) for i in missing[:10])
            raise NotFoundError(f"no paper with id {listed}")
        return wanted

    def sorted_ids(self, sort: str = "added", descending: bool = False) -> list[int]:
        """All paper ids ordered by a column (ties broken by id so the order is stable)."""
        column = SORT_COLUMNS.get(sort)
        if column is None:
            raise InvalidValueError(f"cannot sort by {sort!r}")
        order = [column.desc() if descending else column.asc(), papers_t.c.id]
        with self.engine.connect() as connection:
            return list(connection.scalars(select(papers_t.c.id).order_by(*order)))

    def ids_with_first_author(self) -> list[tuple[int, str]]:
        with self.engine.connect() as connection:
            rows = connection.execute(
                select(authors_t.c.paper_id, authors_t.c.name).where(authors_t.c.position == 0)
            )
            return [(r.paper_id, r.name) for r in rows]

    def iter_papers(self, batch_size: int = 2000) -> Iterator[list[Paper]]:
        """Every paper, in id order, in batches (for indexing and whole-library export)."""
        last_id = 0
        while True:
            with self.engine.connect() as connection:
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
                loaded = _load_papers(connection, ids)
            yield [loaded[i] for i in ids]
            last_id = ids[-1]

    # ----------------------------------------------------------------- other reads

    def tags(self) -> list[TagInfo]:
        query = (
            select(tags_t.c.id, tags_t.c.name, tags_t.c.colour, func.count(paper_tags_t.c.paper_id))
            .outerjoin(paper_tags_t, paper_tags_t.c.tag_id == tags_t.c.id)
            .group_by(tags_t.c.id)
            .order_by(func.lower(tags_t.c.name))
        )
        with self.engine.connect() as connection:
            return [TagInfo(r[0], r[1], r[2], r[3]) for r in connection.execute(query)]

    def shortlists(self) -> list[ShortlistInfo]:
        query = (
            select(
                shortlists_t.c.id,
                shortlists_t.c.name,
                func.count(entries_t.c.paper_id),
                shortlists_t.c.created,
            )
            .outerjoin(entries_t, entries_t.c.shortlist_id == shortlists_t.c.id)
            .group_by(shortlists_t.c.id)
            .order_by(func.lower(shortlists_t.c.name))
        )
        with self.engine.connect() as connection:
            return [ShortlistInfo(r[0], r[1], r[2], r[3]) for r in connection.execute(query)]

    def shortlist_paper_ids(self, name: str) -> list[int]:
        with self.engine.connect() as connection:
            shortlist_id = _shortlist_id(connection, name)
            query = (
                select(entries_t.c.paper_id)
                .where(entries_t.c.shortlist_id == shortlist_id)
                .order_by(entries_t.c.position, entries_t.c.paper_id)
            )
            return list(connection.scalars(query))

    def saved_searches(self) -> list[SavedSearch]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(saved_t).order_by(func.lower(saved_t.c.name)))
            return [SavedSearch(r.id, r.name, r.query) for r in rows]

    def import_batches(self) -> list[ImportBatch]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(batches_t).order_by(batches_t.c.id))
            return [
                ImportBatch(
                    r.id,
                    r.label,
                    r.file_name,
                    r.sha256,
                    r.format,
                    r.added,
                    r.merged,
                    r.unchanged,
                    r.skipped,
                    r.imported_at,
                )
                for r in rows
            ]

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
        with self.engine.connect() as connection:
            return set(connection.scalars(query))

    def batch_paper_ids(self, batch_id: int) -> list[int]:
        with self.engine.connect() as connection:
            query = select(batch_papers_t.c.paper_id).where(batch_papers_t.c.batch_id == batch_id)
            return list(connection.scalars(query))

    def status_counts(self) -> dict[str, int]:
        query = select(papers_t.c.status, func.count()).group_by(papers_t.c.status)
        with self.engine.connect() as connection:
            counts = {status: count for status, count in connection.execute(query)}
        return {s.value: counts.get(s.value, 0) for s in Status}

    def venue_year_counts(self) -> list[tuple[str, int]]:
        query = (
            select(papers_t.c.venue, papers_t.c.year, func.count())
            .group_by(papers_t.c.venue, papers_t.c.year)
            .order_by(papers_t.c.venue, papers_t.c.year)
        )
        with self.engine.connect() as connection:
            return [
                (" ".join(str(p) for p in (venue, year) if p) or "(unknown)", count)
                for venue, year, count in connection.execute(query)
            ]

    def scalar_count(self, table: Table, *where: object) -> int:
        query = select(func.count()).select_from(table)
        for clause in where:
            query = query.where(clause)  # type: ignore[arg-type]
        with self.engine.connect() as connection:
            return int(connection.scalar(query) or 0)

    def integrity_problems(self) -> list[str]:
        """What SQLite's own checks report (empty when the database is sound)."""
        problems: list[str] = []
        with self.engine.connect() as connection:
            if self.engine.dialect.name != "sqlite":
                return problems
            for (message,) in connection.exec_driver_sql("PRAGMA integrity_check"):
                if message != "ok":
                    problems.append(f"database: {message}")
            for row in connection.exec_driver_sql("PRAGMA foreign_key_check"):
                problems.append(f"database: row {row[1]} of {row[0]} points at a missing {row[2]}")
        return problems

    def history(self, limit: int = 50) -> list[HistoryEntry]:
        query = select(history_t).order_by(history_t.c.id.desc()).limit(limit)
        with self.engine.connect() as connection:
            return [
                HistoryEntry(r.id, r.action, r.actor, r.at, r.undone)
                for r in connection.execute(query)
            ]

    def venues(self) -> dict[int, str | None]:
        """Each paper's stored venue, for telling same-titled papers of two venues apart."""
        with self.engine.connect() as connection:
            return dict(connection.execute(select(papers_t.c.id, papers_t.c.venue)).all())

    def match_keys(
        self,
    ) -> Iterator[tuple[int, str, str | None, str | None, str | None, str | None]]:
        """(id, fingerprint, doi, arxiv, openreview, title_key) of every paper, for matching."""
        query = select(
            papers_t.c.id,
            papers_t.c.fingerprint,
            papers_t.c.doi,
            papers_t.c.arxiv,
            papers_t.c.openreview,
            papers_t.c.title_key,
        )
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                yield tuple(row)  # type: ignore[misc]

    def match_texts(self) -> Iterator[tuple[int, str, bool, str]]:
        """(id, title, title_is_derived, abstract) of papers with an abstract (fuzzy matching)."""
        query = select(
            papers_t.c.id, papers_t.c.title, papers_t.c.title_is_derived, papers_t.c.abstract
        ).where(papers_t.c.abstract != "")
        with self.engine.connect() as connection:
            for row in connection.execute(query):
                yield row.id, row.title, bool(row.title_is_derived), row.abstract

    # ----------------------------------------------------------------- tags

    def add_tags(self, ids: Sequence[int], names: Sequence[str]) -> Changes:
        names = _clean_names(names, "tag")
        ids = self.require_papers(ids)
        with self._action(f"Add tag {', '.join(names)}") as w:
            tag_ids = [_ensure_tag(w, name) for name in names]
            with w.journal.tracked_ids(paper_tags_t, "paper_id", ids):
                for tag_id in tag_ids:
                    for chunk in chunked(ids):
                        present = set(
                            w.connection.scalars(
                                select(paper_tags_t.c.paper_id).where(
                                    paper_tags_t.c.tag_id == tag_id,
                                    paper_tags_t.c.paper_id.in_(chunk),
                                )
                            )
                        )
                        rows = [
                            {"paper_id": p, "tag_id": tag_id} for p in chunk if p not in present
                        ]
                        if rows:
                            w.connection.execute(insert(paper_tags_t), rows)
        return Changes(f"Add tag {', '.join(names)}", ids_of(ids), tags=True)

    def remove_tags(self, ids: Sequence[int], names: Sequence[str]) -> Changes:
        names = _clean_names(names, "tag")
        ids = self.require_papers(ids)
        with self._action(f"Remove tag {', '.join(names)}") as w:
            tag_ids = [
                t for t in (_tag_id_or_none(w.connection, n) for n in names) if t is not None
            ]
            with w.journal.tracked_ids(paper_tags_t, "paper_id", ids):
                for chunk in chunked(ids):
                    w.connection.execute(
                        delete(paper_tags_t).where(
                            paper_tags_t.c.paper_id.in_(chunk), paper_tags_t.c.tag_id.in_(tag_ids)
                        )
                    )
        return Changes(f"Remove tag {', '.join(names)}", ids_of(ids), tags=True)

    def rename_tag(self, old: str, new: str) -> Changes:
        (new,) = _clean_names([new], "tag")
        with self._action(f"Rename tag {old} to {new}") as w:
            # Children of a hierarchical tag move with it: "ml" -> "learning" renames "ml/rnn"
            # (and "ml" may be only a branch of the tree, with no tag of its own).
            affected = _tag_family(w.connection, old)
            clash = _tag_id_or_none(w.connection, new)
            if clash is not None and clash not in {t for t, _ in affected}:
                raise InvalidValueError(f"a tag named {new!r} already exists; merge instead")
            with w.journal.tracked(tags_t, tags_t.c.id.in_([t for t, _ in affected])):
                for family_id, family_name in affected:
                    renamed = new + family_name[len(old) :]
                    w.connection.execute(
                        update(tags_t).where(tags_t.c.id == family_id).values(name=renamed)
                    )
            paper_ids = _papers_with_tags(w.connection, [t for t, _ in affected])
        return Changes(f"Rename tag {old} to {new}", ids_of(paper_ids), tags=True)

    def merge_tags(self, sources: Sequence[str], target: str) -> Changes:
        (target,) = _clean_names([target], "tag")
        description = f"Merge {', '.join(sources)} into {target}"
        with self._action(description) as w:
            source_ids = [_tag_id(w.connection, s) for s in sources]
            target_id = _ensure_tag(w, target)
            source_ids = [s for s in source_ids if s != target_id]
            paper_ids = _papers_with_tags(w.connection, source_ids)
            with (
                w.journal.tracked_ids(tags_t, "id", [*source_ids, target_id]),
                w.journal.tracked_ids(paper_tags_t, "paper_id", paper_ids),
            ):
                already = set(
                    w.connection.scalars(
                        select(paper_tags_t.c.paper_id).where(paper_tags_t.c.tag_id == target_id)
                    )
                )
                rows = [{"paper_id": p, "tag_id": target_id} for p in paper_ids if p not in already]
                if rows:
                    w.connection.execute(insert(paper_tags_t), rows)
                w.connection.execute(
                    delete(paper_tags_t).where(paper_tags_t.c.tag_id.in_(source_ids))
                )
                w.connection.execute(delete(tags_t).where(tags_t.c.id.in_(source_ids)))
        return Changes(description, ids_of(paper_ids), tags=True)

    def delete_tag(self, name: str) -> Changes:
        with self._action(f"Delete tag {name}") as w:
            tag_id = _tag_id(w.connection, name)
            paper_ids = _papers_with_tags(w.connection, [tag_id])
            with (
                w.journal.tracked_ids(tags_t, "id", [tag_id]),
                w.journal.tracked(paper_tags_t, paper_tags_t.c.tag_id == tag_id),
            ):
                w.connection.execute(delete(paper_tags_t).where(paper_tags_t.c.tag_id == tag_id))
                w.connection.execute(delete(tags_t).where(tags_t.c.id == tag_id))
        return Changes(f"Delete tag {name}", ids_of(paper_ids), tags=True)

    def set_tag_colour(self, name: str, colour: str | None) -> Changes:
        colour = _clean_colour(colour)
        with self._action(f"Recolour tag {name}") as w:
            tag_id = _tag_id(w.connection, name)
            with w.journal.tracked_ids(tags_t, "id", [tag_id]):
                w.connection.execute(
                    update(tags_t).where(tags_t.c.id == tag_id).values(colour=colour)
                )
        return Changes(f"Recolour tag {name}", tags=True)

    def create_tag(self, name: str, colour: str | None = None) -> Changes:
        (name,) = _clean_names([name], "tag")
        colour = _clean_colour(colour)
        with self._action(f"Create tag {name}") as w:
            if _tag_id_or_none(w.connection, name) is not None:
                raise InvalidValueError(f"a tag named {name!r} already exists")
            with w.journal.tracked(tags_t, tags_t.c.name == name):
                w.connection.execute(insert(tags_t).values(name=name, colour=colour))
        return Changes(f"Create tag {name}", tags=True)

    # ----------------------------------------------------------------- paper fields

    def set_status(self, ids: Sequence[int], status: Status) -> Changes:
        return self._set_paper_field(ids, "status", status.value, f"Set status {status.value}")

    def set_rating(self, ids: Sequence[int], rating: int) -> Changes:
        if not 0 <= rating <= MAX_RATING:
            raise InvalidValueError(f"rating must be between 0 and {MAX_RATING}, not {rating}")
        label = f"Rate {rating} star{'s' if rating != 1 else ''}" if rating else "Clear rating"
        return self._set_paper_field(ids, "rating", rating, label)

    def set_title(self, paper_id: int, title: str) -> Changes:
        from paperdesk.core.text import collapse_whitespace, normalise_for_matching

        title = collapse_whitespace(title)
        if not title:
            raise InvalidValueError("a title cannot be empty")
        (paper_id,) = self.require_papers([paper_id])
        with self._action("Edit title") as w:
            with w.journal.tracked_ids(papers_t, "id", [paper_id]):
                w.connection.execute(
                    update(papers_t)
                    .where(papers_t.c.id == paper_id)
                    .values(
                        title=title,
                        title_is_derived=False,
                        title_key=normalise_for_matching(title),
                        updated=now(),
                    )
                )
        return Changes("Edit title", ids_of([paper_id]))

    def set_citation_keys(self, keys: dict[int, str]) -> Changes:
        """Store generated citation keys so a paper keeps its key across exports."""
        with self._action("Assign citation keys") as w:
            with w.journal.tracked_ids(papers_t, "id", list(keys), only=["citation_key"]):
                for paper_id, key in keys.items():
                    w.connection.execute(
                        update(papers_t).where(papers_t.c.id == paper_id).values(citation_key=key)
                    )
        return Changes("Assign citation keys", ids_of(keys))

    def citation_keys_in_use(self) -> set[str]:
        with self.engine.connect() as connection:
            query = select(papers_t.c.citation_key).where(papers_t.c.citation_key.is_not(None))
            return set(connection.scalars(query))

    def _set_paper_field(
        self, ids: Sequence[int], column: str, value: object, label: str
    ) -> Changes:
        ids = self.require_papers(ids)
        with self._action(label) as w:
            with w.journal.tracked_ids(papers_t, "id", ids, only=[column, "updated"]):
                stamp = now()
                for chunk in chunked(ids):
                    w.connection.execute(
                        update(papers_t)
                        .where(papers_t.c.id.in_(chunk), papers_t.c[column] != value)
                        .values({column: value, "updated": stamp})
                    )
        return Changes(label, ids_of(ids))

    def delete_papers(self, ids: Sequence[int]) -> Changes:
        ids = self.require_papers(ids)
        label = f"Delete {len(ids)} paper{'s' if len(ids) != 1 else ''}"
        with self._action(label) as w:
            # Children first in the journal so undo restores the papers before them.
            with (
                w.journal.tracked_ids(papers_t, "id", ids),
                w.journal.tracked_ids(authors_t, "paper_id", ids),
                w.journal.tracked_ids(paper_tags_t, "paper_id", ids),
                w.journal.tracked_ids(notes_t, "paper_id", ids),
                w.journal.tracked_ids(entries_t, "paper_id", ids),
                w.journal.tracked_ids(batch_papers_t, "paper_id", ids),
                w.journal.tracked(not_duplicates_t, _not_duplicates_of(ids)),
            ):
                for chunk in chunked(ids):
                    w.connection.execute(delete(papers_t).where(papers_t.c.id.in_(chunk)))
        return Changes(label, ids_of(ids), papers_added_or_removed=True, tags=True, shortlists=True)

    # ----------------------------------------------------------------- duplicates

    def not_duplicate_pairs(self) -> set[tuple[int, int]]:
        """Pairs (smaller id first) the user said are different papers."""
        with self.engine.connect() as connection:
            return _not_duplicate_pairs(connection, true())

    def mark_not_duplicates(self, ids: Sequence[int]) -> Changes:
        """Remember that these papers are all different from each other."""
        ids = sorted(self.require_papers(ids))
        if len(ids) < 2:
            raise InvalidValueError("name at least two papers that are not duplicates")
        label = f"Mark {', '.join(str(i) for i in ids)} as not duplicates"
        with self._action(label) as w:
            where = and_(not_duplicates_t.c.paper_a.in_(ids), not_duplicates_t.c.paper_b.in_(ids))
            with w.journal.tracked(not_duplicates_t, where):
                present = _not_duplicate_pairs(w.connection, where)
                rows = [
                    {"paper_a": a, "paper_b": b}
                    for a, b in combinations(ids, 2)
                    if (a, b) not in present
                ]
                if rows:
                    w.connection.execute(insert(not_duplicates_t), rows)
        return Changes(label, ids_of(ids))

    def merge_papers(self, merges: Sequence[PaperMerge], description: str) -> Changes:
        """Fold each cluster into its survivor in one action; undo restores every record."""
        ids = [paper_id for m in merges for paper_id in (m.survivor, *m.others)]
        if len(set(ids)) != len(ids):
            raise InvalidValueError("a paper can be merged in one cluster only")
        self.require_papers(ids)
        with self._action(description) as w:
            for merge in merges:
                _merge_cluster(w, merge)
        return Changes(
            description, ids_of(ids), papers_added_or_removed=True, tags=True, shortlists=True
        )

    # ----------------------------------------------------------------- notes

    def note(self, paper_id: int) -> str:
        with self.engine.connect() as connection:
            body = connection.scalar(select(notes_t.c.body).where(notes_t.c.paper_id == paper_id))
        return body or ""

    def set_note(self, paper_id: int, body: str) -> Changes:
        (paper_id,) = self.require_papers([paper_id])
        with self._action("Edit note") as w:
            with w.journal.tracked_ids(notes_t, "paper_id", [paper_id]):
                stamp = now()
                existing = w.connection.scalar(
                    select(notes_t.c.created).where(notes_t.c.paper_id == paper_id)
                )
                if not body.strip():
                    w.connection.execute(delete(notes_t).where(notes_t.c.paper_id == paper_id))
                elif existing is None:
                    w.connection.execute(
                        insert(notes_t).values(
                            paper_id=paper_id, body=body, created=stamp, updated=stamp
                        )
                    )
                else:
                    w.connection.execute(
                        update(notes_t)
                        .where(notes_t.c.paper_id == paper_id, notes_t.c.body != body)
                        .values(body=body, updated=stamp)
                    )
        return Changes("Edit note", ids_of([paper_id]))

    # ----------------------------------------------------------------- shortlists

    def create_shortlist(self, name: str) -> Changes:
        (name,) = _clean_names([name], "shortlist")
        with self._action(f"Create shortlist {name}") as w:
            if _shortlist_id_or_none(w.connection, name) is not None:
                raise InvalidValueError(f"a shortlist named {name!r} already exists")
            with w.journal.tracked(shortlists_t, shortlists_t.c.name == name):
                w.connection.execute(insert(shortlists_t).values(name=name, created=now()))
        return Changes(f"Create shortlist {name}", shortlists=True)

    def rename_shortlist(self, old: str, new: str) -> Changes:
        (new,) = _clean_names([new], "shortlist")
        with self._action(f"Rename shortlist {old} to {new}") as w:
            shortlist_id = _shortlist_id(w.connection, old)
            clash = _shortlist_id_or_none(w.connection, new)
            if clash is not None and clash != shortlist_id:
                raise InvalidValueError(f"a shortlist named {new!r} already exists")
            with w.journal.tracked_ids(shortlists_t, "id", [shortlist_id]):
                w.connection.execute(
                    update(shortlists_t).where(shortlists_t.c.id == shortlist_id).values(name=new)
                )
            paper_ids = _shortlist_members(w.connection, shortlist_id)
        return Changes(f"Rename shortlist {old} to {new}", ids_of(paper_ids), shortlists=True)

    def delete_shortlist(self, name: str) -> Changes:
        with self._action(f"Delete shortlist {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            paper_ids = _shortlist_members(w.connection, shortlist_id)
            with (
                w.journal.tracked_ids(shortlists_t, "id", [shortlist_id]),
                w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]),
            ):
                w.connection.execute(
                    delete(entries_t).where(entries_t.c.shortlist_id == shortlist_id)
                )
                w.connection.execute(delete(shortlists_t).where(shortlists_t.c.id == shortlist_id))
        return Changes(f"Delete shortlist {name}", ids_of(paper_ids), shortlists=True)

    def add_to_shortlist(self, name: str, ids: Sequence[int]) -> Changes:
        ids = self.require_papers(ids)
        with self._action(f"Add to {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            with w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]):
                members = set(_shortlist_members(w.connection, shortlist_id))
                last = w.connection.scalar(
                    select(func.max(entries_t.c.position)).where(
                        entries_t.c.shortlist_id == shortlist_id
                    )
                )
                start = (last or 0.0) + 1.0
                new = [p for p in ids if p not in members]
                rows = [
                    {"shortlist_id": shortlist_id, "paper_id": p, "position": start + i}
                    for i, p in enumerate(new)
                ]
                if rows:
                    w.connection.execute(insert(entries_t), rows)
        return Changes(f"Add to {name}", ids_of(ids), shortlists=True)

    def remove_from_shortlist(self, name: str, ids: Sequence[int]) -> Changes:
        with self._action(f"Remove from {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            with w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]):
                for chunk in chunked(list(ids)):
                    w.connection.execute(
                        delete(entries_t).where(
                            entries_t.c.shortlist_id == shortlist_id,
                            entries_t.c.paper_id.in_(chunk),
                        )
                    )
        return Changes(f"Remove from {name}", ids_of(ids), shortlists=True)

    def reorder_shortlist(self, name: str, ordered_ids: Sequence[int]) -> Changes:
        """Put the given members first, in this order; members not named keep theirs after."""
        with self._action(f"Reorder {name}") as w:
            shortlist_id = _shortlist_id(w.connection, name)
            current = _shortlist_members(w.connection, shortlist_id)
            members = set(current)
            strangers = [i for i in ordered_ids if i not in members]
            if strangers:
                raise InvalidValueError(f"paper {strangers[0]} is not in the shortlist {name!r}")
            named = list(dict.fromkeys(ordered_ids))
            order = named + [i for i in current if i not in set(named)]
            with w.journal.tracked_ids(entries_t, "shortlist_id", [shortlist_id]):
                for position, paper_id in enumerate(order, start=1):
                    w.connection.execute(
                        update(entries_t)
                        .where(
                            entries_t.c.shortlist_id == shortlist_id,
                            entries_t.c.paper_id == paper_id,
                        )
                        .values(position=float(position))
                    )
        return Changes(f"Reorder {name}", shortlists=True)

    # ----------------------------------------------------------------- saved searches

    def save_search(self, name: str, query: str) -> Changes:
        (name,) = _clean_names([name], "saved search")
        with self._action(f"Save search {name}") as w:
            where = saved_t.c.name == name
            with w.journal.tracked(saved_t, where):
                existing = w.connection.scalar(select(saved_t.c.id).where(where))
                if existing is None:
                    w.connection.execute(
                        insert(saved_t).values(name=name, query=query, created=now())
                    )
                else:
                    w.connection.execute(update(saved_t).where(where).values(query=query))
        return Changes(f"Save search {name}", saved_searches=True)

    def delete_saved_search(self, name: str) -> Changes:
        with self._action(f"Delete saved search {name}") as w:
            where = saved_t.c.name == name
            if w.connection.scalar(select(saved_t.c.id).where(where)) is None:
                raise NotFoundError(f"no saved search named {name!r}")
            with w.journal.tracked(saved_t, where):
                w.connection.execute(delete(saved_t).where(where))
        return Changes(f"Delete saved search {name}", saved_searches=True)

    # ----------------------------------------------------------------- undo / redo

    def undo_candidate(self) -> HistoryEntry | None:
        return self._history_candidate(undone=False)

    def redo_candidate(self) -> HistoryEntry | None:
        return self._history_candidate(undone=True)

    def _history_candidate(self, *, undone: bool) -> HistoryEntry | None:
        order = history_t.c.id.asc() if undone else history_t.c.id.desc()
        query = (
            select(history_t)
            .where(history_t.c.undone.is_(undone), history_t.c.payload.like("[%"))
            .order_by(order)
            .limit(1)
        )
        with self.engine.connect() as connection:
            row = connection.execute(query).first()
        return HistoryEntry(row.id, row.action, row.actor, row.at, row.undone) if row else None

    def undo(self) -> Changes | None:
        return self._replay(undo=True)

    def redo(self) -> Changes | None:
        return self._replay(undo=False)

    def _replay(self, *, undo: bool) -> Changes | None:
        entry = self.undo_candidate() if undo else self.redo_candidate()
        if entry is None:
            return None
        with self.engine.begin() as connection:
            payload = connection.scalar(
                select(history_t.c.payload).where(history_t.c.id == entry.id)
            )
            steps = steps_from_json(payload)
            touched_before = _papers_touched(connection, steps)
            apply_states(connection, steps, undo=undo)
            touched_after = _papers_touched(connection, steps)
            connection.execute(
                update(history_t).where(history_t.c.id == entry.id).values(undone=undo)
            )
            _bump_generation(connection)
        tables = {s.table for s in steps}
        verb = "Undo" if undo else "Redo"
        return Changes(
            f"{verb} {entry.action}",
            ids_of(touched_before | touched_after),
            papers_added_or_removed=_adds_or_removes_papers(steps),
            tags=bool(tables & {"tags", "paper_tags"}),
            shortlists=bool(tables & {"shortlists", "shortlist_entries"}),
            saved_searches="saved_searches" in tables,
            history_id=entry.id,
        )

    # ----------------------------------------------------------------- bulk import paths

    @contextmanager
    def bulk_write(self, description: str) -> Iterator[Connection]:
        """A transaction for imports: recorded in history, not journaled row by row."""
        with self._action(description, undoable=False) as w:
            yield w.connection


# --------------------------------------------------------------------- helpers


def _current_user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name (containers): still record something
        return "unknown"


def _bump_generation(connection: Connection) -> None:
    current = connection.scalar(select(meta_t.c.value).where(meta_t.c.key == "generation"))
    if current is None:
        connection.execute(insert(meta_t).values(key="generation", value="1"))
    else:
        connection.execute(
            update(meta_t).where(meta_t.c.key == "generation").values(value=str(int(current) + 1))
        )


def _clean_names(names: Iterable[str], kind: str) -> list[str]:
    cleaned = []
    for name in names:
        text = "/".join(part.strip() for part in str(name).strip().split("/"))
        if not text or "//" in text or text.startswith("/") or text.endswith("/"):
            raise InvalidValueError(f"{name!r} is not a valid {kind} name")
        if "," in text and kind == "tag":
            raise InvalidValueError(f"a tag name cannot contain a comma: {name!r}")
        cleaned.append(text)
    if not cleaned:
        raise InvalidValueError(f"no {kind} name given")
    return list(dict.fromkeys(cleaned))


def _clean_colour(colour: str | None) -> str | None:
    if colour is None or colour == "":
        return None
    text = colour.strip().lower()
    if len(text) == 7 and text.startswith("#") and all(c in "0123456789abcdef" for c in text[1:]):
        return text
    raise InvalidValueError(f"colour must look like #rrggbb, not {colour!r}")


def _tag_id_or_none(connection: Connection, name: str) -> int | None:
    return connection.scalar(select(tags_t.c.id).where(tags_t.c.name == name))


def _tag_id(connection: Connection, name: str) -> int:
    tag_id = _tag_id_or_none(connection, name)
    if tag_id is None:
        raise NotFoundError(f"no tag named {name!r}")
    return tag_id


def _ensure_tag(w: Write, name: str) -> int:
    existing = _tag_id_or_none(w.connection, name)
    if existing is not None:
        return existing
    with w.journal.tracked(tags_t, tags_t.c.name == name):
        result = w.connection.execute(insert(tags_t).values(name=name, colour=None))
    return int(result.inserted_primary_key[0])  # type: ignore[index]


def _tag_family(connection: Connection, name: str) -> list[tuple[int, str]]:
    """The tag and its `name/...` descendants.

    Names compare with the column's NOCASE collation, the same rule as the unique
    constraint (SQL lower() and Python lower() disagree on non-ASCII capitals).
    """
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = connection.execute(
        select(tags_t.c.id, tags_t.c.name).where(
            (tags_t.c.name == name) | tags_t.c.name.like(escaped + "/%", escape="\\")
        )
    )
    family = [(r.id, r.name) for r in rows]
    if not family:
        raise NotFoundError(f"no tag named {name!r}")
    return family


def _papers_with_tags(connection: Connection, tag_ids: Sequence[int]) -> list[int]:
    query = (
        select(paper_tags_t.c.paper_id).where(paper_tags_t.c.tag_id.in_(list(tag_ids))).distinct()
    )
    return list(connection.scalars(query))


def _shortlist_id_or_none(connection: Connection, name: str) -> int | None:
    return connection.scalar(select(shortlists_t.c.id).where(shortlists_t.c.name == name.strip()))


def _shortlist_id(connection: Connection, name: str) -> int:
    shortlist_id = _shortlist_id_or_none(connection, name)
    if shortlist_id is None:
        raise NotFoundError(f"no shortlist named {name!r}")
    return shortlist_id


def _shortlist_members(connection: Connection, shortlist_id: int) -> list[int]:
    query = (
        select(entries_t.c.paper_id)
        .where(entries_t.c.shortlist_id == shortlist_id)
        .order_by(entries_t.c.position, entries_t.c.paper_id)
    )
    return list(connection.scalars(query))


def _not_duplicate_pairs(connection: Connection, where: Any) -> set[tuple[int, int]]:
    query = select(not_duplicates_t.c.paper_a, not_duplicates_t.c.paper_b).where(where)
    return {(a, b) for a, b in connection.execute(query)}


def _not_duplicates_of(ids: Sequence[int]) -> Any:
    return or_(not_duplicates_t.c.paper_a.in_(ids), not_duplicates_t.c.paper_b.in_(ids))


def _merge_cluster(w: Write, merge: PaperMerge) -> None:
    survivor, others = merge.survivor, list(merge.others)
    ids = [survivor, *others]
    # Undo replays steps backwards: the survivor's row comes back first (releasing a
    # citation key it inherited), then the others, then the rows that hang off them.
    with (
        w.journal.tracked_ids(papers_t, "id", [survivor]),
        w.journal.tracked_ids(papers_t, "id", others),
        w.journal.tracked_ids(authors_t, "paper_id", ids),
        w.journal.tracked_ids(paper_tags_t, "paper_id", ids),
        w.journal.tracked_ids(notes_t, "paper_id", ids),
        w.journal.tracked_ids(entries_t, "paper_id", ids),
        w.journal.tracked_ids(batch_papers_t, "paper_id", ids),
        w.journal.tracked(not_duplicates_t, _not_duplicates_of(ids)),
    ):
        connection = w.connection
        _move_links(connection, paper_tags_t, "tag_id", survivor, others)
        _move_links(connection, batch_papers_t, "batch_id", survivor, others)
        _move_shortlist_entries(connection, survivor, others)
        _move_not_duplicates(connection, survivor, others)
        _replace_note(connection, survivor, others, merge.note)
        connection.execute(delete(papers_t).where(papers_t.c.id.in_(others)))
        values = dict(merge.values)
        authors = values.pop("authors", None)
        connection.execute(
            update(papers_t).where(papers_t.c.id == survivor).values(**values, updated=now())
        )
        if authors is not None:
            connection.execute(delete(authors_t).where(authors_t.c.paper_id == survivor))
            rows = [{"paper_id": survivor, "position": i, "name": n} for i, n in enumerate(authors)]
            if rows:
                connection.execute(insert(authors_t), rows)


def _move_links(
    connection: Connection, table: Table, other_column: str, survivor: int, others: list[int]
) -> None:
    """Give the survivor every (paper, X) link the others had: their tags, their imports."""
    column = table.c[other_column]
    have = set(connection.scalars(select(column).where(table.c.paper_id == survivor)))
    incoming = set(connection.scalars(select(column).where(table.c.paper_id.in_(others))))
    rows = [{"paper_id": survivor, other_column: value} for value in sorted(incoming - have)]
    if rows:
        connection.execute(insert(table), rows)
    connection.execute(delete(table).where(table.c.paper_id.in_(others)))


def _move_shortlist_entries(connection: Connection, survivor: int, others: list[int]) -> None:
    """The survivor joins every shortlist of the others, at the earlier place when in both."""
    positions: dict[int, float] = {
        shortlist_id: position
        for shortlist_id, position in connection.execute(
            select(entries_t.c.shortlist_id, entries_t.c.position).where(
                entries_t.c.paper_id == survivor
            )
        )
    }
    incoming = connection.execute(
        select(entries_t.c.shortlist_id, entries_t.c.position)
        .where(entries_t.c.paper_id.in_(others))
        .order_by(entries_t.c.position)
    ).all()
    for shortlist_id, position in incoming:
        current = positions.get(shortlist_id)
        if current is not None and current <= position:
            continue
        if current is None:
            connection.execute(
                insert(entries_t).values(
                    shortlist_id=shortlist_id, paper_id=survivor, position=position
                )
            )
        else:
            connection.execute(
                update(entries_t)
                .where(entries_t.c.shortlist_id == shortlist_id, entries_t.c.paper_id == survivor)
                .values(position=position)
            )
        positions[shortlist_id] = position
    connection.execute(delete(entries_t).where(entries_t.c.paper_id.in_(others)))


def _move_not_duplicates(connection: Connection, survivor: int, others: list[int]) -> None:
    """A paper the user said differs from one of the others differs from the survivor too."""
    merged = {survivor, *others}
    rows = _not_duplicate_pairs(connection, _not_duplicates_of(others))
    connection.execute(delete(not_duplicates_t).where(_not_duplicates_of(others)))
    existing = _not_duplicate_pairs(connection, _not_duplicates_of([survivor]))
    for a, b in sorted(rows):
        partner = b if a in merged else a
        pair = (min(survivor, partner), max(survivor, partner))
        if partner not in merged and pair not in existing:
            connection.execute(insert(not_duplicates_t).values(paper_a=pair[0], paper_b=pair[1]))
            existing.add(pair)


def _replace_note(connection: Connection, survivor: int, others: list[int], body: str) -> None:
    connection.execute(delete(notes_t).where(notes_t.c.paper_id.in_(others)))
    current = connection.scalar(select(notes_t.c.body).where(notes_t.c.paper_id == survivor))
    if body == (current or ""):
        return
    stamp = now()
    if not body.strip():
        connection.execute(delete(notes_t).where(notes_t.c.paper_id == survivor))
    elif current is None:
        connection.execute(
            insert(notes_t).values(paper_id=survivor, body=body, created=stamp, updated=stamp)
        )
    else:
        connection.execute(
            update(notes_t).where(notes_t.c.paper_id == survivor).values(body=body, updated=stamp)
        )


def _adds_or_removes_papers(steps: Sequence[Step]) -> bool:
    """Whether replaying the steps changes which papers exist (not just their fields)."""
    for step in steps:
        if step.table == "papers":
            before = {row["id"] for row in step.before}
            after = {row["id"] for row in step.after}
            if before != after:
                return True
    return False


def _papers_touched(connection: Connection, steps: Sequence[object]) -> set[int]:
    """Paper ids whose search document depends on the journaled rows."""
    touched: set[int] = set()
    tag_ids: set[int] = set()
    shortlist_ids: set[int] = set()
    for step in steps:
        for row in [*step.before, *step.after]:  # type: ignore[attr-defined]
            if "paper_id" in row:
                touched.add(row["paper_id"])
            if step.table == "papers":  # type: ignore[attr-defined]
                touched.add(row["id"])
            if step.table == "tags":  # type: ignore[attr-defined]
                tag_ids.add(row["id"])
            if step.table in ("shortlists", "shortlist_entries"):  # type: ignore[attr-defined]
                shortlist_ids.add(row.get("shortlist_id", row.get("id")))
    if tag_ids:
        touched.update(_papers_with_tags(connection, list(tag_ids)))
    for shortlist_id in shortlist_ids:
        touched.update(_shortlist_members(connection, shortlist_id))
    return touched


def _names_by_paper(connection: Connection, query: Select) -> dict[int, list[str]]:
    """(paper_id, name) rows grouped by paper, in the query's order."""
    grouped: dict[int, list[str]] = defaultdict(list)
    for paper_id, name in connection.execute(query):
        grouped[paper_id].append(name)
    return grouped


def _load_papers(connection: Connection, ids: list[int]) -> dict[int, Paper]:
    """Papers by id with everything attached: five queries per chunk, no per-row queries."""
    authors = _names_by_paper(
        connection,
        select(authors_t.c.paper_id, authors_t.c.name)
        .where(authors_t.c.paper_id.in_(ids))
        .order_by(authors_t.c.paper_id, authors_t.c.position),
    )
    tags = _names_by_paper(
        connection,
        select(paper_tags_t.c.paper_id, tags_t.c.name)
        .join(tags_t, tags_t.c.id == paper_tags_t.c.tag_id)
        .where(paper_tags_t.c.paper_id.in_(ids))
        .order_by(func.lower(tags_t.c.name)),
    )
    shortlists = _names_by_paper(
        connection,
        select(entries_t.c.paper_id, shortlists_t.c.name)
        .join(shortlists_t, shortlists_t.c.id == entries_t.c.shortlist_id)
        .where(entries_t.c.paper_id.in_(ids))
        .order_by(func.lower(shortlists_t.c.name)),
    )
    notes = dict(
        connection.execute(
            select(notes_t.c.paper_id, notes_t.c.body).where(notes_t.c.paper_id.in_(ids))
        ).all()
    )
    result: dict[int, Paper] = {}
    for row in connection.execute(select(papers_t).where(papers_t.c.id.in_(ids))):
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
            rating=row.rating,
            added=row.added,
            updated=row.updated,
            fingerprint=row.fingerprint,
            entry_type=row.entry_type,
            citation_key=row.citation_key,
            tags=tuple(tags.get(row.id, ())),
            shortlists=tuple(shortlists.get(row.id, ())),
            note=notes.get(row.id, ""),
            raw_fields=tuple(tuple(pair) for pair in json.loads(row.raw_fields or "[]")),
        )
    return result

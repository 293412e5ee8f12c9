"""Merging duplicate papers into one, and remembering pairs that are not duplicates.

What a merge keeps is decided in services/use_cases/duplicates.py; here a decided merge is
applied as one undoable action that moves everything the others had to the survivor.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    and_,
    delete,
    insert,
    select,
    text,
    true,
    update,
)

from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError
from paperdesk.store.database import SubStore, Write
from paperdesk.store.member_values import fold_member_values
from paperdesk.store.notes import write_note
from paperdesk.store.papers import (
    STATE_COLUMNS,
    not_duplicates_of,
    require_ids,
    tracked_with_links,
)
from paperdesk.store.tables import (
    annotations_t,
    authors_t,
    batch_papers_t,
    decisions_t,
    entries_t,
    not_duplicates_t,
    notes_t,
    now,
    paper_tags_t,
    papers_t,
    state_t,
)


@dataclass(frozen=True)
class PaperMerge:
    """One cluster of duplicates folded into its survivor (decided by services/duplicates)."""

    survivor: int
    others: tuple[int, ...]
    # Survivor columns to set; "authors" (a sequence of names) replaces its author list.
    values: Mapping[str, Any]
    note: str  # the survivor's note after the merge; "" for none


class MergeStore(SubStore):
    def not_duplicate_pairs(self) -> set[tuple[int, int]]:
        """Pairs (smaller id first) the user said are different papers."""
        with self._db.read() as connection:
            return _pairs(connection, true())

    def mark_not_duplicates(self, ids: Sequence[int]) -> Changes:
        """Remember that these papers are all different from each other."""
        ids = sorted(dict.fromkeys(int(i) for i in ids))
        if len(ids) < 2:
            raise InvalidValueError("name at least two papers that are not duplicates")
        label = f"Mark {', '.join(str(i) for i in ids)} as not duplicates"
        with self._db.action(label) as w:
            require_ids(w.connection, ids)
            where = and_(not_duplicates_t.c.paper_a.in_(ids), not_duplicates_t.c.paper_b.in_(ids))
            with w.journal.tracked(not_duplicates_t, where):
                present = _pairs(w.connection, where)
                rows = [
                    {"paper_a": a, "paper_b": b}
                    for a, b in combinations(ids, 2)
                    if (a, b) not in present
                ]
                if rows:
                    w.connection.execute(insert(not_duplicates_t), rows)
        return w.changes

    def merge(self, merges: Sequence[PaperMerge], description: str) -> Changes:
        """Fold each cluster into its survivor in one action; undo restores every record."""
        ids = [paper_id for m in merges for paper_id in (m.survivor, *m.others)]
        if len(set(ids)) != len(ids):
            raise InvalidValueError("a paper can be merged in one cluster only")
        with self._db.action(description) as w:
            require_ids(w.connection, ids)
            for merge in merges:
                _merge_cluster(w, merge)
        return w.changes


def _pairs(connection: Connection, where: ColumnElement[bool]) -> set[tuple[int, int]]:
    query = select(not_duplicates_t.c.paper_a, not_duplicates_t.c.paper_b).where(where)
    return {(a, b) for a, b in connection.execute(query)}


def _merge_cluster(w: Write, merge: PaperMerge) -> None:
    survivor, others = merge.survivor, list(merge.others)
    with tracked_with_links(w.journal, [survivor], others):
        connection = w.connection
        _move_links(connection, paper_tags_t, "tag_id", survivor, others)
        _move_links(connection, batch_papers_t, "batch_id", survivor, others)
        _move_shortlist_entries(connection, survivor, others)
        _move_not_duplicates(connection, survivor, others)
        _replace_note(connection, survivor, others, merge.note)
        fold_member_values(connection, survivor, others)  # a team library's own notes
        # Marked passages and logged decisions were about the same work: they follow it.
        connection.execute(
            update(annotations_t)
            .where(annotations_t.c.paper_id.in_(others))
            .values(paper_id=survivor)
        )
        _move_decisions_and_delete(connection, survivor, others)
        values = dict(merge.values)
        authors = values.pop("authors", None)
        # The user's decisions (the best rating, the furthest status) live in the state.
        state = {name: values.pop(name) for name in STATE_COLUMNS if name in values}
        if values:
            connection.execute(update(papers_t).where(papers_t.c.id == survivor).values(**values))
        connection.execute(
            update(state_t).where(state_t.c.paper_id == survivor).values(**state, updated=now())
        )
        if authors is not None:
            connection.execute(delete(authors_t).where(authors_t.c.paper_id == survivor))
            rows = [{"paper_id": survivor, "position": i, "name": n} for i, n in enumerate(authors)]
            if rows:
                connection.execute(insert(authors_t), rows)


def _move_decisions_and_delete(connection: Connection, survivor: int, others: list[int]) -> None:
    """Every decision on the others goes to the survivor, then the others go. A team
    member sees only some decisions (a blind screening hides the others' until they
    finish): the server moves everyone's, in one call (migration 0011)."""
    if connection.dialect.name == "postgresql":
        connection.execute(
            text("SELECT paperdesk_merge_away(:survivor, CAST(:others AS integer[]))"),
            {"survivor": survivor, "others": others},
        )
        return
    connection.execute(
        update(decisions_t).where(decisions_t.c.paper_id.in_(others)).values(paper_id=survivor)
    )
    connection.execute(delete(papers_t).where(papers_t.c.id.in_(others)))


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
    rows = _pairs(connection, not_duplicates_of(others))
    connection.execute(delete(not_duplicates_t).where(not_duplicates_of(others)))
    existing = _pairs(connection, not_duplicates_of([survivor]))
    for a, b in sorted(rows):
        partner = b if a in merged else a
        pair = (min(survivor, partner), max(survivor, partner))
        if partner not in merged and pair not in existing:
            connection.execute(insert(not_duplicates_t).values(paper_a=pair[0], paper_b=pair[1]))
            existing.add(pair)


def _replace_note(connection: Connection, survivor: int, others: list[int], body: str) -> None:
    connection.execute(delete(notes_t).where(notes_t.c.paper_id.in_(others)))
    write_note(connection, survivor, body)

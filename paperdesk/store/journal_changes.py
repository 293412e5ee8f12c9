"""What an action changed, read from its journal: the `Changes` every write returns.

The journal (store/journal.py) holds the rows an action changed, before and after, so it
can be undone. The same rows say which papers the action touched and which sidebar
sections went stale, so no writer states them by hand, and an undo or a redo reports
its changes the same way as the action (store/history.py). A row counts only if it
changed: a journal block reads every row the action may touch (all the tags of the
papers being tagged), of which the action changes some.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import Connection, select

from paperdesk.core.changes import Changes, ids_of
from paperdesk.store.journal import Row, Step
from paperdesk.store.schema import Base
from paperdesk.store.tables import entries_t, paper_tags_t, papers_t

#: The sidebar section each table's rows are listed in.
_SECTIONS = {
    "tags": ("tags", "paper_tags"),
    "shortlists": ("shortlists", "shortlist_entries"),
    "saved_searches": ("saved_searches",),
    "imports": ("import_batches",),
    "highlight_words": ("highlight_words",),
}
#: Columns whose change alone reaches no paper's row nor its search document: a tag's
#: colour (the tag list shows it) and a paper's place in a shortlist (the shortlist's
#: order shows it; the index holds its name only).
_UNSHOWN_COLUMNS = {"tags": {"colour"}, "shortlist_entries": {"position"}}
#: Which file imported a paper is the import list's, not the paper's: a re-import of a
#: file of 3,000 unchanged papers links all of them to its batch and re-indexes none.
_UNSHOWN_TABLES = {"import_batch_papers"}
#: Columns naming the papers a row belongs to (a not-duplicates pair names two).
_PAPER_COLUMNS = ("paper_id", "paper_a", "paper_b")


def changes_of(
    connection: Connection,
    description: str,
    steps: Sequence[Step],
    *,
    also: Iterable[int] = (),
    history_id: int | None = None,
    generation: int | None = None,
) -> Changes:
    """The `Changes` of an action (or of its undo or redo) whose journal is `steps`,
    read on its connection after its rows were written; `also` adds papers read
    before (an undo: the papers of a tag it takes back)."""
    tables = {step.table for step in steps}
    sections = {name: bool(tables & set(names)) for name, names in _SECTIONS.items()}
    return Changes(
        description,
        ids_of(papers_touched(connection, steps) | set(also)),
        papers_added_or_removed=_adds_or_removes_papers(steps),
        history_id=history_id,
        generation=generation,
        **sections,
    )


def papers_touched(connection: Connection, steps: Sequence[Step]) -> set[int]:
    """The papers whose row or search document the steps' changed rows reach, as the
    library is now (a renamed tag reaches the papers that carry it)."""
    touched: set[int] = set()
    tag_ids: set[int] = set()
    shortlist_ids: set[int] = set()
    for step in steps:
        if step.added_ids is not None:
            first, last = step.added_ids
            query = select(papers_t.c.id).where(papers_t.c.id.between(first, last))
            touched.update(connection.scalars(query))
        if step.groups is not None and step.groups.key == "paper_id":
            touched.update(step.groups.ids())
        if step.table in _UNSHOWN_TABLES:
            continue
        for row in changed_rows(step):
            touched.update(row[name] for name in _PAPER_COLUMNS if name in row)
            if step.table == "papers":
                touched.add(row["id"])
            if step.table == "tags":
                tag_ids.add(row["id"])
            if step.table == "shortlists":
                shortlist_ids.add(row["id"])
    if tag_ids:
        touched.update(papers_with_tags(connection, list(tag_ids)))
    for shortlist_id in shortlist_ids:
        touched.update(shortlist_members(connection, shortlist_id))
    return touched


def changed_rows(step: Step) -> Iterator[Row]:
    """The rows of a step that the action added, removed or changed (both states of a
    changed row), leaving out rows changed only in columns no paper shows."""
    table = Base.metadata.tables[step.table]
    keys = [column.name for column in table.primary_key.columns]
    unshown = _UNSHOWN_COLUMNS.get(step.table, set())

    def key_of(row: Row) -> tuple[Any, ...]:
        return tuple(row[name] for name in keys)

    def shown(row: Row) -> dict[str, Any]:
        return {name: value for name, value in row.items() if name not in unshown}

    before = {key_of(row): row for row in step.before}
    after = {key_of(row): row for row in step.after}
    for key in before.keys() | after.keys():
        old, new = before.get(key), after.get(key)
        if old is None or new is None or shown(old) != shown(new):
            yield from (row for row in (old, new) if row is not None)


def papers_with_tags(connection: Connection, tag_ids: Sequence[int]) -> list[int]:
    query = (
        select(paper_tags_t.c.paper_id).where(paper_tags_t.c.tag_id.in_(list(tag_ids))).distinct()
    )
    return list(connection.scalars(query))


def shortlist_members(connection: Connection, shortlist_id: int) -> list[int]:
    query = (
        select(entries_t.c.paper_id)
        .where(entries_t.c.shortlist_id == shortlist_id)
        .order_by(entries_t.c.position, entries_t.c.paper_id)
    )
    return list(connection.scalars(query))


def _adds_or_removes_papers(steps: Sequence[Step]) -> bool:
    """Whether the steps change which papers exist (not just their fields)."""
    for step in steps:
        if step.added_ids is not None:
            return True
        if step.table == "papers":
            if {row["id"] for row in step.before} != {row["id"] for row in step.after}:
                return True
    return False

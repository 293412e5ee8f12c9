"""Row-state journal: what every user action changed, so it can be undone and redone.

A write snapshots the rows it may touch before and after it runs. Undo puts the
"before" states back, redo the "after" states, for any table, with no per-action undo
code to keep in step with the actions themselves. Steps are applied in reverse for undo
so parents come back before their children (a deleted paper before its tags).

A status set on 100,000 papers journals 100,000 rows each way: rows are stored as
value lists under one column list, and put back with one statement per kind of change
(executemany), never one statement per row.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Table,
    and_,
    bindparam,
    delete,
    insert,
    select,
    update,
)

from paperdesk.store.bulk import Groups, write_groups
from paperdesk.store.schema import Base, written_columns

# SQLite allows 32,766 bound variables; stay well below for composite keys.
CHUNK = 5000

Row = dict[str, Any]
# A column a packed row lacks (rows of one step journaled with different columns).
_ABSENT = {"$absent": True}


@dataclass
class Step:
    """Rows of one table before and after an action.

    An import's new papers are not journaled row by row (100,000 of them would double
    the database): `added_ids` names their id range instead, with empty `before` and
    `after`, and undoing the import first reads those rows into ordinary steps
    (`history.HistoryStore`), so redo can put them back.
    """

    table: str
    before: list[Row]
    after: list[Row]
    added_ids: tuple[int, int] | None = None
    # Columns set on many rows, grouped by value (store/bulk.py), instead of rows.
    groups: Groups | None = None


@dataclass
class Journal:
    """Collects the steps of one action on one connection."""

    connection: Connection
    steps: list[Step] = field(default_factory=list)
    #: Whether the action said which rows it writes (a block ran, whether or not its
    #: rows then changed): Database.action refuses an action that wrote rows unsaid.
    declared: bool = False

    @contextmanager
    def tracked_ids(
        self,
        table: Table,
        column: str,
        ids: Sequence[int],
        only: Sequence[str] | None = None,
    ) -> Iterator[None]:
        """Record rows of `table` whose `column` is in `ids`, before and after the block.

        `only` names the columns an update changes, so a status change on 10,000
        papers journals their statuses, not their abstracts. Use it only for blocks
        that update rows in place (no inserts or deletes).
        """
        self.declared = True
        before = self._rows_by_ids(table, column, ids, only)
        yield
        after = self._rows_by_ids(table, column, ids, only)
        self._add(table, before, after)

    @contextmanager
    def tracked(self, table: Table, where: ColumnElement[bool]) -> Iterator[None]:
        """Record rows of `table` matching `where`, before and after the block."""
        self.declared = True
        query = select(*written_columns(table)).where(where)
        before = [dict(r._mapping) for r in self.connection.execute(query)]
        yield
        after = [dict(r._mapping) for r in self.connection.execute(query)]
        self._add(table, before, after)

    def rows(self, table: Table, column: str, ids: Sequence[int]) -> list[Row]:
        """Every row of `table` whose `column` is in `ids`, as the journal keeps rows."""
        return self._rows_by_ids(table, column, ids, None)

    def _rows_by_ids(
        self, table: Table, column: str, ids: Sequence[int], only: Sequence[str] | None
    ) -> list[Row]:
        return rows_by_ids(self.connection, table, column, ids, only)

    def record_groups(self, table: Table, groups: Groups) -> None:
        """Journal columns set on many rows, their states grouped by value (store/bulk.py)."""
        self.declared = True
        if groups.before or groups.after:
            self.steps.append(Step(table.name, [], [], groups=groups))

    def _add(self, table: Table, before: list[Row], after: list[Row]) -> None:
        if before != after:
            self.steps.append(Step(table.name, before, after))

    def added_papers(self, first_id: int, last_id: int) -> None:
        """Papers `first_id`..`last_id` are new: undo deletes them (see Step)."""
        self.declared = True
        self.steps.append(Step("papers", [], [], added_ids=(first_id, last_id)))

    def to_json(self) -> str:
        return steps_to_json(self.steps)


def steps_to_json(steps: list[Step]) -> str:
    return json.dumps([_packed(step) for step in steps], default=_encode)


def rows_by_ids(
    connection: Connection,
    table: Table,
    column: str,
    ids: Sequence[int],
    only: Sequence[str] | None = None,
) -> list[Row]:
    """Rows of `table` whose `column` is in `ids` (only the key and `only` columns)."""
    columns = written_columns(table)
    if only is not None:
        keys = [c.name for c in table.primary_key.columns]
        columns = [table.c[name] for name in dict.fromkeys([*keys, *only])]
    names = [c.name for c in columns]
    rows: list[Row] = []
    id_list = list(ids)
    for start in range(0, len(id_list), CHUNK):
        chunk = id_list[start : start + CHUNK]
        query = select(*columns).where(table.c[column].in_(chunk))
        rows.extend(dict(zip(names, r, strict=True)) for r in connection.execute(query))
    return rows


def _packed(step: Step) -> dict[str, Any]:
    """A step as one column list and value lists: a third of the JSON of row objects."""
    columns = list(dict.fromkeys(name for row in [*step.before, *step.after] for name in row))

    def values(rows: list[Row]) -> list[list[Any]]:
        return [[row.get(name, _ABSENT) for name in columns] for row in rows]

    item: dict[str, Any] = {
        "table": step.table,
        "columns": columns,
        "before": values(step.before),
        "after": values(step.after),
    }
    if step.added_ids is not None:
        item["added_ids"] = list(step.added_ids)
    if step.groups is not None:
        item["groups"] = step.groups.to_json()
    return item


def steps_from_json(payload: str) -> list[Step]:
    steps = []
    for item in json.loads(payload, object_hook=_decode):
        added = (item["added_ids"][0], item["added_ids"][1]) if "added_ids" in item else None
        columns = item.get("columns")
        if columns is None:  # written before rows were packed: a list of row objects
            steps.append(Step(item["table"], item["before"], item["after"], added))
            continue
        if "groups" in item:
            steps.append(Step(item["table"], [], [], groups=Groups.from_json(item["groups"])))
            continue

        def rows(packed: list[list[Any]], columns: list[str] = columns) -> list[Row]:
            return [
                {
                    name: value
                    for name, value in zip(columns, values, strict=True)
                    if value is not _ABSENT
                }
                for values in packed
            ]

        steps.append(Step(item["table"], rows(item["before"]), rows(item["after"]), added))
    return steps


def apply_states(connection: Connection, steps: list[Step], *, undo: bool) -> list[Step]:
    """Put every step's rows into their before (undo) or after (redo) state."""
    ordered = list(reversed(steps)) if undo else steps
    for step in ordered:
        table = Base.metadata.tables[step.table]
        if step.groups is not None:
            groups = step.groups
            wanted_groups = groups.before if undo else groups.after
            write_groups(connection, table, groups.key, groups.columns, wanted_groups)
            continue
        current, wanted = (step.after, step.before) if undo else (step.before, step.after)
        _set_rows(connection, table, current, wanted)
    return ordered


def _set_rows(connection: Connection, table: Table, current: list[Row], wanted: list[Row]) -> None:
    """Rows from their `current` to their `wanted` state: deletes, updates, then inserts
    (an update may release a value, a citation key, that a row put back claims)."""
    keys = [c.name for c in table.primary_key.columns]

    def key_of(row: Row) -> tuple[Any, ...]:
        return tuple(row[k] for k in keys)

    current_by_key = {key_of(r): r for r in current}
    wanted_by_key = {key_of(r): r for r in wanted}
    gone = [key for key in current_by_key if key not in wanted_by_key]
    if gone:
        connection.execute(
            delete(table).where(_key_clause(table, keys)),
            [_key_params(keys, key) for key in gone],
        )
    # Rows getting the same values (a status undone on 100,000 papers of one import)
    # share one UPDATE ... WHERE id IN (...); the rest share one executemany.
    same_values: dict[tuple[tuple[str, Any], ...], list[tuple[Any, ...]]] = defaultdict(list)
    for key, row in wanted_by_key.items():
        before = current_by_key.get(key)
        if before is not None and before != row:
            values = tuple((name, value) for name, value in row.items() if name not in keys)
            same_values[values].append(key)
    single: dict[tuple[str, ...], list[dict[str, Any]]] = defaultdict(list)
    for values, group in same_values.items():
        if len(keys) == 1 and len(group) > 1:
            column = table.c[keys[0]]
            for start in range(0, len(group), CHUNK):
                chunk = [key[0] for key in group[start : start + CHUNK]]
                connection.execute(update(table).where(column.in_(chunk)).values(dict(values)))
        else:
            names = tuple(name for name, _ in values)
            single[names].extend(_key_params(keys, key) | dict(values) for key in group)
    for names, params in single.items():
        statement = update(table).where(_key_clause(table, keys))
        connection.execute(statement.values({c: bindparam(c) for c in names}), params)
    added = [row for key, row in wanted_by_key.items() if key not in current_by_key]
    if added:
        connection.execute(insert(table), added)


def _key_clause(table: Table, keys: list[str]) -> ColumnElement[bool]:
    # Parameter names of their own: SQLAlchemy reserves column names for SET values.
    return and_(*(table.c[name] == bindparam(f"key_{name}") for name in keys))


def _key_params(keys: list[str], key: tuple[Any, ...]) -> dict[str, Any]:
    return {f"key_{name}": value for name, value in zip(keys, key, strict=True)}


def _encode(value: object) -> object:
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    raise TypeError(f"cannot journal a {type(value).__name__}")


def _decode(obj: dict[str, Any]) -> object:
    if set(obj) == {"$datetime"}:
        return datetime.fromisoformat(obj["$datetime"])
    if set(obj) == {"$absent"}:
        return _ABSENT
    return obj

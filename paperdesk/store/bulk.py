"""Some columns set on many rows at once, journaled as groups of ids, not row by row.

A status set on 100,000 papers gives them one new value; their old values are a few
(status, time) pairs. So the journal keeps each distinct value tuple with the ids of
its rows (`Groups`), reads them with one GROUP BY and puts them back with one UPDATE
per group: no 200,000 row objects in Python, no 5,000-variable IN lists compiled again
and again. The ids go through a temporary table (`chosen_ids`) SQLite joins against;
PostgreSQL (a team library) takes them as one array parameter instead.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    ColumnElement,
    Connection,
    Integer,
    MetaData,
    String,
    Table,
    cast,
    func,
    select,
    true,
    update,
)

#: (values of the columns, ids of the rows having them)
Group = tuple[tuple[Any, ...], list[int]]

_chosen = Table("chosen_ids", MetaData(), Column("id", Integer, primary_key=True), schema="temp")


@dataclass(frozen=True)
class Groups:
    """`columns` of rows of a table keyed by the one-column `key`, before and after."""

    key: str
    columns: tuple[str, ...]
    before: list[Group]
    after: list[Group]

    def ids(self) -> set[int]:
        return {i for _, ids in (*self.before, *self.after) for i in ids}

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "columns": list(self.columns),
            "before": [[list(values), ids] for values, ids in self.before],
            "after": [[list(values), ids] for values, ids in self.after],
        }

    @classmethod
    def from_json(cls, item: dict[str, Any]) -> Groups:
        def groups(packed: list[list[Any]]) -> list[Group]:
            return [(tuple(values), list(ids)) for values, ids in packed]

        return cls(
            item["key"], tuple(item["columns"]), groups(item["before"]), groups(item["after"])
        )


@contextmanager
def chosen_ids(connection: Connection, ids: Sequence[int]) -> Iterator[ColumnElement[Any]]:
    """The ids in a temporary table, as a subquery to test a column against."""
    if connection.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import ARRAY  # a team library's only

        yield select(func.unnest(cast(list(ids), ARRAY(Integer)))).scalar_subquery()
        return
    connection.exec_driver_sql(
        "CREATE TEMP TABLE IF NOT EXISTS chosen_ids (id INTEGER PRIMARY KEY)"
    )
    connection.exec_driver_sql("DELETE FROM temp.chosen_ids")
    if ids:
        connection.exec_driver_sql(
            "INSERT OR IGNORE INTO temp.chosen_ids (id) VALUES (?)", [(i,) for i in ids]
        )
    try:
        yield select(_chosen.c.id).scalar_subquery()
    finally:
        connection.exec_driver_sql("DELETE FROM temp.chosen_ids")


def read_groups(
    connection: Connection,
    table: Table,
    key: str,
    columns: Sequence[str],
    chosen: ColumnElement[Any],
    where: ColumnElement[bool] | None = None,
) -> list[Group]:
    """The rows whose `key` is among the `chosen` ids (and that match `where`), grouped
    by their `columns` values."""
    selected = [table.c[name] for name in columns]
    query = (
        select(*selected, _joined_ids(connection, table.c[key]))
        .where(table.c[key].in_(chosen), where if where is not None else true())
        .group_by(*selected)
    )
    return [
        (tuple(row[:-1]), [int(i) for i in row[-1].split(",")]) for row in connection.execute(query)
    ]


def _joined_ids(connection: Connection, column: ColumnElement[Any]) -> ColumnElement[str]:
    """A group's ids as one comma-separated string (SQLite's and PostgreSQL's spelling)."""
    if connection.dialect.name == "postgresql":
        return func.string_agg(cast(column, String), ",")
    return func.group_concat(column)


def missing_ids(
    connection: Connection, table: Table, key: str, chosen: ColumnElement[Any], ids: Sequence[int]
) -> list[int]:
    """The `ids` (all of them `chosen`) that have no row in `table`."""
    column = table.c[key]
    found = connection.scalar(select(func.count()).where(column.in_(chosen))) or 0
    if found == len(set(ids)):
        return []
    return sorted(set(ids) - set(connection.scalars(select(column).where(column.in_(chosen)))))


def write_groups(
    connection: Connection, table: Table, key: str, columns: Sequence[str], groups: Sequence[Group]
) -> None:
    """Give each group's rows its values: one UPDATE a group."""
    for values, ids in groups:
        with chosen_ids(connection, ids) as chosen:
            connection.execute(
                update(table)
                .where(table.c[key].in_(chosen))
                .values(dict(zip(columns, values, strict=True)))
            )

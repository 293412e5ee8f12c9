"""The field table: each field named once, and every layer reading it from there."""

from __future__ import annotations

from paperdesk.core import fields
from paperdesk.core.fields import FieldType


def test_names_sort_keys_and_query_names_are_each_used_once() -> None:
    names = [f.name for f in fields.FIELDS]
    assert len(names) == len(set(names))
    keys = [f.sort_key for f in fields.FIELDS if f.sort_key]
    assert len(keys) == len(set(keys)) and fields.RELEVANCE not in keys
    typed = [name for f in fields.query_fields() for name in f.query_names]
    assert len(typed) == len(set(typed)), "an alias names two fields"


def test_the_sort_keys_users_know_are_there_relevance_first() -> None:
    keys = fields.sort_keys()
    assert keys[0] == fields.RELEVANCE
    assert {"title", "first_author", "venue", "year", "status", "rating", "added", "tags"} <= set(
        keys
    )


def test_query_names_aliases_and_numbers_come_from_the_types() -> None:
    assert {"tag", "tags", "author", "by", "in", "shortlist", "all", "abstract"} <= (
        fields.query_names()
    )
    assert "added" not in fields.query_names()  # dates sort, they are not searched
    assert fields.numeric_query_names() == {"year", "rating"}
    assert fields.query_aliases()["shortlist"] == ["in", "shortlists"]
    assert fields.BY_NAME[fields.DEFAULT_QUERY_FIELD].type == FieldType.TEXT


def test_every_column_has_a_label_and_a_sort_key() -> None:
    for field in fields.FIELDS:
        if field.label is not None:
            assert field.sort_key, f"column {field.label} cannot be sorted"

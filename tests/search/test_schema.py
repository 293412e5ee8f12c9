"""The index is built from the field table: a schema field and a document value for each
queryable field, and the parser knows each name users may type."""

from __future__ import annotations

import pytest

from paperdesk.core import fields
from paperdesk.core.errors import QueryError
from paperdesk.search.query import parse_query
from paperdesk.search.schema import IndexDocument, build_schema

DOCUMENT = IndexDocument(
    id=7,
    title="Learning to (Learn at Test Time)",
    abstract="Self-attention performs well in long context.",
    authors=("Yu Sun", "Xinhao Li"),
    note="Compare with Mamba",
    tags=("ml/rnn",),
    venue="ICML",
    year=2025,
    status="to-read",
    rating=4,
    shortlists=("reading group",),
)


def test_the_schema_has_one_field_per_queryable_field() -> None:
    queryable = {f.name for f in fields.query_fields()}
    assert set(build_schema().names()) == queryable | {"id"}


def test_a_document_has_a_value_for_every_schema_field() -> None:
    values = DOCUMENT.fields()
    assert set(values) == set(build_schema().names())
    assert values["tag"] == "ml,ml/rnn" and values["author"] == "Yu Sun ; Xinhao Li"
    assert "Compare with Mamba" in str(values["text"])


def test_a_paper_without_a_year_is_not_indexed_as_year_zero() -> None:
    values = IndexDocument(**{**DOCUMENT.__dict__, "year": None}).fields()
    assert "year" not in values


@pytest.mark.parametrize(
    "name", sorted(n for f in fields.query_fields() for n in f.query_names if not f.numeric)
)
def test_every_name_users_may_type_parses(name: str) -> None:
    parsed = parse_query(f"{name}:mamba")
    field = next(f for f in fields.query_fields() if name in f.query_names)
    assert f"'{field.name}'" in repr(parsed)


@pytest.mark.parametrize("name", sorted(fields.numeric_query_names()))
def test_numeric_fields_take_numbers_and_refuse_words(name: str) -> None:
    assert "NumericRange" in repr(parse_query(f"{name}:>=3"))
    with pytest.raises(QueryError, match="needs a number"):
        parse_query(f"{name}:many")

"""Scope: which papers an action is about, and the one class that says it."""

from __future__ import annotations

import ast
from pathlib import Path

from paperdesk.core.scope import Kind, Scope


def test_scopes_the_search_syntax_can_express_become_query_fragments() -> None:
    assert Scope().query() == ""
    assert Scope(Kind.STATUS, "to-read").query() == "status:to-read"
    assert Scope(Kind.TAG, "ml/rnn").query() == 'tag:"ml/rnn"'
    assert Scope.of_query("graph OR mamba").query() == "graph OR mamba"
    # Listed scopes are resolved from the store, not the index.
    assert Scope.of_shortlist("Reading group").query() == ""
    assert Scope.of_ids([3, 1]).query() == ""


def test_a_scope_describes_itself_for_messages() -> None:
    assert Scope().describe() == "the whole library"
    assert Scope.of_shortlist("Export me").describe() == "shortlist 'Export me'"
    assert Scope.of_query("graph").describe() == "search 'graph'"
    assert Scope.of_ids([3, 1, 2]).describe() == "3 selected papers"
    assert Scope(Kind.IMPORT, "4").describe() == "import 4"


def test_only_the_whole_library_is_whole_and_only_a_shortlist_names_one() -> None:
    assert Scope().is_whole_library
    assert not Scope.of_query("").is_whole_library
    assert Scope.of_shortlist("A").shortlist == "A"
    assert Scope(Kind.TAG, "A").shortlist is None
    assert Scope.of_ids(iter([5, 2])).ids == (5, 2)


def test_there_is_exactly_one_class_named_scope() -> None:
    package = Path(__file__).resolve().parents[2] / "paperdesk"
    defined = [
        str(path.relative_to(package))
        for path in package.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name == "Scope"
    ]
    assert defined == ["core/scope.py"]

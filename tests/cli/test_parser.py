"""The command line's arguments, in-process: choices come from the field table."""

from __future__ import annotations

import pytest

from paperdesk.cli.parser import build_parser
from paperdesk.core import fields


@pytest.mark.parametrize("verb", [["list"], ["search", "graph"], ["shortlist", "show", "S"]])
def test_sort_choices_are_the_field_tables_sort_keys(verb: list[str]) -> None:
    parser = build_parser()
    for key in fields.sort_keys():
        assert parser.parse_args([*verb, "--sort", key]).sort == key
    assert parser.parse_args(verb).sort == fields.RELEVANCE
    with pytest.raises(SystemExit):
        parser.parse_args([*verb, "--sort", "colour"])


def test_the_console_script_names_the_packages_main() -> None:
    import tomllib
    from importlib import import_module
    from pathlib import Path

    from paperdesk.cli.main import main

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    target = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["scripts"]
    module, _, name = target["paperdesk"].partition(":")
    assert getattr(import_module(module), name) is main

"""The layer contracts in pyproject.toml hold (a wrong import arrow fails CI), and the GUI
and the CLI use the services as their only door to the library."""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "paperdesk"


def test_import_contracts_are_kept() -> None:
    lint_imports = shutil.which("lint-imports") or str(Path(sys.executable).parent / "lint-imports")
    if not Path(lint_imports).exists():
        pytest.fail("lint-imports is not installed (pip install -e '.[test]')")
    result = subprocess.run(
        [lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def _forbidden() -> dict[str, set[str]]:
    """Each source package and the modules a `forbidden` contract keeps from it."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    refused: dict[str, set[str]] = {}
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "forbidden":
            for source in contract["source_modules"]:
                refused.setdefault(source, set()).update(contract["forbidden_modules"])
    return refused


@pytest.mark.parametrize(
    ("source", "kept_out"),
    [
        ("paperdesk.gui", {"paperdesk.store", "paperdesk.search", "sqlalchemy", "whoosh"}),
        ("paperdesk.cli", {"paperdesk.store", "paperdesk.search", "sqlalchemy", "whoosh"}),
        ("paperdesk.services", {"sqlalchemy", "whoosh"}),
    ],
)
def test_the_services_are_the_only_door(source: str, kept_out: set[str]) -> None:
    # A layers contract lets a layer skip the ones below it; these close that door.
    assert kept_out <= _forbidden().get(source, set())


def _reaches_into_a_desk(node: ast.AST) -> bool:
    """`desk.library`, `self.desk.index`...: the store or the index behind a service."""
    if not isinstance(node, ast.Attribute) or node.attr not in ("library", "index"):
        return False
    owner = node.value
    name = owner.id if isinstance(owner, ast.Name) else getattr(owner, "attr", "")
    return name == "desk"


@pytest.mark.parametrize("package", ["gui", "cli"])
def test_gui_and_cli_never_reach_past_the_services(package: str) -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in sorted((PACKAGE / package).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if _reaches_into_a_desk(node)
    ]
    assert offenders == []


def test_the_door_check_sees_a_reach_when_there_is_one() -> None:
    found = [_reaches_into_a_desk(n) for n in ast.walk(ast.parse("self.desk.library.count()"))]
    assert any(found)
    assert not any(_reaches_into_a_desk(n) for n in ast.walk(ast.parse("model.index(0, 1)")))

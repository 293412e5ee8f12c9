"""The layer contracts in pyproject.toml hold (a wrong import arrow fails CI), no module
imports one that imports it back, and the GUI and the CLI use the services as their only
door to the library."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
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


def import_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """One shortest loop through each import that is part of one: `a -> b -> ... -> a`.

    `if TYPE_CHECKING:` imports count: a module that needs another's type to be read
    is as tied to it as one that calls it.
    """
    loops = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                loops.append([importer, *back])
    return loops


def test_no_import_cycles_between_paperdesk_modules() -> None:
    graph = grimp.build_graph("paperdesk", cache_dir=None)
    loops = [
        " -> ".join(m.removeprefix("paperdesk.") for m in loop) for loop in import_cycles(graph)
    ]
    assert loops == [], "\n".join(loops)


def test_the_cycle_walk_finds_a_loop_when_there_is_one() -> None:
    graph = grimp.ImportGraph()
    for importer, imported in [("x.a", "x.b"), ("x.b", "x.c"), ("x.c", "x.a"), ("x.c", "x.d")]:
        graph.add_import(importer=importer, imported=imported)
    assert import_cycles(graph) == [
        ["x.a", "x.b", "x.c", "x.a"],
        ["x.b", "x.c", "x.a", "x.b"],
        ["x.c", "x.a", "x.b", "x.c"],
    ]


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


def test_the_gui_and_the_cli_cannot_reach_past_the_services(tmp_path: Path) -> None:
    """The store and the index are `Desk`'s private members (`_library`, `_index`), which
    the services use; ruff's SLF001 refuses any private member in gui/ and cli/."""
    from paperdesk.services.runtime.desk import Desk

    with Desk.open(tmp_path / "library") as desk:
        assert not hasattr(desk, "library") and not hasattr(desk, "index")
    lint = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    assert "SLF001" in lint["lint"]["select"]
    assert lint["lint"]["per-file-ignores"]["!paperdesk/{gui,cli}/**"] == ["SLF001"]

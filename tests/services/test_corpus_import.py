"""`paperdesk import corpus.jsonl` at scale, through the command line a user types.

The 13,417-paper corpus is imported once into one library, then imported again; the
tests read the two reports and the library. The first import indexes everything,
which takes a while (15-30 s on a quiet machine, minutes on a loaded one): that is
paid once for the whole module.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# The whole shared corpus: every test here reads ../shared/data.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
CORPUS_PAPERS = 13_417


@dataclass(frozen=True)
class CorpusImports:
    library: Path
    first: dict[str, Any]  # the `import --json` report of the first import
    again: dict[str, Any]  # ... and of the same file imported a second time


def paperdesk(library: Path, *args: str) -> str:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    env.pop("PAPERDESK_LIBRARY", None)
    result = subprocess.run(
        [sys.executable, "-m", "paperdesk", "--library", str(library), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=1800,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result.stdout


def import_report(library: Path, path: Path) -> dict[str, Any]:
    (report,) = json.loads(paperdesk(library, "import", "--json", str(path)))
    return report


@pytest.fixture(scope="module")
def _cache() -> dict[str, CorpusImports]:
    return {}


@pytest.fixture
def corpus(
    shared_data: Path, _cache: dict[str, CorpusImports], tmp_path_factory: pytest.TempPathFactory
) -> CorpusImports:
    """One library for every test here (the import is the slow part)."""
    if "imports" not in _cache:
        library = tmp_path_factory.mktemp("corpus") / "library"
        corpus_file = shared_data / "corpus.jsonl"
        first = import_report(library, corpus_file)
        again = import_report(library, corpus_file)
        _cache["imports"] = CorpusImports(library, first, again)
    return _cache["imports"]


def library_papers(library: Path) -> int:
    return json.loads(paperdesk(library, "stats", "--json"))["papers"]


def test_import_reads_every_record_without_a_problem(corpus: CorpusImports) -> None:
    report = corpus.first
    assert (report["format"], report["error"], report["skipped"]) == ("json", None, 0)
    assert report["problems"] == []
    assert report["added"] > 13_000


def test_import_adds_every_paper(corpus: CorpusImports) -> None:
    assert corpus.first["added"] == CORPUS_PAPERS
    assert library_papers(corpus.library) == CORPUS_PAPERS


def test_every_added_paper_is_stored_and_searchable(corpus: CorpusImports) -> None:
    assert library_papers(corpus.library) == corpus.first["added"]
    title = "A Covariance Matrix Adaptation Evolution Strategy for Direct Policy Search"
    hits = json.loads(paperdesk(corpus.library, "search", "--json", f'"{title}"'))
    assert [(hit["venue"], hit["year"]) for hit in hits] == [("ACML", 2017)]
    assert hits[0]["title"].startswith(title)


def test_importing_again_adds_nothing(corpus: CorpusImports) -> None:
    report = corpus.again
    assert report["previously_imported"] is True
    assert (report["added"], report["missing"], report["skipped"]) == (0, 0, 0)
    assert library_papers(corpus.library) == corpus.first["added"]


def test_importing_again_reports_every_paper_unchanged(corpus: CorpusImports) -> None:
    report = corpus.again
    assert (report["updated"], report["merged"]) == (0, 0)
    assert report["unchanged"] == CORPUS_PAPERS

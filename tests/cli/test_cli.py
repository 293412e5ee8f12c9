"""The command line through its entry point, as a user types it (issue #2's session)."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paperdesk.cli.main import main
from paperdesk.cli.parser import build_parser, handler_of

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted((ROOT / "seeds").glob("*.txt"))


def run(library: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONWARNINGS": "error"}
    env.pop("PAPERDESK_LIBRARY", None)
    result = subprocess.run(
        [sys.executable, "-m", "paperdesk", "--library", str(library), *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=False,
    )
    if check:
        assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    return result


def invoke(library: Path | str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """`run` in this process: the verb's behaviour without a new interpreter's start
    (0.7 s of imports a command). For what a verb does; `run` for the process itself
    (exit codes, the environment, signals, other programs)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--library", str(library), *args])
        except SystemExit as usage_error:  # argparse's, as the process would end
            code = usage_error.code if isinstance(usage_error.code, int) else 2
    result = subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())
    if check:
        assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="module")
def triage(tmp_path_factory: pytest.TempPathFactory) -> Path:
    library = tmp_path_factory.mktemp("cli") / "triage"
    out = invoke(library, "import", *map(str, SEEDS)).stdout
    assert "19 added" in out
    return library


def test_the_issue_session_works_verbatim(triage: Path) -> None:
    ttt_search = run(triage, "search", "test-time training", "--json").stdout
    first = json.loads(ttt_search)[0]
    assert first["abstract"].startswith("Self-attention performs well in long context")
    assert run(triage, "tag", "12", "--add", "rnn", "--add", "long-context").stdout.startswith(
        "Add tag rnn, long-context"
    )
    run(triage, "rate", "12", "5")
    run(triage, "status", "12", "to-read")
    run(triage, "note", "12", "--set", "Compare with Mamba; read §3 first")
    run(triage, "shortlist", "create", "ICML reading group")
    run(triage, "shortlist", "add", "ICML reading group", "12", "7")
    listed = json.loads(run(triage, "list", "--query", "tag:rnn rating:>=4", "--json").stdout)
    assert [p["id"] for p in listed] == [12]
    paper = listed[0]
    assert set(paper) >= {
        "id",
        "title",
        "title_is_derived",
        "authors",
        "venue",
        "year",
        "status",
        "rating",
        "tags",
        "shortlists",
        "note",
        "abstract",
    }
    assert (paper["rating"], paper["status"], paper["tags"]) == (
        5,
        "to-read",
        ["long-context", "rnn"],
    )
    assert paper["shortlists"] == ["ICML reading group"] and paper["note"].startswith("Compare")
    stats = run(triage, "stats").stdout
    assert "Papers    38" in stats and "Rated     1 " in stats


def test_human_output_fits_80_columns(triage: Path) -> None:
    # The widths are the output's own (no terminal is asked): the same in this process.
    for args in (("list",), ("show", "12"), ("stats",), ("search", "graph")):
        out = invoke(triage, *args).stdout
        assert max(len(line) for line in out.splitlines()) <= 80, args


def test_malformed_query_exits_2_with_one_line(triage: Path) -> None:
    result = run(triage, "search", '"unclosed', check=False)
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "quotation mark" in result.stderr


def test_errors_go_to_stderr_with_non_zero_status(triage: Path) -> None:
    # The first as a real process (its exit status and stderr); the others' messages
    # and codes through the same main() in this process.
    for through, args, message in (
        (run, ("rate", "12", "9"), "rating must be between 0 and 5"),
        (invoke, ("status", "12", "maybe"), "unknown status"),
        (invoke, ("show", "9999"), "no paper with id 9999"),
        (invoke, ("shortlist", "add", "nope", "1"), "no shortlist named 'nope'"),
        (invoke, ("import", str(ROOT / "missing.bib")), "missing.bib"),
    ):
        result = through(triage, *args, check=False)
        assert result.returncode == 1, args
        assert message in result.stderr, (args, result.stderr)


def test_undo_and_history(triage: Path) -> None:
    invoke(triage, "rate", "3", "2")
    assert "Undo Rate 2 stars" in invoke(triage, "undo").stdout
    assert "Redo Rate 2 stars" in invoke(triage, "redo").stdout
    assert "Rate 2 stars" in invoke(triage, "history").stdout


def test_tag_add_and_remove_together_is_one_step_undone_at_once(triage: Path) -> None:
    invoke(triage, "tag", "5", "--add", "draft")
    out = invoke(triage, "tag", "5", "--add", "final", "--remove", "draft").stdout
    assert out.startswith("Add tag final; remove tag draft (1 paper)")
    invoke(triage, "undo")
    (paper,) = json.loads(invoke(triage, "show", "5", "--json").stdout)
    assert paper["tags"] == ["draft"]


def test_reindex_and_check(triage: Path) -> None:
    assert "indexed 38 papers" in invoke(triage, "reindex").stdout
    assert invoke(triage, "check").stdout.startswith("ok")
    shutil.rmtree(triage / "index")
    assert invoke(triage, "check").stdout.startswith("ok")  # rebuilt automatically on open


def test_library_from_environment_variable(tmp_path: Path) -> None:
    env = {**os.environ, "PAPERDESK_LIBRARY": str(tmp_path / "envlib")}
    result = subprocess.run(
        [sys.executable, "-m", "paperdesk", "stats", "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        check=True,
    )
    assert json.loads(result.stdout)["papers"] == 0
    assert (tmp_path / "envlib" / "library.sqlite3").exists()


def test_console_script_is_installed() -> None:
    beside_python = Path(sys.executable).parent / "paperdesk"
    script = str(beside_python) if beside_python.exists() else shutil.which("paperdesk")
    assert script, "pip install -e . provides the paperdesk command"
    result = subprocess.run([script, "--version"], capture_output=True, text=True, check=True)
    assert result.stdout.startswith("paperdesk ")


def test_export_a_shortlist_to_bibtex(triage: Path, tmp_path: Path) -> None:
    invoke(triage, "shortlist", "create", "Export me")
    invoke(triage, "shortlist", "add", "Export me", "5", "9")
    target = tmp_path / "out.bib"
    out = invoke(triage, "export", "--shortlist", "Export me", "-o", str(target)).stdout
    assert out.startswith("wrote 2 papers from shortlist 'Export me'")
    assert target.read_text(encoding="utf-8").count("@inproceedings{") == 2
    failed = invoke(triage, "export", "--ids", "1,x", "-o", str(target), check=False)
    assert failed.returncode == 1 and "--ids takes numbers" in failed.stderr


def test_the_command_line_starts_without_scikit_learn() -> None:
    """Every command is a process of its own: scikit-learn (~1.5 s to import) is loaded
    only by the commands that rank (simulate, triage by promise)."""
    probe = "import sys, paperdesk.cli.main; print('sklearn' in sys.modules)"
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert shown.stdout.strip() == "False"


@pytest.mark.parametrize("argv", [["--help"], ["rate", "--help"], ["rate", "x"], ["nonsense"]])
def test_help_and_usage_errors_load_no_store_index_or_toolkit(argv: list[str]) -> None:
    """`--help` and a usage error end before the store, the index, scikit-learn or Qt are
    imported (they took ~0.8 s of every command's start)."""
    probe = (
        "import contextlib, io, sys\n"
        "from paperdesk.cli.main import main\n"
        "quiet = io.StringIO()\n"
        "with contextlib.redirect_stdout(quiet), contextlib.redirect_stderr(quiet):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "heavy = ('sqlalchemy', 'whoosh', 'sklearn', 'PySide6', 'psycopg')\n"
        "print(sorted(name for name in heavy if name in sys.modules))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert shown.stdout.strip() == "[]", shown.stderr


def test_a_local_library_loads_no_postgresql_driver_or_dialect(triage: Path) -> None:
    """psycopg and SQLAlchemy's PostgreSQL dialect are a team library's: opening a
    folder and running a verb imports neither (0.1-0.2 s of every command's start)."""
    probe = (
        "import contextlib, io, sys\n"
        "from paperdesk.cli.main import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        f"    code = main(['--library', {str(triage)!r}, 'list', '--query', 'tag:rnn'])\n"
        "team = ('psycopg', 'sqlalchemy.dialects.postgresql')\n"
        "print(code, sorted(name for name in team if name in sys.modules))"
    )
    shown = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    assert shown.stdout.strip() == "0 []", shown.stderr


def test_every_verb_names_a_handler_that_exists() -> None:
    """Verbs name their handlers ("module.function", imported when the verb runs): a
    misspelt one would fail only when a user runs that verb."""
    parser = build_parser()
    verbs = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    assert len(verbs.choices) > 30
    for name, sub in verbs.choices.items():
        handler = handler_of(argparse.Namespace(handler=sub.get_default("handler")))
        assert callable(handler), name


def test_edit_sets_any_field_names_a_bad_value_and_undo_takes_it_back(
    tmp_path: Path,
) -> None:
    library = tmp_path / "edit"
    invoke(library, "import", str(SEEDS[0]))
    out = invoke(library, "edit", "2", "authors", "Vaswani, Ashish; Noam Shazeer").stdout
    assert out.startswith("Edit authors")
    invoke(library, "edit", "2", "year", "2017")
    (shown,) = json.loads(invoke(library, "show", "2", "--json").stdout)
    assert shown["authors"] == ["Ashish Vaswani", "Noam Shazeer"] and shown["year"] == 2017
    refused = invoke(library, "edit", "2", "year", "soon", check=False)
    assert refused.returncode != 0 and "year must be a year such as 2024" in refused.stderr
    invoke(library, "undo")
    assert (
        json.loads(invoke(library, "show", "2", "--json").stdout)[0]["year"] == 2025
    )  # the seed's


def test_add_by_identifier_reports_each_failure_and_offline(
    tmp_path: Path, httpserver, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = ROOT / "tests" / "services" / "fixtures" / "lookup" / "arxiv-1706.03762.xml"
    httpserver.expect_request("/arxiv").respond_with_data(
        recorded.read_text(encoding="utf-8"), content_type="application/atom+xml"
    )
    monkeypatch.setenv("PAPERDESK_ARXIV_URL", httpserver.url_for("/arxiv"))
    monkeypatch.setenv("PAPERDESK_DOI_URL", "http://127.0.0.1:9")  # nothing listens there
    library = tmp_path / "add"
    result = run(library, "add", "1706.03762 10.1162/neco.1997.9.8.1735", check=False)
    assert result.returncode != 0
    assert "identifiers (looked up): 1 entry read: 1 added" in result.stdout
    assert "paperdesk: 10.1162/neco.1997.9.8.1735: cannot reach doi.org" in result.stderr
    (paper,) = json.loads(run(library, "show", "1", "--json").stdout)
    assert paper["title"] == "Attention Is All You Need"


def test_cite_prints_a_style_and_writes_a_bibliography(tmp_path: Path) -> None:
    library = tmp_path / "cite"
    invoke(library, "import", str(SEEDS[0]))
    invoke(library, "edit", "1", "authors", "Vaswani, Ashish; Shazeer, Noam")
    invoke(library, "edit", "1", "title", "Attention is all you need")
    invoke(library, "edit", "1", "venue", "NeurIPS")
    invoke(library, "edit", "1", "year", "2017")
    out = invoke(library, "cite", "1", "--style", "apa").stdout
    assert out == "Vaswani, A., & Shazeer, N. (2017). Attention is all you need. NeurIPS.\n\n"
    target = tmp_path / "refs.md"
    invoke(library, "cite", "1", "--style", "ieee", "--format", "markdown", "-o", str(target))
    assert target.read_text(encoding="utf-8").startswith("- [1] A. Vaswani and N. Shazeer")

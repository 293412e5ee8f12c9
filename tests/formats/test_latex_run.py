"""Real bibtex and pdflatex accept the BibTeX export (issue 9, "BibTeX that LaTeX
accepts"): the seeds and the 13,417-paper corpus, with the `plain` and `plainnat`
styles, give 0 errors.

Each run is one bibtex and one pdflatex pass over a document citing every entry
(`\\nocite{*}`): the `.aux` that a first pdflatex pass would write is written here, and
pdflatex runs in draft mode (everything is typeset, no PDF is written, so no font
has to be generated). The document loads `url`, as documents citing URLs do, and T1
fonts, as documents with accented names do.

plainnat labels papers with one author-year label `Chen et al. (2018a)`... and bibtex
cannot go past the 31st letter (`int.to.chr$` stops at ASCII 127): no bibliography can
cite 65 papers labelled "Chen et al. 2018", as the whole corpus would. The corpus is
cited with plainnat in four documents of a quarter of it each (every fourth paper).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from paperdesk.core.models import Paper
from paperdesk.formats.bibtex_writer import write_bibtex
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.seedlist import read_seedlist
from tests.conftest import lines_of
from tests.factories import as_papers

pytestmark = pytest.mark.skipif(
    shutil.which("bibtex") is None or shutil.which("pdflatex") is None,
    reason="needs bibtex and pdflatex (Debian: texlive-binaries, texlive-latex-base)",
)

DOCUMENT = r"""\documentclass{article}
\usepackage[T1]{fontenc}
\usepackage{url}
%(natbib)s
\begin{document}
\nocite{*}
\bibliographystyle{%(style)s}
\bibliography{%(bib)s}
\end{document}
"""
AUX = "\\relax\n\\citation{*}\n\\bibstyle{%(style)s}\n\\bibdata{%(bib)s}\n"
_BIBTEX_COUNT = re.compile(r"\(There (?:were|was) (\d+) (error message|warning)s?\)")


@dataclass(frozen=True)
class Run:
    bibtex_errors: int
    bibtex_warnings: int
    latex_errors: int
    latex_warnings: int
    log: str

    @property
    def errors(self) -> int:
        return self.bibtex_errors + self.latex_errors


def run_latex(folder: Path, bib: str, style: str) -> Run:
    """bibtex, then pdflatex, on a document citing every entry of `folder/bib.bib`."""
    job = f"{bib}-{style}"
    natbib = "\\usepackage{natbib}" if style == "plainnat" else ""
    values = {"natbib": natbib, "style": style, "bib": bib}
    (folder / f"{job}.tex").write_text(DOCUMENT % values, encoding="ascii")
    (folder / f"{job}.aux").write_text(AUX % values, encoding="ascii")
    for command in (
        ["bibtex", "-terse", job],
        ["pdflatex", "-draftmode", "-interaction=nonstopmode", "-halt-on-error", job],
    ):
        subprocess.run(command, cwd=folder, capture_output=True, timeout=600, check=False)
    blg = (folder / f"{job}.blg").read_text(encoding="latin-1")
    log = (folder / f"{job}.log").read_text(encoding="latin-1")
    counts = {kind: int(number) for number, kind in _BIBTEX_COUNT.findall(blg)}
    return Run(
        bibtex_errors=counts.get("error message", 0),
        bibtex_warnings=counts.get("warning", 0),
        latex_errors=sum(line.startswith("! ") for line in log.splitlines()),
        latex_warnings=log.count("Warning"),
        log=blg + log,
    )


def write_export(folder: Path, name: str, papers: list[Paper]) -> str:
    with open(folder / f"{name}.bib", "w", encoding="utf-8") as stream:
        write_bibtex(papers, stream, "bibtex")
    assert (folder / f"{name}.bib").read_bytes().isascii()
    return name


def assert_accepted(run: Run) -> None:
    assert run.errors == 0, run.log[-3000:]
    # pdflatex reached the end of the document: nothing stopped it
    assert "Output written" in run.log or "\\pdfdraftmode enabled" in run.log


@pytest.mark.parametrize("style", ["plain", "plainnat"])
def test_the_seed_lists_export_compiles_without_errors(
    seed_files: list[Path], tmp_path: Path, style: str
) -> None:
    records = [
        r for path in seed_files for r in read_seedlist(path.read_text("utf-8"), path.name).records
    ]
    bib = write_export(tmp_path, "seeds", as_papers(records))
    run = run_latex(tmp_path, bib, style)
    assert_accepted(run)
    # a derived title and no authors: bibtex says so, and plainnat labels by the key field
    assert run.bibtex_warnings == len(records)


def test_the_corpus_export_compiles_without_errors(corpus_file: Path, tmp_path: Path) -> None:
    text = corpus_file.read_text(encoding="utf-8")
    papers = as_papers(list(read_json(text, "corpus.jsonl").records))
    assert len(papers) == lines_of(corpus_file)
    whole = run_latex(tmp_path, write_export(tmp_path, "corpus", papers), "plain")
    assert_accepted(whole)
    for part in range(4):
        bib = write_export(tmp_path, f"corpus{part}", papers[part::4])
        assert_accepted(run_latex(tmp_path, bib, "plainnat"))


def test_math_symbols_beyond_latex_and_math_in_abstracts_compile(tmp_path: Path) -> None:
    """Issue 24: `($\\sim$1B` stays math, and a symbol neither LaTeX nor amssymb knows
    (∬ is amsmath's `\\iint`) is written as a placeholder, not an undefined command."""
    papers = as_papers(
        read_json(
            '{"title": "Double integrals ∬ and ⊷ over $\\\\Omega$", "authors": ["A. B"],'
            ' "abstract": "We serve ($\\\\sim$1B requests) daily.", "year": 2024}\n',
            "x.jsonl",
        ).records
    )
    bib = write_export(tmp_path, "symbols", papers)
    text = (tmp_path / f"{bib}.bib").read_text(encoding="ascii")
    assert "($\\sim$1B requests)" in text and "\\iint" not in text
    assert_accepted(run_latex(tmp_path, bib, "plain"))

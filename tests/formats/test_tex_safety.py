"""A BibTeX export run through bibtex and pdflatex reads no file but the document's own
(issue 26, item 3): only an allow-list of formatting, accent and symbol macros passes
through; every other control sequence is written as text, whatever field it is in.

pdflatex runs with `-recorder`, which lists every file it opens in a `.fls` file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_values import escape
from paperdesk.formats.bibtex_writer import write_bibtex
from paperdesk.text.latex_escape import WEB_TEXT
from paperdesk.text.tex_allow_list import SAFE_COMMANDS
from tests.factories import as_papers, make_paper

needs_tex = pytest.mark.skipif(
    shutil.which("bibtex") is None or shutil.which("pdflatex") is None,
    reason="needs bibtex and pdflatex (Debian: texlive-binaries, texlive-latex-base)",
)

DOCUMENT = r"""\documentclass{article}
\usepackage{url}
\begin{document}
\nocite{*}
\bibliographystyle{plain}
\bibliography{hostile}
\end{document}
"""

# Each reads SECRET, writes a file, or runs a command when TeX expands it; the
# placeholder is replaced by the path of a file outside the document's folder.
HOSTILE = [
    r"\pdffiledump length 20 {SECRET}",
    r"\pdfmdfivesum file {SECRET}",
    r"\pdffilesize{SECRET} \pdffilemoddate{SECRET}",
    r"\input{SECRET}",
    r"\input SECRET ",
    r"\openin5=SECRET \read5 to\x \x \closein5",
    r"\immediate\write18{touch PWNED}",
    r"\immediate\openout3=PWNED \immediate\write3{x}\immediate\closeout3",
    r"\csname input\endcsname{SECRET}",
    r"\expandafter\input\detokenize{SECRET}",
    r"\lowercase{\input{SECRET}}",
    r"\everyeof{}\scantokens{\input{SECRET}}",
    r"\pdfximage{SECRET}",
    r"\IfFileExists{SECRET}{yes}{no}",
    r"\catcode`\|=0 |input{SECRET}",
    r"^^5cinput{SECRET}",
    r"\def\x{\inp}\expandafter\x ut{SECRET}",
]


@pytest.fixture
def secret() -> Iterator[Path]:
    """A file outside the document's folder, at a path TeX can spell (pytest's own
    temporary folders hold underscores, which the export rightly escapes)."""
    folder = Path(tempfile.gettempdir()) / f"paperdesk-secret-{os.getpid()}"
    folder.mkdir(exist_ok=True)
    path = folder / "secret.txt"
    path.write_text("the secret\n", encoding="ascii")
    yield path
    shutil.rmtree(folder)


def hostile_bib(secret: Path) -> str:
    entries = []
    for number, command in enumerate(HOSTILE):
        text = command.replace("SECRET", str(secret))
        entries.append(
            f"@article{{k{number},\n  title = {{Title {text}}},\n  journal = {{{text}}},\n"
            f"  author = {{Ann Lee}},\n  year = {{2020}},\n  note = {{{text}}},\n"
            f"  abstract = {{Math ${text}$ and text {text}}}\n}}\n"
        )
    return "".join(entries)


@needs_tex
# Reading `\input SECRET ` back, pylatexenc warns that `\input` has no braced argument.
@pytest.mark.logs_warnings
@pytest.mark.parametrize("flavour", ["bibtex", "biblatex"])
def test_pdflatex_reads_no_file_an_export_names(tmp_path: Path, secret: Path, flavour: str) -> None:
    document = tmp_path / "document"
    document.mkdir()
    # Both ways a field reaches the export: a BibTeX import's own fields, and web text.
    records = read_bibtex(hostile_bib(secret), "hostile.bib").records
    papers = as_papers(list(records))
    papers += [
        make_paper(id=100 + n, title=f"Web {c}", abstract=f"Web ${c}$ {c}", venue=c)
        for n, c in enumerate(command.replace("SECRET", str(secret)) for command in HOSTILE)
    ]
    with (document / "hostile.bib").open("w", encoding="utf-8") as stream:
        write_bibtex(papers, stream, flavour)
    (document / "paper.tex").write_text(DOCUMENT, encoding="ascii")
    (document / "paper.aux").write_text(
        "\\relax\n\\citation{*}\n\\bibstyle{plain}\n\\bibdata{hostile}\n", encoding="ascii"
    )
    subprocess.run(["bibtex", "-terse", "paper"], cwd=document, capture_output=True, check=False)
    assert (document / "paper.bbl").exists()
    subprocess.run(
        ["pdflatex", "-recorder", "-draftmode", "-interaction=nonstopmode", "paper"],
        cwd=document,
        capture_output=True,
        timeout=300,
        check=False,
    )
    recorded = (document / "paper.fls").read_text(encoding="utf-8", errors="replace")
    opened = {line.split(" ", 1)[1] for line in recorded.splitlines() if " " in line}
    assert not [path for path in opened if "secret" in path or "PWNED" in path]
    assert not (document / "PWNED").exists() and not (Path.cwd() / "PWNED").exists()
    texmf = tex_trees()
    outside = [
        path
        for path in opened
        if path.startswith("/")
        and not path.startswith(str(document))
        and not any(path.startswith(tree) for tree in texmf)
    ]
    assert outside == []


def tex_trees() -> list[str]:
    """The folders TeX's own files come from (fonts, classes, its configuration)."""
    names = "TEXMFROOT TEXMFDIST TEXMFMAIN TEXMFSYSVAR TEXMFSYSCONFIG TEXMFVAR TEXMFCONFIG"
    trees = ["/etc/texmf", "/usr/share/texmf", "/usr/share/texlive", "/var/lib/texmf"]
    for name in names.split():
        value = subprocess.run(
            ["kpsewhich", f"-var-value={name}"], capture_output=True, text=True, check=False
        ).stdout.strip()
        if value:
            trees.append(value)
    return trees


@pytest.mark.parametrize("command", ["pdffiledump", "openin", "csname", "mycommand", "endcsname"])
def test_a_command_off_the_allow_list_is_written_as_text(command: str) -> None:
    assert escape(f"a \\{command} b", WEB_TEXT) == f"a \\textbackslash{{}}{command} b"


@pytest.mark.parametrize("command", ["emph{x}", "textbf{x}", "'e", "ss", "alpha", "LaTeX"])
def test_formatting_accents_and_symbols_pass(command: str) -> None:
    assert escape(f"a \\{command} b", WEB_TEXT) == f"a \\{command} b"


def test_no_primitive_that_touches_files_is_on_the_allow_list() -> None:
    primitives = """input include openin openout read readline write immediate closein
    closeout csname catcode scantokens everyeof directlua latelua special pdffiledump
    pdfmdfivesum pdffilesize pdffilemoddate pdfximage pdfobj pdfliteral pdfstrcmp
    def edef gdef xdef let futurelet expandafter detokenize lowercase uppercase
    newcommand usepackage documentclass endinput jobname shipout""".split()
    assert [name for name in primitives if name in SAFE_COMMANDS] == []

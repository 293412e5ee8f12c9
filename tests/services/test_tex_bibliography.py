"""A TeX-world bibliography survives paperdesk (issue 24): it reads as it typesets, its
keys stay what `\\cite` uses, and its export still compiles, preamble and all.

The fixture (fixtures/tex_heavy.bib) is written in the manner of TUGboat's
bibliography: a `@preamble` defining the macros its entries use (`\\acro`, `\\Dash`,
`\\MF`, `\\bs`, `\\tubissue`), `@string` journals, logos inside words, struts and kerns,
spacing macros inside names, and keys with `*`, `(`, `'` in them.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import bibtexparser
import pytest

from paperdesk.core.scope import Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import exporting, history, importing, reading, searching
from tests.formats.test_latex_run import assert_accepted, run_latex

TEX_HEAVY = Path(__file__).parent / "fixtures" / "tex_heavy.bib"
NEEDS_TEX = pytest.mark.skipif(
    shutil.which("bibtex") is None or shutil.which("pdflatex") is None,
    reason="needs bibtex and pdflatex (Debian: texlive-binaries, texlive-latex-base)",
)

# key -> (title, authors, venue) as the entry typesets
EXPECTED = {
    "Beebe:2007:LuaTeX": ("LuaTeX: a first look", ("Nelson H. F. Beebe",), "TUGboat"),
    "Gregorio:2008:AT": ("Ten years of ArsTeXnica", ("Enrico Gregorio",), "ArsTeXnica"),
    "Han:1999:VTE": (
        "Micro-typographic extensions to the TeX typesetting system",
        ("Hàn Thế Thành", "Jiří Veselý"),
        "TUGboat",
    ),
    "Zelly:1992:DVV": (
        "DVI-to-VDU: previewing DVI files",
        ("Jan Želly", "Petr Olšak"),
        "TUGboat",
    ),
    "baker*2018accelerating": (
        "The \\strut macro and graphics in TUGboat 11(4)",
        ("Bowen Baker", "Otkrist Gupta"),
        "TUGboat",
    ),
    "(jake)2018adversarially": (
        "Sorting in O(n^α log n) time, ‘mostly’",
        ("Jake Snell", "Richard Zemel"),
        "Proceedings of the TUG Meeting",
    ),
    "o'connor2018temporally": (
        "Metafont and Metafont fonts for LaTeX",
        ("Ciaran O'Connor",),
        "TUGboat",
    ),
    "Mueller:2019": ("The TeXbook, revisited", ("Hans Müller", "Li Yu"), "TUGboat"),
}


def import_one(desk: Desk, path: Path) -> importing.FileReport:
    (report,) = importing.import_files(desk, [path]).files
    assert report.error is None, report.summary()
    return report


def exported(desk: Desk, path: Path, flavour: str = "bibtex") -> str:
    options = exporting.Options(flavour=flavour)
    exporting.export(desk, Scope(), path, options=options, overwrite=True)
    return path.read_text(encoding="utf-8")


def test_the_bibliography_reads_as_it_is_typeset(empty_desk: Desk) -> None:
    report = import_one(empty_desk, TEX_HEAVY)
    assert (report.added, report.skipped, report.warnings) == (8, 0, [])
    papers = reading.papers(empty_desk, report.added_ids)
    assert {p.citation_key: (p.title, p.authors, p.venue) for p in papers} == EXPECTED
    luatex = [p.id for p in papers if p.citation_key == "Beebe:2007:LuaTeX"]
    assert searching.find_ids(empty_desk, "LuaTeX").ids == luatex


def test_keys_bibtex_and_cite_accept_are_kept_verbatim(empty_desk: Desk, tmp_path: Path) -> None:
    import_one(empty_desk, TEX_HEAVY)
    text = exported(empty_desk, tmp_path / "out.bib")
    keys = [entry.key for entry in bibtexparser.parse_string(text).entries]
    assert keys == list(EXPECTED)


def test_the_preamble_and_strings_are_written_back(empty_desk: Desk, tmp_path: Path) -> None:
    import_one(empty_desk, TEX_HEAVY)
    for flavour in ("bibtex", "biblatex"):
        library = bibtexparser.parse_string(exported(empty_desk, tmp_path / "o.bib", flavour))
        (preamble,) = library.preambles
        assert "\\providecommand{\\acro}[1]{\\textsc{#1}}" in preamble.value
        assert "\\providecommand{\\tubissue}[2]{#1(#2)}" in preamble.value
        strings = {s.key: s.value for s in library.strings}
        assert strings == {
            "j-TUGboat": "TUGboat",
            "j-ArsTeXnica": "Ars\\TeX nica",
            "pub-TUG": "{\\TeX} Users Group",
        }


def test_an_undone_import_takes_its_definitions_with_it(empty_desk: Desk, tmp_path: Path) -> None:
    import_one(empty_desk, TEX_HEAVY)
    history.undo(empty_desk)
    assert empty_desk._library.imports.definitions_for(range(1, 20)).preamble == ()
    history.redo(empty_desk)
    assert "\\acro" in exported(empty_desk, tmp_path / "o.bib")


@NEEDS_TEX
@pytest.mark.parametrize("style", ["plain", "plainnat"])
def test_the_bibliography_still_compiles_after_import_and_export(
    empty_desk: Desk, tmp_path: Path, style: str
) -> None:
    shutil.copy(TEX_HEAVY, tmp_path / "original.bib")
    assert_accepted(run_latex(tmp_path, "original", style))  # it compiled before
    import_one(empty_desk, TEX_HEAVY)
    exported(empty_desk, tmp_path / "exported.bib")
    run = run_latex(tmp_path, "exported", style)
    assert_accepted(run)
    assert (run.bibtex_errors, run.latex_errors) == (0, 0)


def test_a_files_key_replaces_a_generated_one(empty_desk: Desk, tmp_path: Path) -> None:
    listed = tmp_path / "list.jsonl"
    paper = {"title": "Sorting in O(n^α log n) time, ‘mostly’", "authors": ["Jake Snell"]}
    listed.write_text(json.dumps(paper) + "\n", encoding="utf-8")
    (paper_id,) = import_one(empty_desk, listed).added_ids
    exporting.pin_keys(empty_desk, Scope())  # the key pattern's key, stored
    made = reading.papers(empty_desk, [paper_id])[0].citation_key
    assert made

    report = import_one(empty_desk, TEX_HEAVY)

    assert reading.papers(empty_desk, [paper_id])[0].citation_key == "(jake)2018adversarially"
    replaced = f"citation key '(jake)2018adversarially' replaces the generated {made!r}"
    assert any(replaced in warning for warning in report.warnings), report.warnings
    assert history.labels(empty_desk).undo == "Import tex_heavy.bib"
    history.undo(empty_desk)
    assert reading.papers(empty_desk, [paper_id])[0].citation_key == made


def test_a_key_a_file_gave_is_not_replaced_by_another_files(
    empty_desk: Desk, tmp_path: Path
) -> None:
    import_one(empty_desk, TEX_HEAVY)
    other = tmp_path / "other.bib"
    other.write_text(
        "@article{Other:2007,\n  title = {{Lua\\TeX}: a first look},\n"
        "  author = {Nelson H. F. Beebe},\n  year = {2007},\n}\n",
        encoding="utf-8",
    )
    import_one(empty_desk, other)
    keys = [p.citation_key for p in reading.papers(empty_desk, list(range(1, 20)))]
    assert "Beebe:2007:LuaTeX" in keys and "Other:2007" not in keys

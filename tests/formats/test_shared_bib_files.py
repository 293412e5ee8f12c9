"""Every BibTeX/RIS file of tests/data/bib imports, or explains itself; never a crash.

The files come from the test suites of bibtexparser, pybtex, pybtexris and JabRef: they
hold the traps real importers fall into. EXPECTED records what each one yields
(records, skipped entries) or the reason it yields nothing, so a change in behaviour
shows up file by file.
"""

from __future__ import annotations

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.core.models import PaperRecord
from paperdesk.formats.registry import read_file
from tests.conftest import BIB_FILES

SHARED_FILES = sorted(
    path.relative_to(BIB_FILES).as_posix()
    for path in BIB_FILES.rglob("*")
    if path.is_file() and path.name != "SOURCES.tsv"
)

NO_TITLE = "no title"
EXPECTED: dict[str, tuple[int, int] | str] = {
    "bibtexparser_v1/article_comma_first.bib": (2, 0),
    "bibtexparser_v1/article_field_name_with_underscore.bib": (1, 0),
    "bibtexparser_v1/article_missing_coma.bib": (4, 0),
    "bibtexparser_v1/article_no_braces.bib": (1, 0),
    "bibtexparser_v1/article_oneline.bib": (2, 0),
    "bibtexparser_v1/article_start_with_bom.bib": (1, 0),
    "bibtexparser_v1/article_with_protection_braces.bib": (1, 0),
    "bibtexparser_v1/article_with_special_characters.bib": (1, 0),
    "bibtexparser_v1/article_with_strings.bib": (1, 0),
    # 3 @set groups, 1 repeated key, 17 title-less entries (biber's @xdata-style tests)
    "bibtexparser_v1/biber-examples.bib": (97, 21),
    "bibtexparser_v1/book_bom.bib": (1, 0),
    "bibtexparser_v1/comments_percentage.bib": (2, 0),
    "bibtexparser_v1/comments_spaces_and_declarations.bib": (1, 0),
    "bibtexparser_v1/common_strings.bib": "the file holds no BibTeX entries",
    "bibtexparser_v1/crossref_cascading.bib": "4 skipped: line 6: no title",
    "bibtexparser_v1/crossref_cascading_cycle.bib": "2 skipped: line 6: no title",
    "bibtexparser_v1/crossref_entries.bib": (14, 0),
    "bibtexparser_v1/crossref_missing_entries.bib": (1, 0),
    "bibtexparser_v1/empty.bib": "the file holds no BibTeX entries",
    "bibtexparser_v1/encoding.bib": (1, 0),
    "bibtexparser_v1/fieldname.bib": "1 skipped: line 1: no title",
    "bibtexparser_v1/multiline_comments.bib": "the file holds no BibTeX entries",
    "bibtexparser_v1/multiple_entries_and_comments.bib": (3, 0),
    "bibtexparser_v1/string.bib": (1, 0),
    "bibtexparser_v1/traps.bib": (1, 0),
    "bibtexparser_v1/wrong.bib": "2 skipped: line 3: no title; line 7: no title",
    "bibtexparser_v1/xref_entries.bib": (8, 0),
    "bibtexparser_v1/xref_missing_entries.bib": (1, 0),
    "bibtexparser_v2/gbk_test.bib": (1, 0),
    "jabref/BibtexImporter.examples.bib": (2, 2),  # two @set groups
    "jabref/RisImporterCorrupted.ris": "line 2: fields outside any record",
    "jabref/bibWithUserComments.bib": (2, 0),
    "jabref/biblatex-software.bib": (9, 0),
    "jabref/complex.bib": (20, 0),
    "jabref/crossref.bib": (4, 0),
    "jabref/encoding-utf-16BE-with-header.bib": (1, 0),
    # decodes (as Windows-1252 despite its UTF-8 header), but its one entry has no title
    "jabref/encoding-windows-1252-but-utf-8-declared--decoding-fails.bib": "line 3: no title",
    "jabref/encoding-windows-1252-with-header.bib": "line 3: no title",
    "jabref/entryWithMultilineAbstract.bib": "line 1: no title",
    "jabref/headerless.bib": (1, 0),
    "jabref/jabref-authors.bib": (212, 0),
    "jabref/reallyunknowntype.bib": "line 4: no title",
    "jabref/test.bib": (19, 0),
    "jabref/testjabref.bib": (156, 0),
    "jabref/tiny-LE-withBOM.bib": (1, 0),
    "jabref/wrong-header.bib": (1, 0),
    "pybtex/IEEEtran.bib": (4, 1),  # the @IEEEtranBSTCTL style-control entry
    "pybtex/cyrillic.bib": (5, 0),
    "pybtex/extrafields.bib": (1, 0),
    "pybtex/xampl.bib": (33, 3),
    "pybtexris/Knuth1986.bib": (1, 0),
    "pybtexris/Shannon1948.ris": (1, 0),
    "pybtexris/abramowitz+stegun.bib": (1, 0),
    "pybtexris/multikey.ris": (2, 0),
}


#: Files whose header names an encoding their bytes do not fit: decoding says so (a warning).
MISLABELLED = {"jabref/encoding-windows-1252-but-utf-8-declared--decoding-fails.bib"}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(name, marks=pytest.mark.logs_warnings if name in MISLABELLED else ())
        for name in SHARED_FILES
    ],
)
def test_every_shared_file_imports_or_explains(name: str) -> None:
    path = BIB_FILES / name
    try:
        result = read_file(path)
    except FormatError as error:
        assert path.name in str(error)
        assert error.reason.startswith("no entries found")
        outcome: tuple[int, int] | str = error.reason
    else:
        assert result.records
        for problem in result.problems:
            assert (problem.file, bool(problem.reason)) == (str(path), True)
            assert problem.line is not None and problem.line >= 1
        outcome = (len(result.records), len(result.problems))

    assert name in EXPECTED, f"new shared file {name}: yields {outcome!r}"
    expected = EXPECTED[name]
    if isinstance(expected, str):
        assert isinstance(outcome, str) and expected in outcome
    else:
        assert outcome == expected


def records_of(name: str) -> dict[str | None, PaperRecord]:
    return {r.citation_key: r for r in read_file(BIB_FILES / name).records}


def test_latex_accents_become_unicode_and_raw_keeps_latex() -> None:
    (record,) = records_of("bibtexparser_v1/article_with_special_characters.bib").values()
    assert record.authors == ("Jean Césarü",)
    assert dict(record.raw_fields)["author"] == "Jean C{\\'e}sar{\\\"u}"


def test_jabref_authors_accents() -> None:
    records = records_of("jabref/jabref-authors.bib")
    garrido = records["GarridoGrajalMarcosEtAl2013"]
    assert garrido.authors == (
        "Mario Garrido",
        "Jesús Grajal",
        "Miguel A. Sánchez Marcos",
        "Oscar Gustafsson",
    )
    assert garrido.venue == "IEEE Trans. VLSI Syst."
    assert garrido.ids.doi == "10.1109/tvlsi.2011.2178275"
    everyone = {author for record in records.values() for author in record.authors}
    assert "Håkan Johansson" in everyone
    assert not any("\\" in author or "{" in author for author in everyone)


def test_string_macro_expands_into_the_venue() -> None:
    record = records_of("bibtexparser_v1/string.bib")["cha:oakland15"]
    assert record.venue == "Proceedings of the IEEE Symposium on Security and Privacy"
    assert record.title == "Program-Adaptive Mutational Fuzzing"
    assert record.authors == ("Sang Kil Cha", "Maverick Woo", "David Brumley")


def test_crossref_children_inherit_venue_and_year() -> None:
    records = records_of("bibtexparser_v1/crossref_entries.bib")
    child = records["cr1"]
    assert (child.title, child.venue, child.year) == (
        "Great and Good Graphs",
        "Graphs of the Continent",
        1974,
    )
    assert "year" not in dict(child.raw_fields)  # inherited for display, not copied


def test_gbk_file_reads_as_chinese() -> None:
    (record,) = records_of("bibtexparser_v2/gbk_test.bib").values()
    assert (record.citation_key, record.authors, record.venue) == (
        "凯撒2013",
        ("凯撒",),
        "测试期刊",
    )


def test_utf16_files_read() -> None:
    (big_endian,) = records_of("jabref/encoding-utf-16BE-with-header.bib").values()
    assert big_endian.title == "Ü ist ein Umlaut"
    (little_endian,) = records_of("jabref/tiny-LE-withBOM.bib").values()
    assert little_endian.venue == "Veterinary Record"
    assert "G. van Galen" in little_endian.authors


def test_ris_files() -> None:
    (shannon,) = records_of("pybtexris/Shannon1948.ris").values()
    assert (shannon.title, shannon.authors, shannon.year, shannon.venue) == (
        "A Mathematical Theory of Communication",
        ("Claude E. Shannon",),
        1948,
        "Bell System Technical Journal",
    )
    records = read_file(BIB_FILES / "pybtexris/multikey.ris").records
    assert [r.ids.doi for r in records] == ["10.1027/1016-9040/a000494", "10.3205/zma001615"]

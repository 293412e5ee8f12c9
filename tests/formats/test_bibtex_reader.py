"""BibTeX as users bring it: LaTeX, macros, crossrefs, broken entries among good ones."""

from __future__ import annotations

import io

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.core.models import Identifiers, PaperRecord
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_writer import write_bibtex
from tests.factories import as_papers


def read_one(text: str):
    result = read_bibtex(text, "refs.bib")
    assert result.problems == ()
    assert len(result.records) == 1
    return result.records[0]


@pytest.mark.parametrize(
    ("title_source", "shown"),
    [
        (r"{An} amazing {TITLE}", "An amazing TITLE"),
        (r"{{Program-Adaptive Mutational Fuzzing}}", "Program-Adaptive Mutational Fuzzing"),
        (r"Attention Is All You Need", "Attention Is All You Need"),
        (r"Learning in $O(d \log n)$ time", "Learning in O(d log n) time"),
        (r"\textit{Deep} and \emph{wide}", "Deep and wide"),
        (r"Caf{\'e} na{\"\i}ve {\v{S}}koda", "Café naïve Škoda"),
        (r"Pages 12--23, 25\% and 50% more", "Pages 12–23, 25% and 50% more"),
        (r"{{\BibTeX}}ing with \LaTeX", "BibTeXing with LaTeX"),
        ("Across\n    two   lines", "Across two lines"),
    ],
)
def test_titles_are_shown_as_readable_unicode(title_source: str, shown: str) -> None:
    record = read_one(f"@article{{k, title = {{{title_source}}}}}")
    assert record.title == shown
    assert dict(record.raw_fields)["title"] == title_source


@pytest.mark.parametrize(
    ("authors_source", "shown"),
    [
        (r"Rockt{\"a}schel, Tim and Sebastian Riedel", ("Tim Rocktäschel", "Sebastian Riedel")),
        (r"Jean C{\'e}sar{\"u}", ("Jean Césarü",)),
        (r"van der Walt, St{\'e}fan", ("Stéfan van der Walt",)),
        (r"Ludwig van Beethoven", ("Ludwig van Beethoven",)),
        (r"Smith, Jr., John", ("John Smith Jr.",)),
        (r"{The CGAL Project}", ("The CGAL Project",)),
        (r"{Barnes and Noble}", ("Barnes and Noble",)),
        (r"Alice Liddell and Bob Marley and others", ("Alice Liddell", "Bob Marley")),
        (r"Erd{\H{o}}s, Paul", ("Paul Erdős",)),
    ],
)
def test_authors_are_first_name_first(authors_source: str, shown: tuple[str, ...]) -> None:
    record = read_one(f"@article{{k, title = {{T}}, author = {{{authors_source}}}}}")
    assert record.authors == shown


def test_string_macros_concatenation_and_month_names() -> None:
    record = read_one(
        "@string{proc = {Proceedings of the }}\n"
        '@STRING{ICML = "International Conference on Machine Learning"}\n'
        '@preamble{ "\\newcommand{\\noop}[1]{}" }\n'
        "@comment{ @article{ignored, title = {not an entry}} }\n"
        "@inproceedings{k,\n"
        "  title = {T},\n"
        "  booktitle = proc # icml # { 2024},\n"
        "  month = jul,\n"
        "  year = 2024\n"
        "}\n"
    )
    assert record.venue == "Proceedings of the International Conference on Machine Learning 2024"
    assert record.year == 2024
    assert dict(record.raw_fields)["month"] == "July"


def test_record_keeps_line_key_type_and_raw_fields() -> None:
    text = "% exported\n\n@InProceedings{Smith2024,\n  Title = {Deep {GAN}s},\n  Year = {2024}\n}\n"
    record = read_one(text)
    assert record.line == 3
    assert record.citation_key == "Smith2024"
    assert record.entry_type == "inproceedings"
    assert record.raw_fields == (("Title", "Deep {GAN}s"), ("Year", "2024"))
    assert record.title == "Deep GANs"


def test_year_from_biblatex_date() -> None:
    assert read_one("@online{k, title = {T}, date = {2023-05-17}}").year == 2023


def test_venue_prefers_booktitle_then_journal() -> None:
    assert read_one("@article{k, title = {T}, journal = {J. Mach. Learn. Res.}}").venue == (
        "J. Mach. Learn. Res."
    )
    assert read_one("@misc{k, title = {T}}").venue is None


def test_identifiers_from_doi_eprint_and_urls() -> None:
    record = read_one(
        "@article{k, title = {T},\n"
        "  doi = {https://doi.org/10.1145/ABC.123},\n"
        "  eprint = {2401.01234v2}, archivePrefix = {arXiv},\n"
        "  url = {https://openreview.net/forum?id=AbC_12-xy}}"
    )
    assert record.ids == Identifiers(
        doi="10.1145/abc.123",
        arxiv="2401.01234",
        openreview="AbC_12-xy",
        url="https://openreview.net/forum?id=AbC_12-xy",
    )


def test_google_scholar_style_arxiv_journal_gives_the_arxiv_id() -> None:
    record = read_one("@article{k, title = {T}, journal = {arXiv preprint arXiv:1706.03762}}")
    assert record.ids.arxiv == "1706.03762"


def test_eprint_of_another_archive_is_not_taken_for_arxiv() -> None:
    record = read_one("@article{k, title = {T}, eprint = {1234.5678}, eprinttype = {pubmed}}")
    assert record.ids.arxiv is None


def test_crossref_fills_venue_year_and_authors_but_not_the_title() -> None:
    result = read_bibtex(
        "@inproceedings{child, title = {Child Paper}, crossref = {PROC}}\n"
        "@proceedings{proc, title = {Proc. of {ICML}}, year = 2019, author = {A. Editor}}\n",
        "refs.bib",
    )
    child = result.records[0]
    assert (child.title, child.venue, child.year) == ("Child Paper", "Proc. of ICML", 2019)
    assert child.authors == ("A. Editor",)
    assert dict(child.raw_fields) == {"title": "Child Paper", "crossref": "PROC"}


def test_a_version_inherits_its_software_title() -> None:
    result = read_bibtex(
        "@software{sw, title = {Scilab}, author = {Gomez, Claude}}\n"
        "@softwareversion{v1, version = {1.1}, crossref = {sw}}\n",
        "refs.bib",
    )
    assert [(r.title, r.authors) for r in result.records] == [
        ("Scilab", ("Claude Gomez",)),
        ("Scilab", ("Claude Gomez",)),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "@book{a, title = {A}, crossref = {b}}\n@book{b, title = {B}, crossref = {a}}\n",
        "@book{a, title = {A}, crossref = {a}}\n",
        "@book{a, title = {A}, crossref = {nowhere}}\n",
        "@book{a, title = {A}, xref = {b}}\n@book{b, title = {B}, xref = {a}}\n",
    ],
)
def test_crossref_cycles_and_missing_parents_do_not_cost_the_entry(text: str) -> None:
    result = read_bibtex(text, "refs.bib")
    assert result.records[0].title == "A"
    assert result.problems == ()


def test_broken_entries_become_problems_and_the_others_import() -> None:
    text = (
        "@article{a,\n"
        "  title = {Missing comma after me}\n"
        "  author = {Alice Smith}\n"
        "}\n"
        "@article{b, title = {Good one}}\n"
        "@misc{c title = {no comma after the key}}\n"
        "@article{d, author = {No Title}}\n"
        "@article{b, title = {Same key again}}\n"
        "@set{s, entryset = {b}}\n"
        "@article{e,\n"
        '  title = "Quote never closed,\n'
        "}\n"
        "@article{f, title = {Last good one}}\n"
    )
    result = read_bibtex(text, "refs.bib")
    # A repeated key is no reason to lose a paper (the importer gives it its own key).
    assert [(r.title, r.citation_key) for r in result.records] == [
        ("Good one", "b"),
        ("Same key again", "b"),
        ("Last good one", "f"),
    ]
    reasons = {p.line: p.reason for p in result.problems}
    assert set(reasons) == {1, 6, 7, 9, 10}
    assert "missing comma" in reasons[1]
    assert "'title'" in reasons[1]
    assert "Expected comma after entry key" in reasons[6]
    assert reasons[7] == "no title"
    assert "@set" in reasons[9]
    assert reasons[10].startswith("cannot read this @article")
    assert all(p.file == "refs.bib" for p in result.problems)


def test_repeated_field_keeps_the_first_value_like_bibtex() -> None:
    record = read_one("@article{k, title = {First}, title = {Second}}")
    assert record.title == "First"


def test_entries_without_keys_are_all_kept() -> None:
    result = read_bibtex("@article{, title = {One}}\n@article{, title = {Two}}\n", "jab.bib")
    assert [(r.title, r.citation_key) for r in result.records] == [("One", None), ("Two", None)]


def test_unknown_entry_types_are_kept() -> None:
    assert read_one("@reallyunknowntype{k, title = {Odd}}").entry_type == "reallyunknowntype"


def test_abstract_keeps_its_source_text() -> None:
    record = read_one("@article{k, title = {T}, abstract = {We show $O(n)$.\n  Second line.}}")
    assert record.abstract == "We show $O(n)$.\n  Second line."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no entries found: the file holds no BibTeX entries"),
        ("% only a comment\n@string{a = {b}}\n", "no entries found: the file holds no BibTeX"),
        ("@book{a, date = {1911}}\n@book{b, year = {1911}}\n", "2 skipped: line 1: no title"),
    ],
)
def test_file_with_nothing_to_import_is_a_format_error(text: str, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_bibtex(text, "refs.bib")
    assert caught.value.file == "refs.bib"
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("authors_source", "shown"),
    [
        (r"Delebecque, Fran{\c c}ois", ("François Delebecque",)),  # jabref/biblatex-software.bib
        (r"G. {\relax Yu}. Prokhorov", ("G. Yu. Prokhorov",)),  # bibtexparser_v1/biber-examples
        (r"Erd\H os, Paul", ("Paul Erdős",)),
    ],
)
def test_authors_in_rarer_latex_forms(authors_source: str, shown: tuple[str, ...]) -> None:
    record = read_one(f"@article{{k, title = {{T}}, author = {{{authors_source}}}}}")
    assert record.authors == shown


def test_names_are_read_after_their_latex_commands() -> None:
    """Issue 9: the name splitter saw the macros before they were decoded."""
    record = read_one(
        "@article{k, title = {T}, author = {Jo\\~{a}o Silva and Ne\\~{s}et\\~{r}il, Jaroslav"
        ' and \\\'{E}ric Dupont and \\rlap{Lutz Birkhahn} and {\\"O}zt{\\"u}rk, Ay{\\c{s}}e}}'
    )
    assert record.authors == (
        "João Silva",
        "Jaroslav Nešetřil",
        "Éric Dupont",
        "Lutz Birkhahn",
        "Ayşe Öztürk",
    )


def test_a_pmlr_volumes_proceedings_gives_its_papers_their_venue_and_year() -> None:
    """Issue 24: a PMLR bibliography names its venue and year once, in an untitled
    @Proceedings that no paper cites by crossref."""
    result = read_bibtex(
        "@Proceedings{ICML-2019,\n"
        "  booktitle = {Proceedings of the 36th International Conference on Machine Learning},\n"
        "  shortname = {ICML}, volume = {97}, year = {2019},\n"
        "  editor = {Chaudhuri, Kamalika and Salakhutdinov, Ruslan}}\n"
        "@InProceedings{pmlr-v97-abbati19a, title = {AReS and MaRS},\n"
        "  author = {Abbati, Gabriele}, pages = {1--10}}\n"
        "@article{other, title = {A Journal Paper}, journal = {JMLR}, year = 2020}\n",
        "v97.bib",
    )
    paper, article = result.records
    assert (paper.venue, paper.year, paper.authors) == (
        "Proceedings of the 36th International Conference on Machine Learning",
        2019,
        ("Gabriele Abbati",),
    )
    assert (article.venue, article.year) == ("JMLR", 2020)  # not a part of the volume
    assert [p.reason for p in result.problems] == [
        "@proceedings without a title: its venue and year go to the file's papers"
    ]


def test_biblatex_extended_names_are_read() -> None:
    result = read_bibtex(
        "@article{a, title = {T}, author = {family=Vries, given=Hugo, prefix=de, "
        'useprefix=true and Knuth, Donald E. and given={Jean-Pierre}, family={S{\\"u}ss}}}\n',
        "refs.bib",
    )
    assert result.records[0].authors == ("Hugo de Vries", "Donald E. Knuth", "Jean-Pierre Süss")


@pytest.mark.parametrize(
    ("field", "read"),
    [("year = {-0197}", -197), ("date = {-0044-03-15}", -44), ("year = {2019-2020}", 2019)],
)
def test_a_year_before_the_common_era_is_negative(field: str, read: int) -> None:
    result = read_bibtex(f"@book{{a, title = {{T}}, {field}}}\n", "refs.bib")
    assert result.records[0].year == read
    written = export_one(result.records[0])
    assert read_bibtex(written, "out.bib").records[0].year == read


def export_one(record: PaperRecord) -> str:
    stream = io.StringIO()
    write_bibtex(as_papers([record]), stream, "biblatex")
    return stream.getvalue()

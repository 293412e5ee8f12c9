"""BibTeX export: every file parses with bibtexparser and pybtex, and says the right things."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace

import bibtexparser
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pybtex.database.input.bibtex import Parser as PybtexParser
from pylatexenc.latex2text import LatexNodes2Text

from paperdesk.core.models import Identifiers, Paper, Status
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_writer import bibtex_entry, write_bibtex
from paperdesk.formats.seedlist import read_seedlist
from paperdesk.text import to_plain
from paperdesk.text.latex_escape import read_plain_value
from tests.conftest import lines_of
from tests.factories import make_paper


def export(papers, ascii_only=False) -> str:
    """The `bibtex` flavour (ASCII) or, by default here, the `biblatex` one (UTF-8)."""
    stream = io.StringIO()
    flavour = "bibtex" if ascii_only else "biblatex"
    assert write_bibtex(papers, stream, flavour) == len(papers)
    return stream.getvalue()


def parse_both(text: str, count: int):
    """Both parsers read `text` without a single complaint and find `count` entries.

    Returns {key: {field: value}} as bibtexparser reads it by default (outer braces
    removed) and pybtex's BibliographyData.
    """
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    assert len(library.entries) == count
    assert len(library.blocks) == count  # no comments, strings or stray text either
    # What pybtex.database.parse_string(text, "bibtex") runs, without its slow plugin lookup.
    data = PybtexParser().parse_string(text)
    assert len(data.entries) == count
    fields = {}
    for entry in library.entries:
        fields[entry.key] = {f.key: f.value for f in entry.fields} | {"@": entry.entry_type}
    return fields, data


def unescape_plain(value: str) -> str:
    """A plain value (note, tag, name) as the text it was written from."""
    return read_plain_value(value)


def braces_balanced(value: str) -> bool:
    """Balanced as BibTeX counts: every brace, escaped or not."""
    depth = 0
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


HOSTILE_NOTES = [
    "closes } early",
    "opens { and never closes",
    "100% sure # 1 & only",
    "path C:\\Users\\me\\notes and \\emph{not a command}",
    "} { } {{ }",
    "math $x_1 + y^{2}$ stays, money $5 and $10 does not",
    "no command in math: $\\é$",
    "line one\n\n@misc{trap,\n  title = {injected}\n}\nlast line",
    "ends with a backslash \\",
    "tilde ~ caret ^ underscore _ dollar $",
    "中文笔记：很好的论文。",
]


def hostile_shortlist() -> list[Paper]:
    papers = [
        make_paper(
            id=1,
            title="SGSI: Soft-Gated Structural Inference with MoE Layers",
            title_is_derived=True,
            authors=(),
            abstract="We reach 100% on $x_1$ with {unbalanced braces and a #hashtag & more",
            note=HOSTILE_NOTES[0],
            tags=("graphs", "to cite"),
            rating=5,
            status=Status.TO_READ,
            ids=Identifiers(arxiv="2501.01234", openreview="AbC-123_x"),
        ),
        make_paper(
            id=2,
            title="Learning to Communicate with Deep Multi-Agent Reinforcement Learning",
            authors=("Jakob Foerster", "Tim Rocktäschel", "Laurens van der Maaten"),
            venue="NeurIPS",
            year=2016,
            abstract="An abstract with \\emph{emphasis}, \\% already escaped and a } stray brace",
            note=HOSTILE_NOTES[1],
            ids=Identifiers(doi="10.5555/3157096.3157336", url="https://example.org/a_b?x=1&y=%20"),
        ),
        make_paper(
            id=3,
            title="深度学习的结构推断",
            authors=("张伟", "李娜"),
            venue="JMLR",
            year=2024,
            abstract="中文摘要，包含 100% 和 $\\alpha$。",
            note=HOSTILE_NOTES[2],
        ),
    ]
    for index, note in enumerate(HOSTILE_NOTES[3:], start=4):
        papers.append(make_paper(id=index, title=f"Paper {index}", note=note, venue=None))
    return papers


@pytest.mark.parametrize("ascii_only", [False, True], ids=["utf8", "ascii"])
def test_hostile_shortlist_parses_with_both_parsers(ascii_only):
    papers = hostile_shortlist()
    text = export(papers, ascii_only=ascii_only)
    if ascii_only:
        assert text.isascii()
    fields, data = parse_both(text, len(papers))
    for entry in fields.values():
        assert all(braces_balanced(value) for value in entry.values())
    assert "trap" not in fields  # the note's "@misc{trap," stayed inside the note


def test_hostile_notes_come_back_as_written():
    papers = hostile_shortlist()
    fields, _ = parse_both(export(papers), len(papers))
    for paper, entry in zip(papers, fields.values(), strict=True):
        # a note is plain text, its `$` too: every note comes back as written
        assert unescape_plain(entry["annote"]) == paper.note


def test_fields_of_a_conference_paper():
    papers = hostile_shortlist()
    fields, data = parse_both(export(papers), len(papers))
    entry = fields["foerster2016learning"]
    assert entry["@"] == "inproceedings"
    assert entry["booktitle"] == "NeurIPS"  # the venue as stored, read back as the same
    assert entry["year"] == "2016"
    assert entry["author"] == "Foerster, Jakob and Rocktäschel, Tim and van der Maaten, Laurens"
    assert entry["doi"] == "10.5555/3157096.3157336"
    assert entry["url"] == "https://example.org/a_b?x=1&y=%20"
    assert entry["abstract"] == (
        "An abstract with \\emph{emphasis}, \\% already escaped "
        "and a \\textbraceright{} stray brace"
    )
    persons = data.entries["foerster2016learning"].persons["author"]
    assert [p.last_names for p in persons] == [["Foerster"], ["Rocktäschel"], ["Maaten"]]
    assert persons[2].prelast_names == ["van", "der"]
    assert persons[1].first_names == ["Tim"]


def test_fields_of_a_derived_title_without_authors():
    papers = hostile_shortlist()
    fields, _ = parse_both(export(papers), len(papers))
    entry = fields["anon2025sgsi"]
    assert entry["title"] == "{SGSI}: Soft-Gated Structural Inference with {MoE} Layers"
    assert "author" not in entry
    assert entry["booktitle"] == "ICML"
    assert entry["key"] == "SGSI: Soft-Gated Structural Inference with MoE Layers"  # no author
    assert entry["x-paperdesk-derived-title"] == "true"
    assert entry["abstract"] == (
        "We reach 100\\% on $x_1$ with \\textbraceleft{}unbalanced braces and a \\#hashtag \\& more"
    )
    assert entry["eprint"] == "2501.01234"
    assert entry["archiveprefix"] == "arXiv"
    assert entry["openreview"] == "AbC-123_x"
    assert entry["keywords"] == "graphs, to cite"
    assert entry["x-paperdesk-status"] == "to-read"
    assert entry["x-paperdesk-rating"] == "5"


def test_journal_unicode_and_unknown_venue():
    papers = hostile_shortlist()
    fields, _ = parse_both(export(papers), len(papers))
    chinese = fields["anon2024"]  # no Latin letters for a key word: surname and title drop out
    assert chinese["@"] == "article"
    assert chinese["journal"] == "JMLR"
    assert chinese["title"] == "深度学习的结构推断"
    assert chinese["author"] == "张伟 and 李娜"
    assert chinese["abstract"] == "中文摘要，包含 100\\% 和 $\\alpha$。"
    no_venue = fields["sun2025paper"]
    assert no_venue["@"] == "misc"
    assert "x-paperdesk-rating" not in no_venue


def test_ascii_only_uses_latex_for_accents():
    papers = hostile_shortlist()
    text = export(papers, ascii_only=True)
    _, data = parse_both(text, len(papers))
    persons = data.entries["foerster2016learning"].persons["author"]
    assert persons[1].last_names == ['Rockt{\\"a}schel']
    decoded = LatexNodes2Text().latex_to_text(persons[1].last_names[0])
    assert decoded == "Rocktäschel"
    assert "U+6DF1" in data.entries["anon2024"].fields["title"]  # 深: no LaTeX command


@pytest.mark.parametrize(
    ("title", "written"),
    [
        ("SGSI: Soft-Gated Structural Inference", "{SGSI}: Soft-Gated Structural Inference"),
        ("Scaling MoE Models with iPhone Data", "Scaling {MoE} Models with {iPhone} Data"),
        ("Gaussian Processes for Machine Learning", "Gaussian Processes for Machine Learning"),
        ("Sparse Gaussian Processes", "Sparse {Gaussian} Processes"),
        (
            "Sparse processes for Gaussian data in Python",
            "Sparse processes for {Gaussian} data in {Python}",
        ),
        ("Fast k-NN Search in 3D with GPT-4", "Fast k-{NN} Search in {3D} with {GPT}-4"),
        ("Choosing Option A: A Study", "Choosing Option {A}: A Study"),
        ("On the $K^2$-means Problem", "On the {$K^2$}-means Problem"),
        ("\\textit{DeepNets} and \\LaTeX", "\\textit{DeepNets} and \\LaTeX"),
        ("Q&A for 100% of {BERT} users", "Q\\&{A} for 100\\% of {BERT} users"),
        ('Variational Schr\\"odinger Diffusion', 'Variational Schr\\"odinger Diffusion'),
        ("A stay at \\'Ecole normale in Paris", "A stay at \\'Ecole normale in {Paris}"),
    ],
)
def test_title_protection(title, written):
    fields, _ = parse_both(export([make_paper(title=title)]), 1)
    assert next(iter(fields.values()))["title"] == written


@pytest.mark.parametrize(
    ("abstract", "written"),
    [
        ("cost $5 and $10 each", "cost \\$5 and \\$10 each"),
        ("from $20 to $30", "from \\$20 to \\$30"),
        # math before a number stays math, as the text engine reads it (issue 24)
        ("serving ($\\sim$1B requests)", "serving ($\\sim$1B requests)"),
        ("gains of $\\alpha$2", "gains of $\\alpha$2"),
        # words in math are no commands (the allow-list once read `5B` as `\\B`)
        ("scales ($\\sim5B$ data) and $xy + ab$", "scales ($\\sim5B$ data) and $xy + ab$"),
        ("$$\\sum_{i} x_i$$ and $\\{a\\}$", "$$\\sum_{i} x_i$$ and $\\{a\\}$"),
        ("math with % inside $a % b$", "math with \\% inside $a \\% b$"),
        ("broken math $x^{2$ here", "broken math $x^\\lbrace{}2$ here"),
        ("inline \\(a_1\\) and display \\[b\\]", "inline \\(a_1\\) and display \\[b\\]"),
        ("an \\( that never closes", "an \\textbackslash{}( that never closes"),
        ("Fig.~1 and ~10x faster", "Fig.\\textasciitilde{}1 and \\textasciitilde{}10x faster"),
        ("a line\\\\{b} break", "a line\\\\ {b} break"),
        ("a \\{ lone escaped brace", "a \\textbraceleft{} lone escaped brace"),
        ("", None),
    ],
)
def test_abstract_escaping(abstract, written):
    fields, _ = parse_both(export([make_paper(abstract=abstract)]), 1)
    assert next(iter(fields.values())).get("abstract") == written


def test_math_in_an_abstract_reads_back_as_math_not_dollars():
    text = export([make_paper(abstract="serving ($\\sim$1B requests) daily")], ascii_only=True)
    (record,) = read_bibtex(text, "out.bib").records
    assert to_plain(record.abstract) == "serving (∼1B requests) daily"


def test_names_that_are_not_simple():
    authors = ("Sun, Yi", "Tom and Jerry", "a, b, c, d", "Martin King", " ", "Ng", "{x }", ", Z")
    fields, data = parse_both(export([make_paper(authors=authors)]), 1)
    assert len(data.entries["sun2025learning"].persons["author"]) == 7
    assert fields["sun2025learning"]["author"] == (
        "Sun, Yi and Jerry, Tom {and} and {a, b, c, d} and King, Martin and Ng"
        " and {\\{x \\}} and {, Z}"
    )


def test_stored_keys_are_kept_and_keys_are_unique():
    papers = [
        make_paper(id=1),
        make_paper(id=2, citation_key="sun2025learning"),
        make_paper(id=3, citation_key="bad key"),
        make_paper(id=4, citation_key="DBLP:conf/icml/Sun25"),
    ]
    fields, _ = parse_both(export(papers), 4)
    assert list(fields) == [
        "sun2025learninga",
        "sun2025learning",
        "sun2025learningb",
        "DBLP:conf/icml/Sun25",
    ]


def test_entry_types_from_metadata():
    papers = [
        make_paper(id=1, entry_type="phdthesis", venue="MIT", title="Thesis"),
        make_paper(id=2, entry_type="string", venue="JMLR", title="Journal"),
        make_paper(id=3, entry_type="Article", venue="Nature", title="Nature"),
        make_paper(id=4, venue="ICML Workshop on Graphs", title="Workshop"),
        make_paper(id=5, entry_type="JOUR", venue="JMLR", title="RIS type"),
        make_paper(id=6, entry_type="conferencePaper", venue="NIPS", title="Zotero type"),
    ]
    fields, _ = parse_both(export(papers), 6)
    assert fields["sun2025thesis"]["@"] == "phdthesis"
    assert fields["sun2025thesis"]["school"] == "MIT"
    assert fields["sun2025journal"]["@"] == "article"
    assert fields["sun2025nature"]["journal"] == "Nature"
    assert fields["sun2025workshop"]["@"] == "misc"
    assert fields["sun2025workshop"]["howpublished"] == "ICML Workshop on Graphs"
    assert fields["sun2025ris"]["@"] == "article"
    assert fields["sun2025zotero"]["@"] == "inproceedings"


def bibtex_import(**fields) -> Paper:
    """A paper as the BibTeX importer stores it: display values plus the raw fields."""
    raw = (
        ("Title", '{SGSI}: Learning with Schr{\\"o}dinger Bridges'),
        ("author", 'Rockt{\\"a}schel, Tim and Sun, Yi'),
        ("booktitle", "Proceedings of the 42nd International Conference on Machine Learning"),
        ("pages", "1--10"),
        ("publisher", "PMLR"),
        ("crossref", "icml2025"),
        ("abstract", "the raw abstract"),
        ("bad name!", "dropped"),
        ("x-private", "dropped"),
    )
    defaults = dict(
        title="SGSI: Learning with Schrödinger Bridges",
        authors=("Tim Rocktäschel", "Yi Sun"),
        venue="Proceedings of the 42nd International Conference on Machine Learning",
        entry_type="inproceedings",
        raw_fields=raw,
        abstract="the abstract",
    )
    return make_paper(**(defaults | fields))


def test_bibtex_import_gives_back_its_own_latex():
    fields, _ = parse_both(export([bibtex_import()]), 1)
    entry = fields["rocktaschel2025sgsi"]
    assert entry["title"] == '{SGSI}: Learning with Schr{\\"o}dinger Bridges'
    assert entry["author"] == 'Rockt{\\"a}schel, Tim and Sun, Yi'
    assert (
        entry["booktitle"] == "Proceedings of the 42nd International Conference on Machine Learning"
    )
    assert entry["pages"] == "1--10"
    assert entry["publisher"] == "PMLR"
    assert entry["abstract"] == "the abstract"
    assert "crossref" not in entry and "bad name!" not in entry and "x-private" not in entry


def test_edited_title_and_authors_win_over_stale_raw_fields():
    paper = bibtex_import(title="A Better Title", authors=("Tim Rocktäschel", "Ada Lovelace"))
    fields, _ = parse_both(export([paper]), 1)
    entry = fields["rocktaschel2025better"]
    assert entry["title"] == "A Better Title"
    assert entry["author"] == "Rocktäschel, Tim and Lovelace, Ada"


def test_raw_author_with_too_many_commas_is_not_copied():
    paper = bibtex_import(
        raw_fields=(("author", "Sun, Yi, Jr, Extra"),), authors=("Yi Sun Jr Extra",)
    )
    fields, _ = parse_both(export([paper]), 1)
    assert fields["extra2025sgsi"]["author"] == "Extra, Yi Sun Jr"


def test_other_formats_raw_fields_are_not_bibtex():
    """A JSON or CSV import keeps its own keys as raw fields: none of them is copied but
    pages, the paper's Pages field (core.fields) wherever it came from."""
    raw = (("title", "Kernel Methods in Hilbert Space"), ("status", "Poster"), ("note", "x"))
    paper = make_paper(title="Kernel Methods in Hilbert Space", raw_fields=raw, venue="ACML")
    fields, _ = parse_both(export([paper]), 1)
    entry = fields["sun2025kernel"]
    assert entry["title"] == "Kernel Methods in {Hilbert} Space"
    assert "status" not in entry and "note" not in entry


def test_pages_edited_on_a_paper_without_a_bibtex_type_are_exported():
    """The edit form sets pages on any paper; one imported from a seed list, RIS or JSON
    has no BibTeX entry type, and its pages were left out until a type was set."""
    for entry_type in (None, "CPAPER"):
        paper = make_paper(entry_type=entry_type, raw_fields=(("pages", "5998--6008"),))
        fields, _ = parse_both(export([paper]), 1)
        (entry,) = fields.values()
        assert entry["pages"] == "5998--6008"


def test_unbalanced_raw_fields_are_repaired():
    raw = (("title", "Broken } title {"), ("note", "a \\{ b"), ("pages", "@misc{x,"))
    paper = make_paper(title="Broken } title {", raw_fields=raw, entry_type="misc")
    fields, _ = parse_both(export([paper]), 1)
    entry = fields["sun2025broken"]
    assert entry["title"] == "Broken \\textbraceright{} title \\textbraceleft{}"
    assert entry["note"] == "a \\textbraceleft{} b"


def test_entry_is_readable():
    paper = make_paper(tags=("rl",), note="Read it.", rating=3)
    assert bibtex_entry(paper, "sun2025learning") == (
        "@inproceedings{sun2025learning,\n"
        "  title = {Learning Sparse Graphs},\n"
        "  author = {Sun, Yi},\n"
        "  booktitle = {ICML},\n"
        "  year = {2025},\n"
        "  keywords = {rl},\n"
        "  annote = {Read it.},\n"
        "  x-paperdesk-status = {new},\n"
        "  x-paperdesk-rating = {3},\n"
        "}\n"
    )


# --- property tests ----------------------------------------------------------------

# Mostly the characters that break BibTeX files, plus any Unicode a UTF-8 file can hold
# (lone surrogates cannot be written to any file, so they are not user text).
hostile_text = st.text(
    alphabet=st.sampled_from(list("{}\\$%&#_~^@\"',=() \n\tAaZz01é中"))
    | st.characters(codec="utf-8"),
    max_size=40,
)
raw_field_names = hostile_text | st.sampled_from(
    ["title", "Author", "booktitle", "journal", "pages", "note", "subtitle", "crossref"]
)
papers_strategy = st.lists(
    st.builds(
        make_paper,
        title=hostile_text,
        authors=st.lists(hostile_text, max_size=3).map(tuple),
        venue=st.none() | hostile_text | st.sampled_from(["ICML", "JMLR", "NIPS 2017"]),
        year=st.none() | st.integers(1, 9999),
        abstract=hostile_text,
        note=hostile_text,
        tags=st.lists(hostile_text, max_size=3).map(tuple),
        citation_key=st.none() | hostile_text | st.sampled_from(["k", "K", "sun2025learning"]),
        entry_type=st.none() | hostile_text | st.sampled_from(["article", "misc", "JOUR"]),
        raw_fields=st.lists(st.tuples(raw_field_names, hostile_text), max_size=3).map(tuple),
        ids=st.builds(Identifiers, doi=st.none() | hostile_text, url=st.none() | hostile_text),
        rating=st.integers(0, 5),
        status=st.sampled_from(Status),
    ),
    max_size=4,
)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(papers=papers_strategy, ascii_only=st.booleans())
def test_any_papers_give_a_file_both_parsers_accept(papers, ascii_only):
    text = export(papers, ascii_only=ascii_only)
    if ascii_only:  # but a key the user gave (`Müller2020`), which \cite must find
        assert all(line.isascii() for line in text.splitlines() if not line.startswith("@"))
    fields, _ = parse_both(text, len(papers))
    for entry in fields.values():
        assert all(braces_balanced(value) for value in entry.values())


@settings(max_examples=100, deadline=None)
@given(title=hostile_text, authors=st.lists(hostile_text, max_size=3), ascii_only=st.booleans())
def test_raw_bibtex_title_and_author_never_break_the_file(title, authors, ascii_only):
    """Raw fields that match the paper's data are copied: even broken ones must parse."""
    raw = (("title", title), ("author", " and ".join(authors)), ("pages", title))
    paper = make_paper(title=title, authors=tuple(authors), entry_type="article", raw_fields=raw)
    parse_both(export([paper], ascii_only=ascii_only), 1)


@given(note=hostile_text)
def test_any_note_comes_back_as_written(note):
    fields, _ = parse_both(export([make_paper(note=note)]), 1)
    written = next(iter(fields.values())).get("annote", "")
    expected = re.sub(
        r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", "", note.replace("\r\n", "\n").replace("\r", "\n")
    )
    assert unescape_plain(written) == __import__("unicodedata").normalize("NFC", expected).strip()


# --- real data ---------------------------------------------------------------------


def corpus_papers(corpus_file) -> list[Paper]:
    papers = []
    with open(corpus_file, encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            item = json.loads(line)
            papers.append(
                make_paper(
                    id=number,
                    title=item["title"],
                    authors=tuple(item["authors"]),
                    venue=item["venue"],
                    year=item["year"],
                    abstract=item["abstract"] or "",
                    ids=Identifiers(url=item.get("url"), openreview=item.get("openreview_id")),
                )
            )
    return papers


def test_seed_lists_parse_with_both_parsers(seed_files):
    papers = []
    for path in seed_files:
        for record in read_seedlist(path.read_text(encoding="utf-8"), str(path)).records:
            papers.append(
                make_paper(
                    id=len(papers) + 1,
                    title=record.title,
                    title_is_derived=True,
                    authors=(),
                    venue=record.venue,
                    year=record.year,
                    abstract=record.abstract,
                )
            )
    assert papers
    fields, _ = parse_both(export(papers), len(papers))
    assert fields["anon2025sgsi"]["title"] == "{SGSI}: Soft-Gated Structural Inference"
    assert {entry["@"] for entry in fields.values()} == {"inproceedings"}


def test_corpus_parses_with_both_parsers(corpus_file):
    papers = corpus_papers(corpus_file)
    assert len(papers) == lines_of(corpus_file)
    fields, _ = parse_both(export(papers), len(papers))
    assert len(fields) == len(papers)  # unique keys
    titles = [entry["title"] for entry in fields.values()]
    assert sum("{" in title for title in titles) > 0.07 * len(titles)  # acronyms protected


def test_corpus_as_ascii_parses_with_both_parsers(corpus_file):
    papers = corpus_papers(corpus_file)[::4]  # every venue, a quarter of the time
    text = export(papers, ascii_only=True)
    assert text.isascii()
    parse_both(text, len(papers))


def test_corpus_with_edited_user_data_round_trips_the_user_data(corpus_file):
    tags = ("to read", "rl/offline")
    papers = [
        replace(p, tags=tags, rating=4, status=Status.READ, note=HOSTILE_NOTES[p.id % 10])
        for p in corpus_papers(corpus_file)[:500]
    ]
    fields, _ = parse_both(export(papers), len(papers))
    for paper, entry in zip(papers, fields.values(), strict=True):
        assert entry["keywords"] == "to read, rl/offline"
        assert entry["x-paperdesk-status"] == "read"
        assert unescape_plain(entry["annote"]) == paper.note

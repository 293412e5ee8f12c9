"""Papers written as BibTeX, RIS, CSV and JSON and read back give the same fields.

Random papers (hypothesis) go through each writer and the matching reader. Each
format is compared on what it can carry, and every normalisation is named where it
is applied:

- JSON carries everything exactly: title, authors (any name, commas and all), venue,
  year, abstract, DOI, arXiv, OpenReview id, URL. Readers strip a value's outer blanks.
- RIS writes every value on one line (a line break could fake a tag), so an abstract's
  line breaks come back as spaces; rispy splits URLs at `;`, so the writer sends `;` as
  `%3B`; `,` separates `Last, First`, so names hold no comma. No other loss.
- CSV (csv_writer) writes titles, venues and names escaped where they would read as
  markup, as JSON does; authors are joined by `; `, so names hold no `;` or `,`, and a
  sole author no ` and `/`&` (the reader splits those). A cell a spreadsheet would run
  as a formula (`-1 is enough`, an OpenReview id `-BJk5...`) gets csv_writer's leading
  `'`, which csv_reader drops again.
- BibTeX (bibtex_writer) writes the title and abstract as LaTeX-ish web text and
  Unicode in NFC, so a title must read as itself, abstracts are compared as a reader
  sees them (paperdesk.text.to_plain), well-formed (balanced braces, `$` pairs: a stray
  brace or `$` is written as a literal character, which to_plain would have dropped),
  and everything in NFC; names read as themselves and hold no `,`, `;` or braces, nor
  a word starting with a LaTeX special (`&`, `_`...: bibtexparser splits those
  wrongly); the venue comes back as stored, a known one from `booktitle` or `journal`,
  any other from `howpublished`. Both flavours: `bibtex` (ASCII, the reader decodes its
  accent and math commands) and `biblatex` (UTF-8).

Examples stay few (`max_examples`) so the suite stays fast.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.models import Identifiers, Paper, PaperRecord
from paperdesk.core.text import collapse_whitespace
from paperdesk.formats.base import ReadResult
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_writer import write_bibtex
from paperdesk.formats.csv_reader import read_csv
from paperdesk.formats.csv_writer import write_csv
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.json_writer import write_json_records
from paperdesk.formats.ris_reader import read_ris
from paperdesk.formats.ris_writer import write_ris
from paperdesk.text import to_plain
from tests.factories import make_paper

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- strategies ----------------------------------------------------------------------

# Words in any script (letters, digits, marks: `é` may come decomposed).
_WORD = st.text(st.characters(categories=("L", "M", "N")), min_size=1, max_size=10)
_PROSE_MARKS = list(" ,;:.!?()[]/'\"-%&#@+=") + [" and ", " — ", "’", "…"]
_MARKUP = [
    # math set off by blanks, as prose has it (`$x$5` is money to the BibTeX writer)
    " $x^2$ ",
    " $\\alpha_i \\le 1$ ",
    " $O(d \\log n)$ ",
    "\\emph{new}",
    "\\textbf{bold face}",
    "**strong**",
    "*e.g.*",
    "50\\%",
    "A \\& B",
    "``quoted''",
    "--",
    "<em>em</em>",
    "{BERT}",
    "\n",
    "\n\n",
]
# What a raw abstract may hold beyond that: broken markup of every kind.
_HOSTILE = list("{}$\\~_*<>^`\t\r") + ["&amp;", "\\", "$5 and $10", "\\unknown{", "}}"]


def _joined(pieces: st.SearchStrategy[str], max_size: int = 30) -> st.SearchStrategy[str]:
    return st.lists(pieces, min_size=1, max_size=max_size).map("".join)


_WELL_FORMED = _joined(st.one_of(_WORD, st.sampled_from(_PROSE_MARKS + _MARKUP)))
_ANY_TEXT = _joined(st.one_of(_WORD, st.sampled_from(_PROSE_MARKS + _MARKUP + _HOSTILE)))

# A title as the library holds it: display text, one line, not empty. Any text can be
# one (a user may rename a paper), so the strategy is not limited to reader output;
# control characters are not text (the BibTeX writer drops them).
_PRINTABLE = st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=60)
display_titles = (_ANY_TEXT | _PRINTABLE).map(collapse_whitespace).filter(bool)
# Display text that to_plain reads as itself: what a format that re-reads its titles as
# markup can carry.
readable_titles = display_titles.filter(lambda text: to_plain(text) == text)


def names(forbidden: str = "", readable: bool = False) -> st.SearchStrategy[str]:
    """Display names ("First von Last") hostile to `Last, First` splitting.

    `readable` names read as themselves (see `readable_titles`).
    """
    pieces = st.one_of(
        _WORD,
        st.sampled_from(
            [" ", " ", "-", ".", "'", " van ", " de la ", " von ", " and ", " & ", ", ", "; "]
            + [" Jr.", "(", ")", "{", "}", "~", "\\"]
        ),
    )
    return (
        _joined(pieces, max_size=8)
        .map(lambda name: collapse_whitespace("".join(c for c in name if c not in forbidden)))
        .filter(lambda name: name and (not readable or to_plain(name) == name))
    )


years = st.none() | st.integers(1900, 2100)
dois = st.builds(
    lambda registrant, suffix: f"10.{registrant}/{suffix}",
    st.integers(1000, 999_999_999),
    st.text("abcdefghijklmnopqrstuvwxyz0123456789-._;()/<>", min_size=1, max_size=20).filter(
        lambda suffix: suffix[-1] not in ".,;:)]}>\"'"
    ),
)
arxiv_ids = st.from_regex(r"\A(?:2[0-9]{3}\.[0-9]{5}|(?:hep-th|math\.co|cs)/9[0-9]{6})\Z")
openreview_ids = st.from_regex(r"\A[A-Za-z0-9_\-]{5,12}\Z")
urls = st.builds(
    lambda host, path: f"https://{host}.org/{path}",
    st.from_regex(r"\A[a-z0-9]{1,10}\Z"),
    st.text("abcdefghijklmnopqrstuvwxyzABC0123456789-._~/?=&:@+!*,;", max_size=30),
)
identifiers = st.builds(
    Identifiers,
    doi=st.none() | dois,
    arxiv=st.none() | arxiv_ids,
    openreview=st.none() | openreview_ids,
    url=st.none() | urls,
)


def papers(
    titles: st.SearchStrategy[str],
    authors: st.SearchStrategy[str],
    venues: st.SearchStrategy[str | None],
    abstracts: st.SearchStrategy[str] = _ANY_TEXT,
) -> st.SearchStrategy[list[Paper]]:
    paper = st.builds(
        make_paper,
        title=titles,
        authors=st.lists(authors, max_size=4).map(tuple),
        venue=venues,
        year=years,
        abstract=abstracts,
        ids=identifiers,
    )
    return st.lists(paper, min_size=1, max_size=3)


# --- helpers -------------------------------------------------------------------------


def round_trip(
    papers: list[Paper],
    write: Callable[[list[Paper], io.StringIO], int],
    read: Callable[[str, str], ReadResult],
) -> tuple[PaperRecord, ...]:
    stream = io.StringIO(newline="")
    assert write(papers, stream) == len(papers)
    result = read(stream.getvalue(), "exported")
    assert result.problems == ()
    assert len(result.records) == len(papers)
    return result.records


def fields(paper: Paper | PaperRecord) -> dict[str, object]:
    return {
        "title": paper.title,
        "authors": paper.authors,
        "venue": paper.venue,
        "year": paper.year,
        "abstract": paper.abstract,
        "ids": paper.ids,
    }


def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


# --- JSON ----------------------------------------------------------------------------


@SETTINGS
@given(papers=papers(display_titles, names(), st.none() | display_titles), lines=st.booleans())
def test_json_carries_every_field(papers: list[Paper], lines: bool) -> None:
    def write(papers, stream):
        return write_json_records(papers, stream, lines=lines)

    records = round_trip(papers, write, read_json)
    expected = [fields(replace(p, abstract=p.abstract.strip())) for p in papers]
    assert [fields(r) for r in records] == expected


# --- RIS -----------------------------------------------------------------------------


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


@SETTINGS
@given(papers=papers(display_titles, names(forbidden=","), st.none() | display_titles))
def test_ris_carries_every_field_on_one_line(papers: list[Paper]) -> None:
    records = round_trip(papers, write_ris, read_ris)
    expected = []
    for p in papers:
        url = p.ids.url.replace(";", "%3B") if p.ids.url else None
        expected.append(
            fields(replace(p, abstract=_one_line(p.abstract), ids=replace(p.ids, url=url)))
        )
    assert [fields(r) for r in records] == expected


# --- CSV -----------------------------------------------------------------------------


def _csv_can_carry(paper: Paper) -> bool:
    """No name the reader would split."""
    authors = paper.authors
    return not (len(authors) == 1 and (" and " in authors[0] or "&" in authors[0]))


@SETTINGS
@given(
    papers=papers(
        titles=display_titles,
        authors=names(forbidden=",;"),
        venues=st.none() | display_titles,
    ).filter(lambda papers: all(_csv_can_carry(p) for p in papers))
)
def test_csv_carries_the_table_columns(papers: list[Paper]) -> None:
    records = round_trip(papers, write_csv, read_csv)
    expected = [fields(replace(p, abstract=p.abstract.strip())) for p in papers]
    assert [fields(r) for r in records] == expected


def test_csv_neutralised_cells_read_back_as_written() -> None:
    paper = make_paper(
        title="-1 is enough",
        abstract="=SUM(A1:A3) is not run",
        note="'=already quoted",
        ids=Identifiers(openreview="-BJk5xJ2BC"),
    )
    (record,) = round_trip([paper], write_csv, read_csv)
    assert (record.title, record.abstract, record.ids) == (paper.title, paper.abstract, paper.ids)
    assert record.user.note == paper.note


# --- BibTeX --------------------------------------------------------------------------

# bibtexparser's name splitter drops (or stops splitting at) a name that starts with an
# escaped special: `A and \\&B` gives "A", "B". A name's last word is written first.
_LATEX_SPECIALS = tuple("&%#_$~^")
known_venues = st.sampled_from(["ICML", "NeurIPS", "ICLR 2025", "AISTATS", "JMLR", "TMLR"])


@SETTINGS
@given(
    papers=papers(
        titles=readable_titles,
        authors=names(forbidden=",;{}\\", readable=True).filter(
            lambda name: not any(word.startswith(_LATEX_SPECIALS) for word in name.split())
        ),
        venues=st.none() | known_venues | readable_titles,
        abstracts=_WELL_FORMED,
    ),
    flavour=st.sampled_from(["bibtex", "biblatex"]),
)
def test_bibtex_carries_what_a_reader_sees(papers: list[Paper], flavour: str) -> None:
    def write(papers, stream):
        return write_bibtex(papers, stream, flavour)

    records = round_trip(papers, write, read_bibtex)
    read_back = [
        fields(r) | {"abstract": nfc(to_plain(r.abstract)), "authors": r.authors} for r in records
    ]
    expected = [
        fields(p)
        | {
            "title": nfc(p.title),
            "authors": tuple(nfc(name) for name in p.authors),
            "venue": nfc(p.venue) if p.venue else None,
            "abstract": nfc(to_plain(p.abstract)),
        }
        for p in papers
    ]
    assert read_back == expected

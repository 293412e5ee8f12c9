"""BibTeX that LaTeX accepts (issue 9, "Exports that break LaTeX") and that cannot make
a LaTeX run touch the file system (issue 13, item 6): the two flavours, month macros,
accent macros, keys, venues, and file and shell commands in every field."""

from __future__ import annotations

import io
import re

import bibtexparser
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Identifiers, Paper
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_writer import write_bibtex
from tests.factories import as_papers, make_paper


def export(papers: list[Paper], flavour: str = "bibtex") -> str:
    stream = io.StringIO()
    write_bibtex(papers, stream, flavour)
    return stream.getvalue()


def fields_of(text: str) -> dict[str, str]:
    (entry,) = bibtexparser.parse_string(text).entries
    return {field.key: field.value for field in entry.fields}


def test_the_default_flavour_is_ascii_with_math_as_math() -> None:
    paper = make_paper(
        title="ℓₚ Regression with α-Stable Noise",
        abstract="We get O(√T) regret for ℓ₂ and ∞ horizons, and O(\\sqrt{T}) in LaTeX.",
        authors=("Jaroslav Nešetřil",),
    )
    text = export([paper])
    assert text.isascii()
    fields = fields_of(text)
    assert fields["title"] == "{$\\ell_p$} Regression with {$\\alpha$}-Stable Noise"
    assert fields["abstract"] == (
        "We get O({$\\surd$}T) regret for {$\\ell_2$} and {$\\infty$} horizons, "
        "and O(\\sqrt{T}) in LaTeX."
    )
    assert "√()" not in str(read_bibtex(text, "x").records)
    assert "Ne{\\v{s}}et{\\v{r}}il" in fields["author"]


def test_biblatex_is_utf8() -> None:
    paper = make_paper(title="ℓₚ Regression", authors=("Jaroslav Nešetřil",))
    fields = fields_of(export([paper], "biblatex"))
    assert fields["title"] == "ℓₚ Regression"
    assert fields["author"] == "Nešetřil, Jaroslav"


def test_an_unknown_flavour_is_refused() -> None:
    with pytest.raises(InvalidValueError, match="bibtex, biblatex"):
        export([make_paper()], "bibtex8")


IMPORTED = r"""@article{Welland:TB1-1-2,
  author = {{\"O}{\"o}{\c{c}}, Ay{\c{s}}e},
  title = {{\"O}{\"o}{\c{c}} and \'{E}cole},
  journal = {TUGboat},
  month = oct,
  year = {1980},
}
@misc{anonymous, title = {An Entry Without Authors}, year = 1981, month = {March}}
"""


@pytest.mark.parametrize("flavour", ["bibtex", "biblatex"])
def test_an_imported_entry_goes_out_as_it_came_in(flavour: str) -> None:
    text = export(as_papers(list(read_bibtex(IMPORTED, "tugboat.bib").records)), flavour)
    # the stored key, unchanged; single-letter accent macros; the month macro, bare
    assert "@article{Welland:TB1-1-2," in text
    assert 'title = {{\\"O}{\\"o}{\\c{c}} and \\\'{E}cole},' in text
    assert "textbackslash" not in text
    assert "  month = oct,\n" in text and "  month = mar,\n" in text
    # an entry without authors gets a key field for natbib styles to sort and label by
    misc = bibtexparser.parse_string(text).entries[1]
    assert misc["key"] == "An Entry Without Authors"
    # the venue as stored, read back as the same venue
    (article, _) = read_bibtex(text, "again.bib").records
    assert (article.venue, article.citation_key) == ("TUGboat", "Welland:TB1-1-2")


@pytest.mark.parametrize("venue", ["ICML", "NeurIPS", "JMLR", "ICML Workshop on Graphs", "MIT"])
def test_the_venue_written_is_the_venue_stored_and_read_back(venue: str) -> None:
    paper = make_paper(venue=venue)
    (record,) = read_bibtex(export([paper]), "x").records
    assert record.venue == venue


# --- file and shell commands ---------------------------------------------------------

DANGEROUS = ["input", "include", "write18", "openout", "read", "csname", "catcode", "immediate"]
_LIVE_COMMAND = re.compile(
    r"(?<!\\)(?:\\\\)*\\(input|include|write|openout|read|csname|catcode|immediate|openin)"
    r"(?![A-Za-z])"
)


def live_commands(text: str) -> list[str]:
    """The dangerous commands LaTeX would run: not after `\\textbackslash{}`."""
    text = text.replace("\\textbackslash{}", "").replace("\\backslash{}", "")
    return _LIVE_COMMAND.findall(text)


def hostile_paper(payload: str) -> Paper:
    raw = (("note", payload), ("title", payload), ("publisher", payload), ("author", "A B"))
    return make_paper(
        title=payload,
        authors=("A B",),
        abstract=f"{payload} and ${payload}$ and \\({payload}\\)",
        note=payload,
        tags=("x",),
        venue=payload,
        entry_type="article",
        raw_fields=raw,
        ids=Identifiers(url=f"http://x.org/{payload}", doi=f"10.1/{payload}"),
    )


@pytest.mark.parametrize("flavour", ["bibtex", "biblatex"])
@pytest.mark.parametrize(
    "payload",
    [
        "\\input{/etc/hostname}",
        "\\include{secret}",
        "\\immediate\\write18{rm -rf ~}",
        "\\openout\\x=pwned \\read16 to \\y",
        "\\csname input\\endcsname{/etc/passwd}",
        "^^5cinput{/etc/passwd}",
    ],
)
def test_file_and_shell_commands_are_written_as_text_in_every_field(
    payload: str, flavour: str
) -> None:
    text = export([hostile_paper(payload)], flavour)
    assert live_commands(text) == []
    assert "^^" not in text
    bibtexparser.parse_string(text)  # still a file bibtexparser reads


@settings(max_examples=80, deadline=None)
@given(
    payload=st.lists(
        st.sampled_from([f"\\{name}" for name in DANGEROUS] + ["{", "}", "$", "\\", "^", " x"]),
        max_size=8,
    ).map("".join),
    flavour=st.sampled_from(["bibtex", "biblatex"]),
)
# pylatexenc warns of a command without its argument (`\input` at the end): on purpose
@pytest.mark.logs_warnings
def test_no_arrangement_of_commands_survives(payload: str, flavour: str) -> None:
    assert live_commands(export([hostile_paper(payload)], flavour)) == []


def test_only_web_links_are_written_as_links() -> None:
    unsafe = [
        make_paper(id=n, ids=Identifiers(url=u))
        for n, u in enumerate(
            ["file:///bin/sh", "javascript:alert(1)", "https://ok.example/a"], start=1
        )
    ]
    entries = bibtexparser.parse_string(export(unsafe)).entries
    assert [e.get("url") and e["url"] for e in entries] == [None, None, "https://ok.example/a"]

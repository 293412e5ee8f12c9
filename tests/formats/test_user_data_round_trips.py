"""The user's data goes out in every interchange format and comes back (issue 9: "User
data does not come back"): tags (hierarchical, coloured), note, rating, status,
shortlists, the derived-title flag and the citation key, file -> records -> file.

What a format cannot carry is named where the strategies leave it out:
- CSV joins tag and shortlist names with `; `, BibTeX shortlist names, so the names
  generated hold no `;` (RIS writes one line per name, JSON a list). Tag names never
  hold a comma (the store refuses them).
- BibTeX writes text in NFC without control characters (core of any LaTeX file).
- A note comes back without blanks at its very start and end.
"""

from __future__ import annotations

import io
import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.models import Paper, PaperRecord, Status, UserData
from paperdesk.formats.base import ReadResult
from paperdesk.formats.bibtex_reader import read_bibtex
from paperdesk.formats.bibtex_writer import write_bibtex
from paperdesk.formats.csv_reader import read_csv
from paperdesk.formats.csv_writer import write_csv
from paperdesk.formats.json_reader import read_json
from paperdesk.formats.json_writer import write_json_records
from paperdesk.formats.ris_reader import read_ris
from paperdesk.formats.ris_writer import write_ris
from tests.factories import make_paper

Colours = tuple[tuple[str, str], ...]
Writer = Callable[[list[Paper], io.StringIO, Colours], int]

WRITERS: dict[str, Writer] = {
    "bibtex": lambda papers, stream, colours: write_bibtex(
        papers, stream, "bibtex", tag_colours=colours
    ),
    "biblatex": lambda papers, stream, colours: write_bibtex(
        papers, stream, "biblatex", tag_colours=colours
    ),
    "ris": lambda papers, stream, colours: write_ris(papers, stream, colours),
    "csv": lambda papers, stream, colours: write_csv(papers, stream, tag_colours=colours),
    "jsonl": lambda papers, stream, colours: write_json_records(
        papers, stream, lines=True, tag_colours=colours
    ),
}
READERS: dict[str, Callable[[str, str], ReadResult]] = {
    "bibtex": read_bibtex,
    "biblatex": read_bibtex,
    "ris": read_ris,
    "csv": read_csv,
    "jsonl": read_json,
}
FORMATS = list(WRITERS)


def round_trip(papers: list[Paper], format: str, colours: Colours = ()) -> ReadResult:
    stream = io.StringIO(newline="")
    assert WRITERS[format](papers, stream, colours) == len(papers)
    result = READERS[format](stream.getvalue(), f"exported.{format}")
    assert result.problems == ()
    assert result.warnings == ()
    assert len(result.records) == len(papers)
    return result


def expected_user(paper: Paper, colours: Colours, format: str) -> UserData:
    table = dict(colours)

    def written(text: str) -> str:
        # BibTeX text is NFC: a compatibility ideograph (U+2F800) comes back as U+4E3D.
        return unicodedata.normalize("NFC", text) if format in ("bibtex", "biblatex") else text

    return UserData(
        tags=tuple(written(tag) for tag in paper.tags),
        tag_colours=tuple((written(tag), table[tag]) for tag in paper.tags if tag in table),
        note=written(paper.note).strip(),
        rating=paper.rating or None,
        status=paper.status,
        shortlists=tuple(written(name) for name in paper.shortlists),
    )


def carried(record: PaperRecord) -> tuple[UserData, bool, str | None]:
    return record.user, record.title_is_derived, record.citation_key


COLOURS: Colours = (("method/rl", "#ff8800"), ("to cite", "#3366ff"))
LIBRARY = [
    make_paper(
        id=1,
        title="SGSI: Soft-Gated Structural Inference",
        title_is_derived=True,
        authors=(),
        tags=("method/rl", "method/rl/offline", "to cite"),
        shortlists=("Reading group", "Thesis, chapter 2"),
        note=(
            "Read **twice**.\n\n- check $O(\\sqrt{T})$\n  - and 50% of the proofs\n"
            "@misc{not, an entry}"
        ),
        rating=5,
        status=Status.TO_READ,
        citation_key="Welland:TB1-1-2",
    ),
    make_paper(
        id=2,
        title="Nešetřil and Rocktäschel on α-Divergences",
        authors=("Jaroslav Nešetřil", "Tim Rocktäschel"),
        venue="JMLR",
        tags=("théorie",),
        note="中文笔记：很好的论文。 ℓ₂ and ∞ and \\input{/etc/hostname}",
        rating=0,
        status=Status.DISCARDED,
        citation_key="nesetril2024alpha",
    ),
    make_paper(id=3, title="No user data", citation_key="plain2025paper"),
]


@pytest.mark.parametrize("format", FORMATS)
def test_a_library_s_user_data_comes_back_from_every_format(format: str) -> None:
    result = round_trip(LIBRARY, format, COLOURS)
    for paper, record in zip(LIBRARY, result.records, strict=True):
        expected = expected_user(paper, COLOURS, format)
        assert carried(record) == (expected, paper.title_is_derived, paper.citation_key)
        assert record.title == paper.title


@pytest.mark.parametrize("format", FORMATS)
def test_a_status_or_rating_that_makes_no_sense_is_a_warning_not_a_lost_paper(
    format: str,
) -> None:
    texts = {
        "bibtex": "@misc{k, title = {T}, x-paperdesk-status = {perhaps}, "
        "x-paperdesk-rating = {7}}\n",
        "ris": "TY  - GEN\nTI  - T\nC8  - paperdesk-status: perhaps\n"
        "C8  - paperdesk-rating: 7\nER  - \n",
        "csv": "title,status,rating\nT,perhaps,7\n",
        "jsonl": '{"title": "T", "status": "perhaps", "rating": 7}\n',
    }
    text = texts["bibtex" if format == "biblatex" else format]
    result = READERS[format](text, "odd")
    (record,) = result.records
    assert (record.user.status, record.user.rating) == (None, None)
    reasons = " ".join(w.reason for w in result.warnings)
    assert "'7' is not a whole number from 0 to 5" in reasons
    # paper lists use `status` for the venue's decision: not worth a warning there
    if format in ("bibtex", "biblatex", "ris"):
        assert "unknown status 'perhaps'" in reasons


def test_other_tools_keywords_and_annotations_become_tags_and_notes() -> None:
    text = "@article{zotero, title = {T}, keywords = {graphs; rl}, annote = {Read {\\em this}}}\n"
    (record,) = read_bibtex(text, "zotero.bib").records
    assert record.user.tags == ("graphs", "rl")
    assert record.user.note == "Read this"
    assert record.user.status is None  # says nothing: a stored status is not reset


def test_names_the_library_would_refuse_are_left_out_with_a_warning() -> None:
    text = "TY  - GEN\nTI  - T\nKW  - a//b\nKW  - ok, fine\nC8  - paperdesk-shortlist: /x\nER  - \n"
    result = read_ris(text, "odd.ris")
    (record,) = result.records
    assert (record.user.tags, record.user.shortlists) == (("ok", "fine"), ())
    assert len(result.warnings) == 2
    assert all("left out" in w.reason and w.line == 1 for w in result.warnings)


def test_a_tag_holding_a_semicolon_comes_back_whole_from_our_bibtex() -> None:
    (record,) = round_trip([make_paper(tags=("a;b",))], "bibtex").records
    assert record.user.tags == ("a;b",)


# --- property test -------------------------------------------------------------------

_NAME_CHARACTERS = st.characters(
    categories=("L", "N", "Zs", "P", "S"), exclude_characters=",;/\u2028\u2029\x85"
)
names = (
    st.text(_NAME_CHARACTERS, min_size=1, max_size=12)
    .map(lambda name: " ".join(name.split()))
    .filter(bool)
)
tag_names = st.lists(names, min_size=1, max_size=3).map("/".join)
notes = st.text(
    st.characters(exclude_categories=("Cs", "Cc")) | st.sampled_from(list("\n\t{}$\\%&#_^~@*")),
    max_size=80,
)
keys = st.from_regex(r"\A[A-Za-z][A-Za-z0-9_:.+/-]{0,20}\Z")


@st.composite
def libraries(draw: st.DrawFn) -> tuple[list[Paper], Colours]:
    tags = draw(st.lists(tag_names, max_size=4, unique_by=str.casefold))
    shortlists = draw(st.lists(names, max_size=3, unique_by=str.casefold))
    colours = tuple(
        (tag, draw(st.from_regex(r"\A#[0-9a-f]{6}\Z"))) for tag in tags if draw(st.booleans())
    )
    count = draw(st.integers(1, 4))
    papers = [
        make_paper(
            id=number,
            title=f"Paper {number}",
            tags=tuple(draw(st.lists(st.sampled_from(tags), unique=True)) if tags else ()),
            shortlists=tuple(
                draw(st.lists(st.sampled_from(shortlists), unique=True)) if shortlists else ()
            ),
            note=draw(notes),
            rating=draw(st.integers(0, 5)),
            status=draw(st.sampled_from(Status)),
            title_is_derived=draw(st.booleans()),
            citation_key=key,
        )
        for number, key in enumerate(
            draw(st.lists(keys, min_size=count, max_size=count, unique_by=str.casefold)),
            start=1,
        )
    ]
    return papers, colours


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(library=libraries(), format=st.sampled_from(FORMATS))
def test_any_library_s_user_data_comes_back(
    library: tuple[list[Paper], Colours], format: str
) -> None:
    papers, colours = library
    result = round_trip(papers, format, colours)
    for paper, record in zip(papers, result.records, strict=True):
        expected = expected_user(paper, colours, format)
        assert carried(record) == (expected, paper.title_is_derived, paper.citation_key)


@pytest.mark.parametrize("format", ["bibtex", "biblatex"])
def test_a_tag_comes_back_from_bibtex_in_nfc(format: str) -> None:
    # Hypothesis found it: U+2F800, a CJK compatibility ideograph, is U+4E3D in NFC.
    paper = make_paper(title="Paper 1", tags=("\U0002f800",), shortlists=("\uf900",))
    (record,) = round_trip([paper], format).records
    assert record.user.tags == ("\u4e3d",) and record.user.shortlists == ("\u8c48",)

"""Export a library, import it into an empty one, get the same papers and user data
(issue 9, "What must hold" 4): tags (hierarchical, coloured), ratings, statuses,
notes, shortlists, derived titles and citation keys, through BibTeX (both flavours),
RIS, CSV and JSON Lines. Undoing that import takes all of it away again."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.models import Paper, Status
from paperdesk.core.scope import Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    editing,
    exporting,
    history,
    importing,
    notes,
    reading,
    searching,
    shortlists,
    tagging,
)
from paperdesk.text import to_plain

FORMATS = [("bibtex", "bibtex", ".bib"), ("biblatex", "bibtex", ".bib"), ("ris", "ris", ".ris")]
FORMATS += [("csv", "csv", ".csv"), ("jsonl", "jsonl", ".jsonl")]

NOTES = [
    "Read **twice**.\n\n- the proof of Lemma 2\n  - and its $O(\\sqrt{T})$ bound",
    "中文笔记：很好的论文。 50% sure; see \\input{x} & {braces}",
    "@misc{not, an entry}\nTY  - not a record",
]


def user_library(desk: Desk) -> list[int]:
    """The seed library with every kind of user data on some of its papers."""
    ids = [p.id for batch in desk._library.papers.iter_all() for p in batch][:12]
    tagging.create_tag(desk, "method/rl", "#ff8800")
    tagging.add_tags(desk, ids[:6], ["method/rl", "method/rl/offline"])
    tagging.add_tags(desk, ids[4:9], ["to cite"])
    tagging.set_tag_colour(desk, "to cite", "#3366ff")
    for paper_id, rating in zip(ids, [5, 4, 3, 0, 1, 2], strict=False):
        editing.set_rating(desk, [paper_id], rating)
    editing.set_status(desk, ids[:3], Status.READ)
    editing.set_status(desk, ids[3:5], Status.DISCARDED)
    for paper_id, note in zip(ids[2:], NOTES, strict=False):
        notes.set_note(desk, paper_id, note)
    shortlists.create(desk, "Reading group", ids[:4])
    shortlists.create(desk, "Thesis, chapter 2", ids[3:7])
    editing.set_title(desk, ids[7], "A Real Title Given by Hand")
    return ids


def user_data_of(paper: Paper, colours: dict[str, str | None]) -> dict[str, object]:
    return {
        "title": paper.title,
        "derived": paper.title_is_derived,
        "tags": sorted(paper.tags),
        "colours": sorted((tag, colours[tag]) for tag in paper.tags),
        "note": paper.note.strip(),
        "rating": paper.rating,
        "status": paper.status,
        "shortlists": sorted(paper.shortlists),
        # BibTeX writes an abstract as LaTeX (`50%` as `50\%`): it reads the same
        "abstract": to_plain(paper.abstract),
    }


def by_key(desk: Desk) -> dict[str | None, dict[str, object]]:
    """Each paper's user data under its citation key as an export writes it (a keyless
    paper's generated key: exports no longer store them in the library)."""
    colours = {tag.name: tag.colour for tag in tagging.list_tags(desk)}
    ids = [p.id for b in desk._library.papers.iter_all() for p in b]
    keys = {paper.id: paper.citation_key for paper in exporting.with_keys(desk, ids)}
    return {keys[paper.id]: user_data_of(paper, colours) for paper in reading.papers(desk, ids)}


def key_of(desk: Desk, paper_id: int) -> str | None:
    (paper,) = exporting.with_keys(desk, [paper_id])
    return paper.citation_key


@pytest.mark.parametrize(("name", "format", "extension"), FORMATS, ids=[f[0] for f in FORMATS])
def test_a_library_comes_back_whole_through_every_format(
    desk: Desk, tmp_path: Path, name: str, format: str, extension: str
) -> None:
    user_library(desk)
    target = tmp_path / f"library{extension}"
    options = exporting.Options(flavour=name if format == "bibtex" else "bibtex")
    exporting.export(desk, Scope(), target, format, options)
    expected = by_key(desk)

    with Desk.open(tmp_path / "empty") as empty:
        (report,) = importing.import_files(empty, [target]).files
        assert (report.error, report.read, report.added) == (None, 38, 38), report.details()
        assert report.warnings == []
        assert by_key(empty) == expected
        assert shortlists.list_shortlists(empty)[0].count == 4


def test_undoing_the_import_removes_the_tags_and_shortlists_it_made(
    desk: Desk, tmp_path: Path
) -> None:
    user_library(desk)
    target = tmp_path / "library.jsonl"
    exporting.export(desk, Scope(), target)
    with Desk.open(tmp_path / "empty") as empty:
        importing.import_files(empty, [target])
        assert len(tagging.list_tags(empty)) == 3
        history.undo(empty)
        assert reading.count(empty) == 0
        assert tagging.list_tags(empty) == []
        assert shortlists.list_shortlists(empty) == []
        history.redo(empty)
        assert by_key(empty) == by_key(desk)


def test_importing_into_a_library_that_has_the_papers_adds_what_they_lack(
    desk: Desk, tmp_path: Path
) -> None:
    ids = user_library(desk)
    target = tmp_path / "library.jsonl"
    exporting.export(desk, Scope(), target)
    before = by_key(desk)
    editing.set_rating(desk, [ids[0]], 1)  # a newer rating the file must not undo
    tagging.remove_tags(desk, [ids[1]], ["to cite", "method/rl"])
    (report,) = importing.import_files(desk, [target]).files
    assert report.added == 0
    after = by_key(desk)
    assert after[key_of(desk, ids[0])]["rating"] == 1
    assert after[key_of(desk, ids[1])] == before[key_of(desk, ids[1])]


def test_tags_an_import_gives_back_to_a_paper_are_searched(desk: Desk, tmp_path: Path) -> None:
    """An entry that changes nothing but the paper's tags: the paper is re-indexed."""
    ids = user_library(desk)
    first, settled = tmp_path / "first.jsonl", tmp_path / "settled.jsonl"
    exporting.export(desk, Scope(), first)
    importing.import_files(desk, [first])  # the papers take the file's raw fields
    exporting.export(desk, Scope(), settled)
    tags = ["method/rl", "method/rl/offline"]
    tagging.remove_tags(desk, [ids[1]], tags)
    assert ids[1] not in searching.find_ids(desk, "tag:method/rl/offline").ids
    (report,) = importing.import_files(desk, [settled]).files
    assert report.added == report.merged == 0
    assert reading.paper(desk, ids[1]).tags == tuple(tags)
    assert ids[1] in searching.find_ids(desk, "tag:method/rl/offline").ids


@pytest.mark.parametrize(("name", "format", "extension"), FORMATS, ids=[f[0] for f in FORMATS])
def test_a_whole_library_export_keeps_each_shortlists_order(
    desk: Desk, tmp_path: Path, name: str, format: str, extension: str
) -> None:
    """The papers of a whole-library export come in library order, not a shortlist's:
    each paper carries its place in each of its shortlists, and the import puts it
    back there (issue 24, item 8)."""
    ids = [p.id for batch in desk._library.papers.iter_all() for p in batch][:8]
    shortlists.create(desk, "Reading group", ids[:5])
    shortlists.reorder(desk, "Reading group", [ids[3], ids[0], ids[4], ids[2], ids[1]])
    shortlists.create(desk, "Thesis", [ids[7], ids[2], ids[5]])
    keys = {paper_id: key_of(desk, paper_id) for paper_id in ids}
    expected = {
        shortlist: [keys[i] for i in searching.shortlist_ids(desk, shortlist)]
        for shortlist in ("Reading group", "Thesis")
    }
    target = tmp_path / f"library{extension}"
    options = exporting.Options(flavour=name if format == "bibtex" else "bibtex")
    exporting.export(desk, Scope(), target, format, options)

    with Desk.open(tmp_path / "empty") as empty:
        importing.import_files(empty, [target])
        assert {
            shortlist: [key_of(empty, i) for i in searching.shortlist_ids(empty, shortlist)]
            for shortlist in expected
        } == expected

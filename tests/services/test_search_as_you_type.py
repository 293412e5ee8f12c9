"""Search as you type (issue 12.3): the word being typed finds the words it starts, and
a spelling suggestion is a word a reader knows, never an index stem."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperdesk.core.scope import Kind, Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing, notes, searching

PAPERS = {
    "diffusion": "Score-based diffusion models for image synthesis",
    "contrastive": "Contrastive learning of visual representations",
    "differential": "Differential privacy for graph statistics",
    "theory": "A theory of deep networks",
}
EVERYTHING = Scope(Kind.ALL)


@pytest.fixture
def desk(empty_desk: Desk, tmp_path: Path) -> Desk:
    source = tmp_path / "papers.jsonl"
    lines = [
        json.dumps({"title": title, "abstract": f"About {title}."}) for title in PAPERS.values()
    ]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    importing.import_files(empty_desk, [source])
    return empty_desk


def typed(desk: Desk, text: str, typing: bool = True) -> set[str]:
    ids = searching.listing(desk, EVERYTHING, text, typing=typing).ids
    titles = {desk._library.papers.get(i).title for i in ids}
    return {key for key, title in PAPERS.items() if title in titles}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("diffus", {"diffusion"}),  # the stem of diffusion is "diffus"; of diffus, "diffu"
        ("diffusi", {"diffusion"}),  # longer than the stem it is on the way to
        ("contrastiv", {"contrastive"}),
        ("Diff", {"diffusion", "differential"}),
        ("graph diffus", set()),  # every word must still match
        ("privacy differ", {"differential"}),
        ("title:contr", {"contrastive"}),
    ],
)
def test_the_word_being_typed_finds_the_words_it_starts(desk: Desk, text: str, found: set) -> None:
    assert typed(desk, text) == found


def test_a_finished_word_and_the_command_line_match_whole_words_only(desk: Desk) -> None:
    assert typed(desk, "diffusi", typing=False) == set()
    assert typed(desk, "diffusi ") == set()  # a space ends the word being typed
    assert typed(desk, "deep the") == {"theory"}  # a stop word on its way to a word


def test_an_emphasised_word_in_a_note_is_found_as_it_is_typed(desk: Desk) -> None:
    paper = searching.find_ids(desk, "privacy").ids[0]
    notes.set_note(desk, paper, "We beat **Mamba** and *Griffin*")
    assert typed(desk, "note:mamb") == {"differential"}
    assert typed(desk, "note:griffin", typing=False) == {"differential"}


def test_a_suggestion_is_a_word_not_an_index_stem(desk: Desk) -> None:
    missed = searching.find_ids(desk, "difusion")
    assert missed.ids == [] and missed.suggestion == "diffusion"  # not the stem "diffus"
    assert searching.find_ids(desk, "title:contrastiv").suggestion == "title:contrastive"

"""Editing every field by hand (issue 24, item 1): read and checked by the field table,
one undo step each, a citation key checked for clashes."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.fields import editable_field, raw_value
from paperdesk.core.models import Paper
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, history, searching

# field, what the user types, what the paper then shows in that field, and input refused
CASES = [
    ("title", "  Attention Is\nAll You Need ", "Attention Is All You Need", "   "),
    (
        "authors",
        "Vaswani, Ashish; Noam Shazeer\nParmar, Niki",
        "Ashish Vaswani; Noam Shazeer; Niki Parmar",
        None,
    ),
    ("venue", " NeurIPS ", "NeurIPS", None),
    ("year", "2017", "2017", "two thousand"),
    ("type", "@InProceedings", "inproceedings", "in proceedings"),
    ("doi", "https://doi.org/10.5555/3295222.3295349", "10.5555/3295222.3295349", "10.5555"),
    ("arxiv", "arXiv:1706.03762v7", "1706.03762", "17.06"),
    ("openreview", "https://openreview.net/forum?id=rJXMpikCZ", "rJXMpikCZ", "a b"),
    ("url", "https://papers.nips.cc/paper/7181", "https://papers.nips.cc/paper/7181", "ftp://x"),
    ("pages", "5998-6008", "5998--6008", "{5998}"),
    ("key", "vaswani2017attention", "vaswani2017attention", "vaswani 2017"),
]


def shown(paper: Paper, name: str) -> str:
    return editable_field(name).format(paper)


@pytest.mark.parametrize(("name", "typed", "expected", "refused"), CASES)
def test_each_field_is_set_refused_with_its_name_and_undone(
    desk: Desk, name: str, typed: str, expected: str, refused: str | None
) -> None:
    before = shown(desk._library.papers.get(3), name)
    changes = editing.edit_field(desk, 3, name, typed)
    assert changes.paper_ids == {3}
    assert shown(desk._library.papers.get(3), name) == expected
    if refused is not None:
        with pytest.raises(InvalidValueError, match=f"(?i){editable_field(name).label}"):
            editing.edit_field(desk, 3, name, refused)
        assert shown(desk._library.papers.get(3), name) == expected  # nothing half-written
    history.undo(desk)
    assert shown(desk._library.papers.get(3), name) == before


def test_an_edited_field_is_searchable_and_emptied_by_an_empty_value(desk: Desk) -> None:
    editing.edit_field(desk, 5, "authors", "Hochreiter, Sepp; Schmidhuber, Jürgen")
    editing.edit_field(desk, 5, "venue", "Neural Computation")
    editing.edit_field(desk, 5, "year", "1997")
    paper = desk._library.papers.get(5)
    assert paper.authors == ("Sepp Hochreiter", "Jürgen Schmidhuber")
    assert 5 in searching.find_ids(desk, "author:schmidhuber year:1997").ids
    editing.edit_field(desk, 5, "year", "")
    editing.edit_field(desk, 5, "pages", "1735--1780")
    editing.edit_field(desk, 5, "pages", "")
    paper = desk._library.papers.get(5)
    assert paper.year is None and raw_value(paper, "pages") == ""


def test_a_citation_key_another_paper_holds_is_refused_in_any_case(desk: Desk) -> None:
    editing.edit_field(desk, 4, "key", "smith2024graphs")
    with pytest.raises(InvalidValueError, match="already paper 4's"):
        editing.edit_field(desk, 6, "key", "Smith2024Graphs")
    assert desk._library.papers.get(6).citation_key != "Smith2024Graphs"
    editing.edit_field(desk, 4, "key", "smith2024graphs")  # its own key is no clash


def test_an_unknown_field_names_the_choices(desk: Desk) -> None:
    with pytest.raises(InvalidValueError, match="choose one of: title, authors"):
        editing.edit_field(desk, 3, "colour", "red")

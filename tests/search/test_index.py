"""The whoosh index: ranking, field filters, updates, staleness and rebuild."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.errors import Cancelled, QueryError
from paperdesk.search.index import FullTextIndex
from paperdesk.search.schema import IndexDocument
from paperdesk.search.segments import write_segment


def doc(paper_id: int, title: str, abstract: str = "", **fields: object) -> IndexDocument:
    values: dict[str, object] = {
        "authors": ("Yu Sun",),
        "note": "",
        "tags": (),
        "venue": "ICML",
        "year": 2025,
        "status": "new",
        "rating": 0,
        "shortlists": (),
    }
    values.update(fields)
    return IndexDocument(id=paper_id, title=title, abstract=abstract, **values)  # type: ignore[arg-type]


DOCS = [
    doc(
        1,
        "Learning to (Learn at Test Time)",
        "RNNs with expressive hidden states via test-time training of the hidden state.",
        tags=("ml/rnn",),
        rating=5,
        status="to-read",
    ),
    doc(
        2,
        "Scaling laws for inference",
        "Inference-aware scaling laws for training language models.",
        year=2024,
        authors=("Ann Müller",),
    ),
    doc(
        3,
        "Mamba",
        "Selective state space models for long context.",
        tags=("ml/ssm",),
        shortlists=("ICML reading group",),
        note="Compare with TTT",
    ),
    doc(
        4,
        "Decision trees on manifolds",
        "Random forests in product manifolds.",
        venue="AISTATS",
        year=2023,
        rating=3,
    ),
]


@pytest.fixture
def index(tmp_path: Path) -> FullTextIndex:
    idx = FullTextIndex(tmp_path / "index")
    idx.rebuild([DOCS], generation=7, total=len(DOCS))
    yield idx
    idx.close()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("test-time training", [1]),
        ('"hidden state"', [1]),
        ("tag:ml", [1, 3]),
        ("tag:ml/rnn", [1]),
        ("rating:>=4", [1]),
        ("rating:>=3", [1, 4]),
        ("year:2024..2025", [1, 2, 3]),
        ("year:2023", [4]),
        ("venue:aistats", [4]),
        ("status:to-read", [1]),
        ('in:"ICML reading group"', [3]),
        ("author:muller", [2]),
        ("note:ttt", [3]),
        ("manifold*", [4]),
        ("mambo~", [3]),
        ("scaling NOT inference", []),
        ("forests OR mamba", [3, 4]),
    ],
)
def test_queries_find_the_right_papers(
    index: FullTextIndex, query: str, expected: list[int]
) -> None:
    assert sorted(index.search(query).ids) == expected


def test_ranking_puts_the_best_match_first(index: FullTextIndex) -> None:
    assert index.search("state").ids == [1, 3]  # "hidden state(s)" twice beats once


def test_updates_and_deletes_take_effect(index: FullTextIndex) -> None:
    index.update(
        [doc(4, "Decision trees", "now about transformers")], deleted_ids=[3], generation=8
    )
    assert index.search("transformers").ids == [4]
    assert index.search("mamba").ids == []
    assert index.why_stale(8) is None
    assert index.why_stale(9) == "the index is older than the library"


def test_numeric_queries_without_hits_do_not_break_the_suggestion(index: FullTextIndex) -> None:
    assert index.search("year:1999").ids == []
    assert index.search("rating:>=5 forrests").ids == []


def test_did_you_mean_when_nothing_matches(index: FullTextIndex) -> None:
    hits = index.search("forrests")
    assert hits.ids == [] and hits.suggestion == "forest"


# whoosh itself leaves the handle of a damaged TOC file open; that is not ours to close.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.filterwarnings("ignore::ResourceWarning")
def test_missing_and_corrupt_indexes_are_stale(tmp_path: Path, index: FullTextIndex) -> None:
    assert index.why_stale(7) is None
    index.close()
    live = index.live_folder()
    assert live is not None
    for toc in live.glob("*.toc"):
        toc.write_bytes(b"garbage")
    assert "damaged" in (FullTextIndex(index.folder).why_stale(7) or "")
    fresh = FullTextIndex(tmp_path / "elsewhere")
    assert fresh.why_stale(0) == "the index is missing"


def test_a_cancelled_rebuild_leaves_the_index_as_it_was(tmp_path: Path) -> None:
    idx = FullTextIndex(tmp_path / "index")
    with pytest.raises(Cancelled):
        idx.rebuild([DOCS, DOCS], generation=1, total=8, cancelled=lambda: True)
    assert idx.why_stale(1) == "the index is missing"  # so it is built at the next open
    idx.rebuild([DOCS], generation=1, total=4)
    with pytest.raises(Cancelled):
        idx.rebuild([DOCS, DOCS], generation=2, total=8, cancelled=lambda: True)
    assert idx.why_stale(1) is None and idx.search("mamba").ids == [3]


def test_a_killed_rebuild_leaves_the_flag_so_it_is_redone(tmp_path: Path) -> None:
    idx = FullTextIndex(tmp_path / "index")
    idx.rebuild([DOCS], generation=1, total=4)

    def killed() -> bool:
        raise KeyboardInterrupt  # as a signal ends the program mid-build

    with pytest.raises(KeyboardInterrupt):
        idx.rebuild([DOCS, DOCS], generation=1, total=8, cancelled=killed)
    assert idx.why_stale(1) == "an earlier rebuild was interrupted"
    assert idx.search("mamba").ids == [3]  # the index that was there stays in use


def test_a_phrase_in_a_field_without_positions_is_found(index: FullTextIndex) -> None:
    assert index.search('title:"test time"').ids == [1]
    assert index.search('title:"time test"').ids == []  # the order still counts
    assert sorted(index.search('author:"yu sun"').ids) == [1, 3, 4]


def test_an_updated_paper_is_found_once_ranked_or_not(index: FullTextIndex) -> None:
    index.search("state")  # the searcher is open before the update
    index.update([doc(1, "Learning", "hidden state, state again")], [], generation=8)
    assert index.search("state").ids == [1, 3]
    assert sorted(index.search("state", ranked=False).ids) == [1, 3]
    assert sorted(index.indexed_ids()) == [1, 2, 3, 4]


def test_a_rebuild_is_swapped_in_and_the_old_generation_removed(
    tmp_path: Path, index: FullTextIndex
) -> None:
    other = FullTextIndex(index.folder)  # another program on the same library
    assert other.search("mamba").ids == [3]
    old = index.live_folder()
    index.rebuild([[doc(9, "Mamba two")]], generation=8, total=1)
    assert index.live_folder() != old and old is not None and not old.exists()
    assert [entry.name for entry in index.folder.iterdir() if entry.is_dir()] == [
        index.live_folder().name  # type: ignore[union-attr]
    ]
    assert index.search("mamba").ids == [9]
    assert other.search("mamba").ids == [9]  # it follows the swap at its next search
    assert index.why_stale(8) is None


def test_searches_during_a_rebuild_see_the_old_index(index: FullTextIndex) -> None:
    seen: list[list[int]] = []

    def build(folder: str, _list_now: object) -> list[object]:
        seen.append(index.search("mamba").ids)  # the new generation is being written
        return [write_segment(folder, [doc(9, "Mamba two")])]

    index.rebuild_with(build, generation=8)
    assert seen == [[3]] and index.search("mamba").ids == [9]


def test_a_zeroed_block_of_a_segment_is_found(index: FullTextIndex) -> None:
    assert index.damage() is None
    live = index.live_folder()
    assert live is not None
    (segment,) = live.glob("*.seg")
    data = bytearray(segment.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 64] = bytes(64)
    segment.write_bytes(bytes(data))
    assert index.damage() == f"the index file {segment.name} is damaged"


@pytest.mark.parametrize(
    "query",
    [
        "x" * 8000,
        " ".join(f"a{n}*" for n in range(500)),
        " ".join(f"w{n}*" for n in range(21)),
        "NOT NOT x",
        "<x>",
        "<<<",
        "> a",
        "(" * 5000 + "x" + ")" * 5000,
        "( " * 5000 + "x" + " )" * 5000,
        "year:99999999999",
    ],
)
def test_pathological_queries_are_refused_in_one_line(index: FullTextIndex, query: str) -> None:
    with pytest.raises(QueryError) as refused:
        index.search(query)
    assert "\n" not in str(refused.value) and len(str(refused.value)) < 200


def test_a_long_query_without_hits_gets_no_slow_suggestion(index: FullTextIndex) -> None:
    hits = index.search(" ".join(["forrests"] * 7))
    assert hits.ids == [] and hits.suggestion is None


def test_markdown_emphasis_in_a_note_is_searchable(tmp_path: Path) -> None:
    idx = FullTextIndex(tmp_path / "index")
    idx.rebuild([[doc(1, "A", note="**Mamba** beats *Griffin*")]], generation=1, total=1)
    assert idx.search("note:mamba").ids == [1]
    assert idx.search("note:griffin").ids == [1] and idx.search("griffin").ids == [1]
    missed = idx.search("note:griffn")
    assert missed.suggestion == "note:griffin"  # a word, never `note:*griffin*`
    idx.close()


def test_similar_papers_come_most_alike_first(tmp_path: Path) -> None:
    # More Like This's first answer (issue 25): papers sharing more of the text's
    # telling words come first, whatever their document order.
    words = ["quadrotor", "trajectory", "tracking", "adaptive", "control"]
    papers = [doc(n, f"paper {n}", "an unrelated study of protein folding") for n in range(1, 30)]
    papers += [doc(100 + k, f"paper {100 + k}", " ".join(words[:k])) for k in range(1, 6)]
    idx = FullTextIndex(tmp_path / "index")
    idx.rebuild([papers], generation=1, total=len(papers))
    try:
        found = idx.similar("Adaptive quadrotor trajectory tracking control", limit=5)
    finally:
        idx.close()
    assert found == [105, 104, 103, 102, 101]

"""List-wise matching gives whoosh's own hits, scores and order, on real abstracts.

The index holds the 607 papers of tests/data/corpus-sample.jsonl in two segments, with
documents replaced (so whoosh filters deleted ones out), as a library has after an
import and some edits. Each query is answered by whoosh's matchers and by
set_matching; the lists must be the same, first with the posting cache empty, then full.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from whoosh import index as windex
from whoosh import query as wq
from whoosh.codec.whoosh3 import W3LeafMatcher
from whoosh.searching import Searcher

from paperdesk.search import set_matching
from paperdesk.search.index import FullTextIndex
from paperdesk.search.live import LiveSearcher
from paperdesk.search.query import parse_query
from paperdesk.search.schema import IndexDocument
from paperdesk.search.segments import INDEX_NAME
from tests.conftest import CORPUS_SAMPLE

#: The first segment's papers; the rest go into a second one.
FIRST_SEGMENT = 400
#: Each kind of matcher set_matching evaluates: words, phrases (with slop, in a field),
#: OR, NOT, ANDMAYBE, boosts, keyword and status fields.
EVALUATED = [
    "graph neural networks",
    "test-time training",
    '"language models"',
    '"gradient descent" convergence',
    '"neural networks"~3',
    '"graph neural networks"',
    'title:"neural network"',
    "title:transformer",
    "(bandit OR bandits) AND regret NOT adversarial",
    "kernel OR graph",
    "deep AND NOT learning",
    "NOT learning",
    "learning ANDMAYBE deep",
    "title:(graph OR neural)^2 learning",
    "venue:icml optimization",
    "tag:ml",
    "status:to-read kernel",
    "author:bengio",
    "zzzunknownword",
    '"models language"',
    "bandit*",  # a prefix of a few words is an OR of their terms
    "year:2017..2018 rating:>=4",
    "kernel year:>=2018",
    "rating:[4 TO 5]",
    "graph*",  # a prefix of many words
]


def _document(number: int, record: dict[str, object]) -> IndexDocument:
    return IndexDocument(
        id=number,
        title=str(record["title"]),
        abstract=str(record.get("abstract") or ""),
        authors=tuple(record.get("authors") or ()),  # type: ignore[arg-type]
        note="check the proofs" if number % 25 == 0 else "",
        tags=("ml/rnn",) if number % 40 == 0 else (),
        venue=str(record.get("venue") or ""),
        year=int(record["year"]) if record.get("year") else None,  # type: ignore[call-overload]
        status="to-read" if number % 7 == 0 else "new",
        rating=4 if number % 11 == 0 else 0,
        shortlists=(),
    )


@pytest.fixture(scope="module")
def searcher(tmp_path_factory: pytest.TempPathFactory) -> Searcher:
    with CORPUS_SAMPLE.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    documents = [_document(number, record) for number, record in enumerate(records, start=1)]
    index = FullTextIndex(tmp_path_factory.mktemp("index"))
    index.rebuild([documents[:FIRST_SEGMENT]], generation=1, total=FIRST_SEGMENT)
    index.add(documents[FIRST_SEGMENT:], generation=2)
    # Replaced documents and deleted ones stay in their segment, hidden by whoosh.
    index.update([replace(d, rating=5) for d in documents[::9]], [3, 4], generation=3)
    index.close()
    live = index.live_folder()
    assert live is not None
    opened = windex.open_dir(live, indexname=INDEX_NAME).searcher()
    readers = [reader for reader, _offset in opened.reader().leaf_readers()]
    assert len(readers) >= 2 and any(r.has_deletions() for r in readers)
    return opened


def _whoosh_ranked(searcher: Searcher, text: str) -> list[int]:
    """whoosh's order, without deleted documents: its NOT matcher lets through a deleted
    last document of a segment (the old version of a replaced paper),
    which set_matching leaves out, as every other whoosh matcher does."""
    deleted = searcher.reader().is_deleted
    top = searcher.search(parse_query(text), limit=None).top_n
    return [docnum for _score, docnum in top if not deleted(docnum)]


@pytest.mark.parametrize("text", EVALUATED)
def test_set_matching_ranks_as_whoosh_does(searcher: Searcher, text: str) -> None:
    cache = set_matching.PostingCache()
    expected = _whoosh_ranked(searcher, text)
    query = parse_query(text)
    assert set_matching.ranked(searcher, query, cache) == expected  # decoding
    assert set_matching.ranked(searcher, query, cache) == expected  # from the cache
    deleted = searcher.reader().is_deleted
    unranked = [d for d in searcher.docs_for_query(parse_query(text)) if not deleted(d)]
    assert set_matching.unranked(searcher, query, cache) == unranked


def test_the_table_has_hits_to_compare(searcher: Searcher) -> None:
    """The comparisons above are not of empty lists: most queries find many papers,
    and the phrase is stricter than its words."""
    found = {text: len(_whoosh_ranked(searcher, text)) for text in EVALUATED}
    assert sum(count >= 20 for count in found.values()) >= 10
    assert 0 < found['"language models"'] < len(_whoosh_ranked(searcher, "language models"))


def test_a_matcher_it_does_not_know_is_left_to_whoosh(searcher: Searcher) -> None:
    """No query the parser makes needs it, but a matcher set_matching does not know
    (here whoosh's DisjunctionMax) falls back to whoosh's own walk, with its answer."""
    query = wq.DisjunctionMax([wq.Term("text", "graph"), wq.Term("text", "kernel")])
    with pytest.raises(set_matching.Unsupported):
        set_matching.ranked(searcher, query, set_matching.PostingCache())
    expected = [docnum for _score, docnum in searcher.search(query, limit=None).top_n]
    live = LiveSearcher(searcher._ix)
    assert live.matches(query, ranked=True) == expected and len(expected) > 20
    assert live.matches(query, ranked=False) == sorted(expected)
    live.close()


def test_ranges_rank_as_whoosh_ranks_them_when_whoosh_walks_the_query(
    searcher: Searcher,
) -> None:
    """A range's matcher also serves whoosh's own walk (the query around it left to
    whoosh): the same hits and order as whoosh's NumericRange gives."""
    text = "year:2017..2018 learn*"
    walked = set_matching.prepared(parse_query(text))
    assert any(type(q) is set_matching.ConstantScoreRange for q in walked.leaves())
    expected = _whoosh_ranked(searcher, text)
    found = [docnum for _score, docnum in searcher.search(walked, limit=None).top_n]
    assert found == expected and len(found) > 20


def test_a_small_cache_drops_lists_and_stays_right(searcher: Searcher) -> None:
    cache = set_matching.PostingCache(budget=1)
    for text in EVALUATED[:6]:
        assert set_matching.ranked(searcher, parse_query(text), cache) == _whoosh_ranked(
            searcher, text
        )
        assert len(cache._postings) == 1  # the most recent list only


def test_a_phrase_decodes_the_positions_of_the_papers_holding_all_its_words_only(
    searcher: Searcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 25: a phrase's first run decoded its words' every position ("models" is in
    # far more papers than "language models"), 4-8 times its warm cost.
    decoded: list[bytes] = []
    decode = set_matching._decoded
    monkeypatch.setattr(
        set_matching, "_decoded", lambda value: decoded.append(value) or decode(value)
    )
    text = '"language models"'
    cache = set_matching.PostingCache()
    assert set_matching.ranked(searcher, parse_query(text), cache) == _whoosh_ranked(searcher, text)
    holding_both = len(list(searcher.docs_for_query(parse_query("language models"))))
    holding_models = len(list(searcher.docs_for_query(parse_query("models"))))
    assert holding_models > 2 * holding_both  # what makes the bound below worth asking
    assert 0 < len(decoded) <= 2 * holding_both
    decoded.clear()
    set_matching.ranked(searcher, parse_query(text), cache)  # again: nothing decoded anew
    assert decoded == []


def test_a_phrase_reads_each_block_of_its_words_once(
    searcher: Searcher, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 25: a phrase's first run read and unpickled the blocks holding candidates
    # twice, once for the ids and weights and again for their positions (124 ms of
    # "language models"' 262 ms at 100,000 papers).
    text = '"language models"'
    expected = _whoosh_ranked(searcher, text)
    reads: list[object] = []
    read = W3LeafMatcher._read_data
    monkeypatch.setattr(W3LeafMatcher, "_read_data", lambda m: reads.append(m) or read(m))
    set_matching.ranked(searcher, parse_query("language models"), set_matching.PostingCache())
    words_blocks = len(reads)
    reads.clear()
    cache = set_matching.PostingCache()
    assert set_matching.ranked(searcher, parse_query(text), cache) == expected
    assert 0 < len(reads) == words_blocks
    # The raw positions are let go once the phrase has decoded its candidates': kept,
    # they took the cache's room from other words (typed words evicted at 100,000).
    assert all(postings._values is None for postings in cache._postings.values())


def test_a_phrase_after_its_words_were_read_without_positions_is_whoosh_s(
    searcher: Searcher,
) -> None:
    """Words read by a query that is not a phrase keep no raw positions: the phrase
    after them reads its candidates' blocks, with the same answer."""
    cache = set_matching.PostingCache()
    for text in ["graph neural networks", '"graph neural networks"', '"neural networks"~3']:
        expected = _whoosh_ranked(searcher, text)
        assert set_matching.ranked(searcher, parse_query(text), cache) == expected
        assert expected

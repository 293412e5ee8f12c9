"""The index's files: segments read in place, not copied into memory whole."""

from __future__ import annotations

import random
import tracemalloc
from pathlib import Path

from whoosh import index as windex

from paperdesk.search.index import FullTextIndex
from paperdesk.search.storage import INDEX_NAME, open_index
from tests.search.test_index import doc


def _built(tmp_path: Path) -> Path:
    rng = random.Random(1)
    words = [f"w{n}x" for n in range(3000)]
    documents = [
        doc(n, " ".join(rng.choices(words, k=8)), " ".join(rng.choices(words, k=100)))
        for n in range(1, 601)
    ]
    index = FullTextIndex(tmp_path / "index")
    index.rebuild([documents], generation=1, total=len(documents))
    index.close()
    live = index.live_folder()
    assert live is not None
    return live


def _opening_allocates(index: windex.Index) -> int:
    tracemalloc.start()
    try:
        reader = index.reader()
        allocated = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert reader.doc_count() == 600
    reader.close()
    index.close()
    return allocated


def test_opening_a_reader_copies_no_segment_whole(tmp_path: Path) -> None:
    live = _built(tmp_path)
    segment_bytes = sum(path.stat().st_size for path in live.glob("*.seg"))
    # whoosh's own storage copies every part it opens (postings, terms) into the heap.
    assert _opening_allocates(windex.open_dir(live, indexname=INDEX_NAME)) > segment_bytes
    assert _opening_allocates(open_index(live)) < segment_bytes / 10


def test_searches_read_in_place_find_what_whoosh_finds(tmp_path: Path) -> None:
    live = _built(tmp_path)
    ours, theirs = open_index(live), windex.open_dir(live, indexname=INDEX_NAME)
    with ours.searcher() as mine, theirs.searcher() as whoosh:
        for word in ("w1x", "w17x", "w2999x", "w5x"):
            parsed = mine.schema["text"].to_bytes(word)
            assert list(mine.postings("text", parsed).all_ids()) == list(
                whoosh.postings("text", parsed).all_ids()
            )
        assert sorted(mine.lexicon("text")) == sorted(whoosh.lexicon("text"))
    ours.close()
    theirs.close()

"""The Vocabulary reads whoosh's term file itself: the same terms and counts as whoosh."""

from __future__ import annotations

from pathlib import Path

from paperdesk.search.index import FullTextIndex
from paperdesk.search.vocabulary import Vocabulary, _read
from tests.search.word_corpus import build


def test_each_segments_terms_and_counts_are_whooshs_own(tmp_path: Path) -> None:
    index = build(tmp_path / "index", 300)
    index.update([], [5, 6], generation=4)  # deleted documents stay in their segment
    with index._lock:
        searcher = index._searcher().current()
        readers = [sub.reader() for sub, _offset in searcher.leaf_searchers()]
        assert len(readers) >= 2
        for reader in readers:
            for field in ("text", "title", "author", "tag", "venue", "status", "note"):
                expected = (
                    [
                        (term.decode(), info.doc_frequency())
                        for term, info in reader.iter_field(field)
                    ]
                    if field in reader.schema
                    else []
                )
                read = _read(reader, field)
                assert list(zip(read.terms, read.counts, strict=True)) == expected, field
            assert _read(reader, "year").terms == []  # numbers: whoosh's own ways
    index.close()


def test_near_words_and_prefixes_sum_their_segments(tmp_path: Path) -> None:
    index: FullTextIndex = build(tmp_path / "index", 300)
    vocabulary = Vocabulary()
    with index._lock:
        searcher = index._searcher().current()
        starting = vocabulary.starting(searcher, "text", "converg")
        assert starting and all(term.startswith("converg") for term in starting)
        assert starting["converg"] == searcher.doc_frequency("text", "converg")
        near = vocabulary.near(searcher, "text", "convrg", 1)
        assert "converg" in near and all(term != "convrg" for term in near)
        assert vocabulary.near(searcher, "text", "cnoverg", 1, prefix=2) == {}  # cn, not co
        assert "converg" in vocabulary.near(searcher, "text", "cnoverg", 1)  # a swap: 1 edit
    index.close()

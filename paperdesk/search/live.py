"""One searcher kept open until the index changes, and its document numbers' paper ids.

Opening a searcher and reading each hit's paper id from its stored fields cost more than
the search itself at 100,000 papers (issue 11). Here the searcher lives until another
commit makes it old, and a paper id is an array lookup by document number. The array is
cached per segment (a segment's stored ids never change; deletions only hide documents),
so a commit that adds a small segment reads only that segment's ids. The decoded
posting lists that set_matching evaluates queries with are kept the same way.
"""

from __future__ import annotations

from array import array

from whoosh.index import Index
from whoosh.query import Query
from whoosh.searching import Searcher

from paperdesk.search import set_matching, spelling
from paperdesk.search.expansion import bounded
from paperdesk.search.schema import POSITIONAL_FIELD
from paperdesk.search.set_matching import PostingCache, Unsupported
from paperdesk.search.vocabulary import Vocabulary


class LiveSearcher:
    """A searcher of one index and the paper id of each of its document numbers."""

    def __init__(self, index: Index) -> None:
        self._index = index
        self._searcher: Searcher = index.searcher()
        self._by_segment: dict[str, array[int]] = {}
        self._postings = PostingCache()
        self._vocabulary = Vocabulary()
        self.ids = self._load_ids()

    def current(self) -> Searcher:
        """The searcher, reopened first if a commit made it old (one small file read)."""
        if not self._searcher.up_to_date():
            # Not Searcher.refresh(): it reuses the reader of a segment whose deletions
            # changed (whoosh compares segments by id), so updated papers would be found
            # twice. The id cache still spares re-reading unchanged segments' ids.
            self._searcher.close()
            self._searcher = self._index.searcher()
            self.ids = self._load_ids()
        return self._searcher

    def close(self) -> None:
        self._searcher.close()

    def matches(self, query: Query, ranked: bool) -> list[int]:
        """The document numbers `query` matches: best first (whoosh's BM25F order) when
        `ranked`, else in document order. Evaluated list-wise (set_matching), or by
        whoosh's matchers for the queries that module does not evaluate.
        QueryError for an expanding term that stands for too many words (expansion.py)."""
        searcher = self.current()
        query = set_matching.prepared(bounded(query, searcher, self._vocabulary))
        try:
            if ranked:
                return set_matching.ranked(searcher, query, self._postings)
            return set_matching.unranked(searcher, query, self._postings)
        except Unsupported:
            if ranked:
                return [docnum for _score, docnum in searcher.search(query, limit=None).top_n]
            return list(searcher.docs_for_query(query))

    def suggest(self, text: str) -> str | None:
        """A spelling correction of a query that found nothing (spelling.py), or None."""
        return spelling.suggest(self.current(), self._vocabulary, text)

    def _load_ids(self) -> array[int]:
        ids: array[int] = array("q")
        kept: dict[str, array[int]] = {}
        for reader, _offset in self._searcher.reader().leaf_readers():
            key = set_matching.segment_key(reader)
            part = self._by_segment.get(key) if key else None
            if part is None:
                part = array("q", bytes(8 * reader.doc_count_all()))
                for docnum, fields in reader.iter_docs():
                    part[docnum] = int(fields["id"])
            kept[key] = part
            ids.extend(part)
        self._by_segment = kept  # segments merged away are forgotten
        self._postings.trim(set(kept))
        self._vocabulary.trim(set(kept))
        # The words of the field bare words search, read with the ids rather than by the
        # first query that finds nothing or is typed (~90 ms at 100,000 papers, which
        # took that query past 100 ms of CPU); a commit's new segment adds a few.
        self._vocabulary.read(self._searcher, POSITIONAL_FIELD)
        return ids

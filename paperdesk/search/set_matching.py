"""Whole-list matching with sets: whoosh's own hits and scores, without its per-hit walk.

whoosh finds the hits of `graph neural networks` by stepping three posting lists in
step, one posting at a time in Python, and checks a phrase's word positions through a
chain of Span objects per candidate: at 100,000 papers that took 120-600 ms for the
several-word and phrase queries of the benchmark mix (issue 11), most of it stepping.
The table shows every hit, so every hit must be found and scored anyway.

Here whoosh still builds its matcher tree for the query (the same terms, the same
scorers, the same tree of sums), but the tree is evaluated list-wise: each term's
posting list is decoded block by block (ids, weights and position bytes come out of
whoosh's own block format whole), intersections and unions are set operations, and a
hit's score is summed over the same tree in the same order as whoosh's matchers sum
it, with the same scorer functions: the same hits in the same order. Numeric ranges
become ConstantScoreRange first (`prepared`), whose documents are not listed one by one.
A matcher this module does not know raises `Unsupported`, and the caller lets whoosh
walk the query as before. The module reads whoosh-reloaded's posting blocks and matcher
attributes, which are not its public API: tests/search/test_set_matching.py compares
every kind of query with whoosh's own answer, so a whoosh that changes them fails there.

Decoding is then most of the cost (whoosh unpickles each block of 128 postings with
their positions: ~0.1 ms a block, 50 ms for the three words above), so the decoded
lists are kept, compact, in a `PostingCache` per open index: a segment's postings never
change (deletions are applied by whoosh's filter over them, evaluated here too).
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from itertools import accumulate, compress
from pickle import loads
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3LeafMatcher, _lenfield
from whoosh.formats import Positions
from whoosh.matching import mcore
from whoosh.matching.binary import (
    AndMaybeMatcher,
    AndNotMatcher,
    IntersectionMatcher,
    UnionMatcher,
)
from whoosh.matching.combo import ArrayUnionMatcher
from whoosh.matching.wrappers import FilterMatcher, InverseMatcher, WrappingMatcher
from whoosh.query import ConstantScoreQuery, NumericRange, Query
from whoosh.query.spans import SpanNear2
from whoosh.scoring import BM25FScorer, WeightScorer
from whoosh.searching import SearchContext, Searcher
from whoosh.util.numeric import byte_to_length

_INT_SIZE = 4  # whoosh's Positions values start with the count, an unsigned int
#: What the decoded posting lists of one open index may hold, in bytes (estimated:
#: 8 a posting for its id and weight, the bytes of its positions when a phrase read them).
CACHE_BYTES = 64 * 1024 * 1024


class Unsupported(Exception):
    """The query holds a matcher this module does not evaluate: let whoosh walk it."""


class ConstantScoreMatcher(WrappingMatcher):  # type: ignore[misc]
    """The documents of a range, all scored the same: what whoosh's ConstantScoreQuery
    gives, without first listing them one by one (70-140 ms for `year:2017..2018` at
    100,000 papers), so that set_matching can take them as a set."""

    def __init__(self, child: Any, score: float) -> None:
        super().__init__(child)
        self._constant = score

    def _replacement(self, newchild: Any) -> ConstantScoreMatcher:
        return ConstantScoreMatcher(newchild, self._constant)

    def copy(self) -> ConstantScoreMatcher:
        return ConstantScoreMatcher(self.child.copy(), self._constant)

    def supports_block_quality(self) -> bool:
        return False

    def max_quality(self) -> float:
        return self._constant

    def block_quality(self) -> float:
        return self._constant

    def weight(self) -> float:
        return self._constant

    def score(self) -> float:
        return self._constant


class ConstantScoreRange(NumericRange):  # type: ignore[misc]
    """NumericRange whose matcher is a ConstantScoreMatcher where whoosh's would list
    the range's documents in a ListMatcher of one constant score (the same documents,
    the same score)."""

    def matcher(self, searcher: Searcher, context: Any = None) -> Any:
        compiled = self._compile_query(searcher.reader())
        if not isinstance(compiled, ConstantScoreQuery):
            return compiled.matcher(searcher, context)
        child = compiled.child.matcher(searcher, context or SearchContext())
        if (context is not None and context.needs_current) or isinstance(
            child, mcore.NullMatcherClass
        ):
            return child  # as ConstantScoreQuery.matcher does
        return ConstantScoreMatcher(child, compiled.score)


def prepared(query: Query) -> Query:
    """The query with its numeric ranges as ConstantScoreRange (the same hits, scores
    and order, whether set_matching or whoosh walks it)."""
    return query.accept(_constant_score_range)


def _constant_score_range(node: Query) -> Query:
    if type(node) is NumericRange:
        return ConstantScoreRange(
            node.fieldname,
            node.start,
            node.end,
            startexcl=node.startexcl,
            endexcl=node.endexcl,
            boost=node.boost,
            constantscore=node.constantscore,
        )
    return node


class _Matches:
    """A matcher's documents, and its score of one of them (as whoosh's score())."""

    __slots__ = ("docs", "score")

    def __init__(self, docs: set[int], score: Callable[[int], float]) -> None:
        self.docs = docs
        self.score = score


class PostingCache:
    """Decoded posting lists and field lengths of an index's segments, the least
    recently used dropped first; a segment's go when it is merged away. Not locked:
    its owner (search/live.py) is used under FullTextIndex's lock."""

    def __init__(self, budget: int = CACHE_BYTES) -> None:
        self._budget = budget
        self._postings: OrderedDict[tuple[str, Hashable], _Postings] = OrderedDict()
        self._lengths: dict[tuple[str, str], array[int]] = {}

    def postings(self, segment: str, matcher: Any, values: bool = False) -> _Postings:
        """A term's postings; with `values`, their raw positions kept too when the
        list is read now (a phrase's word: see _Postings.positions)."""
        term = matcher.term()
        if term is None:  # whoosh's list of a range's documents: not one term's
            raise Unsupported("postings of no term")
        key = (segment, term)
        found = self._postings.get(key)
        if found is None:
            found = self._postings[key] = _Postings(matcher, values)
        self._postings.move_to_end(key)
        return found

    def lengths(self, segment: str, reader: Any, field: str) -> array[int]:
        """Each document's length byte in `field` (whoosh's own length column, whole)."""
        key = (segment, field)
        found = self._lengths.get(key)
        if found is None:
            column = reader._perdoc._cached_reader(_lenfield(field), LENGTHS_COLUMN)
            if column is None or column._typecode != "B":
                raise Unsupported(f"no length bytes of {field}")
            # The column's bytes in one read (its load() reads them one by one);
            # documents after the last written have the default, 0.
            found = array("B", column._dbfile.get(column._basepos, column._count))
            found.extend(bytes(column._doccount - len(found)))
            self._lengths[key] = found
        return found

    def trim(self, segments: set[str] | None = None) -> None:
        """Forget the segments not in `segments` (when given), then the least recently
        used lists until what is kept fits the budget."""
        if segments is not None:
            for key in [k for k in self._postings if k[0] not in segments]:
                del self._postings[key]
            for field_key in [k for k in self._lengths if k[0] not in segments]:
                del self._lengths[field_key]
        size = sum(postings.size for postings in self._postings.values())
        while size > self._budget and len(self._postings) > 1:
            _key, dropped = self._postings.popitem(last=False)
            size -= dropped.size


def ranked(searcher: Searcher, query: Query, cache: PostingCache) -> list[int]:
    """Every matching document number, best first, as `searcher.search(query,
    limit=None)` orders them (by score, ties by document number)."""
    context = searcher.context()
    query = prepared(query)
    scored: list[tuple[float, int]] = []
    for sub, offset in searcher.leaf_searchers():
        found = _Evaluation(cache, sub).of(query.matcher(sub, context))
        score = found.score
        scored.extend((0 - score(doc), offset + doc) for doc in found.docs)
    cache.trim()
    scored.sort()
    return [docnum for _negated, docnum in scored]


def unranked(searcher: Searcher, query: Query, cache: PostingCache) -> list[int]:
    """Every matching document number, in document order (nothing is scored)."""
    context = searcher.boolean_context()
    query = prepared(query)
    docnums: list[int] = []
    for sub, offset in searcher.leaf_searchers():
        docs = _Evaluation(cache, sub).of(query.matcher(sub, context)).docs
        docnums.extend(offset + doc for doc in sorted(docs))
    cache.trim()
    return docnums


def segment_key(reader: Any) -> str:
    """A segment's id (empty for the reader of an empty index)."""
    segment = reader.segment()
    return segment.segment_id() if segment is not None else ""


class _Evaluation:
    """One evaluation of one segment's matcher tree."""

    def __init__(self, cache: PostingCache, searcher: Searcher) -> None:
        self._cache = cache
        self._reader = searcher.reader()
        self._segment = segment_key(self._reader)
        #: The terms of the phrase being evaluated, whose raw positions are kept.
        self._phrase_terms: set[Any] = set()

    def of(self, matcher: Any) -> _Matches:
        kind = type(matcher)
        if kind is IntersectionMatcher:
            return self._intersection(matcher)
        if kind is UnionMatcher:
            return self._union(matcher)
        if kind is AndNotMatcher:
            a = self.of(matcher.a)
            return _Matches(a.docs - self.of(matcher.b).docs, a.score)
        if kind is AndMaybeMatcher:
            return self._and_maybe(matcher)
        if kind is SpanNear2.SpanNear2Matcher:
            return self._phrase(matcher)
        if kind is FilterMatcher:
            return self._filtered(matcher)
        if kind is WrappingMatcher:
            return _boosted(self.of(matcher.child), matcher.boost)
        if kind is ConstantScoreMatcher:
            constant = matcher._constant
            return _Matches(self.of(matcher.child).docs, lambda _doc: constant)
        if kind is InverseMatcher:
            return self._inverse(matcher)
        if kind is ArrayUnionMatcher:
            return self._array_union(matcher)
        if kind is mcore.NullMatcherClass:
            return _Matches(set(), _no_score)
        if kind is W3LeafMatcher or kind is mcore.ListMatcher:
            return self._leaf(matcher)
        raise Unsupported(kind.__name__)

    def _intersection(self, matcher: Any) -> _Matches:
        a, b = self.of(matcher.a), self.of(matcher.b)
        score_a, score_b = a.score, b.score
        return _Matches(a.docs & b.docs, lambda doc: score_a(doc) + score_b(doc))

    def _union(self, matcher: Any) -> _Matches:
        a, b = self.of(matcher.a), self.of(matcher.b)
        in_a, in_b, score_a, score_b = a.docs, b.docs, a.score, b.score

        def score(doc: int) -> float:
            if doc not in in_b:
                return score_a(doc)
            if doc not in in_a:
                return score_b(doc)
            return score_a(doc) + score_b(doc)

        return _Matches(in_a | in_b, score)

    def _array_union(self, matcher: Any) -> _Matches:
        """An OR of many (a prefix's words): each matching part's score times the
        boost, summed in the parts' order into 0.0 (ArrayUnionMatcher's array of
        doubles), or 1 for all when it is not scored."""
        parts = [self.of(part) for part in matcher._submatchers]
        boost = matcher._boost
        docs: set[int] = set().union(*(part.docs for part in parts))
        if not matcher._scored:  # a constant-score prefix: each document's slot is 1
            return _Matches(docs, lambda _doc: 1.0)

        def score(doc: int) -> float:
            total = 0.0
            for part in parts:
                if doc in part.docs:
                    total += part.score(doc) * boost
            return total

        return _Matches(docs, score)

    def _and_maybe(self, matcher: Any) -> _Matches:
        a, b = self.of(matcher.a), self.of(matcher.b)
        in_b, score_a, score_b = b.docs, a.score, b.score
        return _Matches(
            a.docs, lambda doc: score_a(doc) + score_b(doc) if doc in in_b else score_a(doc)
        )

    def _filtered(self, matcher: Any) -> _Matches:
        child = self.of(matcher.child)
        ids = matcher._ids
        docs = child.docs - ids if matcher._exclude else child.docs & ids
        return _boosted(_Matches(docs, child.score), matcher.boost)

    def _inverse(self, matcher: Any) -> _Matches:
        """NOT: every document of the segment but the child's and the deleted ones."""
        if matcher.missing != self._reader.is_deleted:
            raise Unsupported("an inverse of unknown documents")
        weight = matcher._weight
        docs = set(range(matcher.limit)) - self.of(matcher.child).docs
        return _Matches(docs - self._reader.deleted_docs_set, lambda _doc: weight)

    def _phrase(self, matcher: Any) -> _Matches:
        """A phrase: the documents of its words' intersection whose positions hold the
        words in order, each at most `slop` after the one before (SpanNear2's rule for
        an ordered phrase with mindist 1); scored as the intersection is."""
        if not matcher.ordered or matcher.mindist != 1:
            raise Unsupported("an unordered span")
        words = [_unfiltered(m) for m in matcher.ms]
        if any(type(_format_of(word)) is not Positions for word in words):
            raise Unsupported("a phrase without positions")
        # The child is the intersection of these very matchers: its leaves, read for
        # ids and weights, keep the raw positions the phrase reads next.
        self._phrase_terms = {word.term() for word in words}
        try:
            candidates = self.of(matcher.child)
        finally:
            self._phrase_terms = set()
        first, *others = [
            self._cache.postings(self._segment, w).positions(w, candidates.docs) for w in words
        ]
        if len(others) == 1 and matcher.slop == 1:  # two words side by side: most phrases
            second, one_more = others[0], (1).__add__
            docs = {
                doc
                for doc in candidates.docs
                if not set(map(one_more, first[doc])).isdisjoint(second[doc])
            }
        else:
            steps = range(1, matcher.slop + 1)
            docs = {
                doc
                for doc in candidates.docs
                if _in_order(first[doc], [positions[doc] for positions in others], steps)
            }
        return _boosted(_Matches(docs, candidates.score), matcher.boost)

    def _leaf(self, matcher: Any) -> _Matches:
        values = matcher.term() in self._phrase_terms
        postings = self._cache.postings(self._segment, matcher, values)
        scorer = matcher.scorer if type(matcher) is W3LeafMatcher else matcher._scorer
        field = matcher.term()[0]
        return _Matches(postings.docs(), self._leaf_score(scorer, field, postings))

    def _leaf_score(self, scorer: Any, field: str, postings: _Postings) -> Callable[[int], float]:
        """A term's score of a document, as its scorer's score(matcher) computes it."""
        if scorer is None:  # a constant-score term (a prefix's words): no weights read
            return _no_score
        weights = postings.weights_by_doc()
        if type(scorer) is WeightScorer:
            return weights.__getitem__
        if type(scorer) is BM25FScorer:
            score = scorer._score
            lengths = self._cache.lengths(self._segment, self._reader, field)
            # W3PerDocReader.doc_field_length: the byte decoded, None for no byte.
            return lambda doc: score(weights[doc], byte_to_length(lengths[doc]) or None)
        raise Unsupported(type(scorer).__name__)


class _Postings:
    """A term's whole posting list: ids and weights at once, positions on demand."""

    def __init__(self, matcher: Any, values: bool = False) -> None:
        self.ids: array[int] = array("i")
        self.weights: array[float] = array("f")
        self._positions: dict[int, tuple[int, ...]] = {}
        # Each posting's raw positions (parallel to ids), when the list is read for a
        # phrase, until the phrase has decoded its candidates': the blocks' values come
        # unpickled with the ids, and reading the candidates' blocks again was most of
        # a phrase's first run at 100,000 papers (124 ms of "language models"' 262 ms
        # under cProfile, issue 25). Not kept longer: a few MB a common word, they took
        # the cache's room from other words (typed words after the five phrases of
        # docs/search.md: 20-29 -> 29-44 ms CPU at 100,000 papers, their lists evicted).
        self._values: list[bytes] | None = [] if values and type(matcher) is W3LeafMatcher else None
        # The ids as a set and the weights by id, made once, at the first search that
        # needs them (every search made them anew: 57 ms for a prefix's 49,000 postings).
        self._docs: set[int] | None = None
        self._weights: dict[int, float] | None = None
        self.size = 0
        if type(matcher) is W3LeafMatcher:
            self._read_blocks(matcher)
        else:
            while matcher.is_active():
                self.ids.append(matcher.id())
                self.weights.append(matcher.weight())
                matcher.next()
        self.size = 8 * len(self.ids)

    def docs(self) -> set[int]:
        """The ids as a set (shared: callers make new sets of it, never change it)."""
        if self._docs is None:
            self._docs = set(self.ids)
            self.size += 40 * len(self.ids)  # a set's slot and int per id, roughly
        return self._docs

    def weights_by_doc(self) -> dict[int, float]:
        if self._weights is None:
            self._weights = dict(zip(self.ids, self.weights, strict=True))
            self.size += 100 * len(self.ids)  # a dict's entry, int and float per id
        return self._weights

    def _read_blocks(self, matcher: Any) -> None:
        """The ids and weights (and the raw values, when kept) of every block of a
        W3LeafMatcher, decoded as whoosh's own reads do."""
        values = self._values
        matcher.reset()
        while not matcher._atend:
            if matcher._data is None:
                matcher._read_data()
            ids = matcher._data[0]
            self.ids.extend(ids if matcher._byteids else accumulate(ids))
            matcher._read_weights()
            self.weights.extend(matcher._weights)
            if values is not None:
                matcher._read_values()
                values.extend(matcher._values)
            if matcher._lastblock:
                break
            matcher._goto(matcher._nextoffset)

    def positions(self, matcher: Any, docs: Iterable[int]) -> dict[int, tuple[int, ...]]:
        """The word positions of `docs` (documents of this term), read from this
        search's matcher of the term. Only their blocks are read and only their
        positions decoded, each once: a phrase asks for the documents holding all its
        words, and decoding a common word's every position made a phrase's first run
        cost 4-8 times its warm one (issue 25). The raw values kept when the list was
        just read for this phrase need no block read at all; they are let go then."""
        kept = self._positions
        values, self._values = self._values, None
        wanted = set(docs).difference(kept)
        if not wanted:
            return kept
        found: Iterable[tuple[int, bytes]]
        if values is None and type(matcher) is W3LeafMatcher:
            found = _values_of(matcher, sorted(wanted))
        else:
            if values is None:
                values = matcher._values
                if values is None:
                    raise Unsupported("a term without values")
            # Chosen in C, not looked up one by one in Python (a bisection each took
            # 70 of "neural networks"' 310 ms under cProfile at 100,000 papers).
            found = compress(zip(self.ids, values, strict=True), map(wanted.__contains__, self.ids))
        for doc, value in found:
            places = kept[doc] = _decoded(value)
            self.size += 100 + 8 * len(places)
        return kept


def _values_of(matcher: Any, wanted: list[int]) -> list[tuple[int, bytes]]:
    """The posting values of the `wanted` documents (sorted) of a W3LeafMatcher's term;
    a block holding none of them is passed over on its header alone."""
    found: list[tuple[int, bytes]] = []
    matcher.reset()
    at = 0  # the first wanted document not found yet
    while not matcher._atend and at < len(wanted):
        if wanted[at] <= matcher._maxid:
            matcher._read_ids()
            matcher._read_values()
            for doc, value in zip(matcher._ids, matcher._values, strict=True):
                while at < len(wanted) and wanted[at] < doc:
                    at += 1
                if at < len(wanted) and wanted[at] == doc:
                    found.append((doc, value))
                    at += 1
        if matcher._lastblock:
            break
        matcher._goto(matcher._nextoffset)
    return found


def _boosted(matches: _Matches, boost: float) -> _Matches:
    """WrappingMatcher's score: the child's times the boost (always, even by 1.0)."""
    score = matches.score
    return _Matches(matches.docs, lambda doc: score(doc) * boost)


def _format_of(matcher: Any) -> Any:
    return matcher.format if type(matcher) is W3LeafMatcher else matcher._format


def _unfiltered(matcher: Any) -> Any:
    """The term matcher under the filter that hides deleted documents."""
    while type(matcher) is FilterMatcher:
        matcher = matcher.child
    if type(matcher) is not W3LeafMatcher and type(matcher) is not mcore.ListMatcher:
        raise Unsupported(type(matcher).__name__)
    return matcher


def _decoded(value: bytes) -> tuple[int, ...]:
    """Positions.decode_positions: pickled deltas after the count."""
    if not value.endswith(b"."):
        value += b"."
    return tuple(accumulate(loads(value[_INT_SIZE:])))


def _in_order(first: tuple[int, ...], others: list[tuple[int, ...]], steps: range) -> bool:
    """Whether the words occur in order, each 1 to `slop` (the last step) positions
    after the one before."""
    ends: Iterable[int] = first
    for following in others:
        ends = {end + step for end in ends for step in steps}.intersection(following)
        if not ends:
            return False
    return True


def _no_score(_doc: int) -> float:
    return 0.0

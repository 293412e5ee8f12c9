"""The index's words per field, read once per segment: near words and prefixes in milliseconds.

whoosh's spelling corrector, and its fuzzy (`word~`), wildcard and range terms, walk a
field's whole term list in Python for each word, comparing words with a Python
Damerau-Levenshtein: 0.5-2 s of CPU per query word at 13,417 papers, 8.6 s for a query
of a few odd characters (issue 25). Here each segment's terms of a field are read once
(a segment never changes; deletions only hide documents) into a sorted list with each
term's document count. Near words are then found by rapidfuzz (in C), prefixes and
ranges by bisection, and a term's document count is a lookup.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from struct import Struct
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import OSA
from whoosh.codec.whoosh3 import W3TermsReader
from whoosh.filedb.filetables import OrderedHashReader
from whoosh.searching import Searcher
from whoosh.system import _SHORT_SIZE, pack_ushort

from paperdesk.search.set_matching import segment_key

# whoosh's term file (filedb/filetables.py, codec/whoosh3.py): each entry is two int
# lengths, the key (the field's number, then the term) and the term info, whose
# document count follows a flag byte and a float weight.
_LENGTHS = Struct("!ii")
_FIELD_SIZE = _SHORT_SIZE
_DOC_COUNT = Struct("!I")
_DOC_COUNT_AT = Struct("!Bf").size


@dataclass(frozen=True)
class _SegmentTerms:
    """One segment's terms of one field, sorted, and how many documents hold each."""

    terms: list[str]
    counts: list[int]

    def between(self, low: str, high: str | None) -> range:
        """The positions of the terms from `low` to before `high` (to the end if None)."""
        start = bisect_left(self.terms, low)
        end = len(self.terms) if high is None else bisect_left(self.terms, high, start)
        return range(start, end)


class Vocabulary:
    """The terms of an index's segments, per field (text and keyword fields only: a
    numeric field's terms are encoded numbers). Not locked: used under the index's lock."""

    def __init__(self) -> None:
        self._segments: dict[tuple[str, str], _SegmentTerms] = {}

    def trim(self, segments: set[str]) -> None:
        """Forget the segments merged away."""
        for key in [key for key in self._segments if key[0] not in segments]:
            del self._segments[key]

    def read(self, searcher: Searcher, field: str) -> None:
        """Read the terms of `field` of the segments not read yet."""
        self._of(searcher, field)

    def _of(self, searcher: Searcher, field: str) -> list[_SegmentTerms]:
        found = []
        for sub, _offset in searcher.leaf_searchers():
            reader = sub.reader()
            key = (segment_key(reader), field)
            terms = self._segments.get(key)
            if terms is None:
                terms = self._segments[key] = _read(reader, field)
            found.append(terms)
        return found

    def counts(self, searcher: Searcher, field: str, low: str, high: str | None) -> Counter[str]:
        """Each term from `low` to before `high` and its documents (deleted ones too)."""
        found: Counter[str] = Counter()
        for segment in self._of(searcher, field):
            for place in segment.between(low, high):
                found[segment.terms[place]] += segment.counts[place]
        return found

    def widest(self, searcher: Searcher, field: str, low: str, high: str | None) -> int:
        """The most terms from `low` to before `high` in one segment (at most as many as
        in all: a bound read without listing them)."""
        return max((len(s.between(low, high)) for s in self._of(searcher, field)), default=0)

    def starting(self, searcher: Searcher, field: str, prefix: str) -> Counter[str]:
        """The terms that start with `prefix`, and their documents."""
        return self.counts(searcher, field, prefix, after_prefix(prefix))

    def matching(
        self, searcher: Searcher, field: str, prefix: str, keep: Callable[[str], bool]
    ) -> Counter[str]:
        """The terms starting with `prefix` that `keep` accepts, and their documents."""
        return Counter(
            {term: n for term, n in self.starting(searcher, field, prefix).items() if keep(term)}
        )

    def near(
        self, searcher: Searcher, field: str, word: str, distance: int, prefix: int = 0
    ) -> Counter[str]:
        """The terms within `distance` edits of `word` (a swap of two letters is one
        edit, as in whoosh's fuzzy terms) sharing its first `prefix` letters, and their
        documents."""
        found: Counter[str] = Counter()
        for segment in self._of(searcher, field):
            place = segment.between(word[:prefix], after_prefix(word[:prefix]) if prefix else None)
            if not place:
                continue
            choices = segment.terms[place.start : place.stop]
            for term, _distance, index in process.extract(
                word, choices, scorer=OSA.distance, score_cutoff=distance, limit=None
            ):
                found[term] += segment.counts[place.start + index]
        return found


def _read(reader: Any, field: str) -> _SegmentTerms:
    """A segment's terms of a field: its part of whoosh's term file in one read, each
    entry (two lengths, the field's number and term, the term info starting with a
    flag byte, a weight and the document count) cut out with struct; whoosh's own
    iter_field decodes each term info whole (2.5x the CPU) when the file is another."""
    words: list[str] = []
    counts: list[int] = []
    if field not in reader.schema or reader.schema[field].self_parsing():
        return _SegmentTerms(words, counts)
    terms: Any = getattr(reader, "_terms", None)
    table: Any = getattr(terms, "_tindex", None)
    if type(terms) is not W3TermsReader or type(table) is not OrderedHashReader:
        for term, info in reader.iter_field(field):
            words.append(term.decode("utf-8"))
            counts.append(info.doc_frequency())
        return _SegmentTerms(words, counts)
    number = terms._fieldmap.get(field)
    if number is None:
        return _SegmentTerms(words, counts)
    field_key = pack_ushort(number)
    start = table.closest_key_pos(field_key)
    if start is None:
        return _SegmentTerms(words, counts)
    data = table.dbfile.get(start, table.endofdata - start)
    position, end = 0, len(data)
    while position < end:
        key_length, data_length = _LENGTHS.unpack_from(data, position)
        position += _LENGTHS.size
        if data[position : position + _FIELD_SIZE] != field_key:
            break
        words.append(data[position + _FIELD_SIZE : position + key_length].decode("utf-8"))
        position += key_length
        counts.append(_DOC_COUNT.unpack_from(data, position + _DOC_COUNT_AT)[0])
        position += data_length
    return _SegmentTerms(words, counts)


def after_prefix(prefix: str) -> str | None:
    """The first string after every string that starts with `prefix` (None: no end)."""
    if not prefix:
        return None
    return prefix[:-1] + chr(ord(prefix[-1]) + 1) if ord(prefix[-1]) < 0x10FFFF else None

"""Expanding terms (prefix*, wild?card, fuzzy~, word ranges) as bounded lists of words.

whoosh expands such a term by walking the field's terms in Python, once per segment,
and then matches every word it found: `*` took 4.5 s of CPU at 13,417 papers, a
wildcard before any letter 8.6 s (issue 25). Here the words come from the Vocabulary
(bisection and rapidfuzz) and a term may stand for at most MAX_EXPANSION of them; past
that, or with fewer than WILDCARD_PREFIX_MIN letters before a wildcard, the query is
refused with what to type instead. The word being typed (query.TypedPrefix) is never
refused: it stands for its TYPED_EXPANSION commonest words, which is what a reader
typing `graph n` expects to see narrowed first.
"""

from __future__ import annotations

import fnmatch
import re
from collections import Counter
from typing import Any

from whoosh import query as wq
from whoosh.searching import Searcher

from paperdesk.core.errors import QueryError
from paperdesk.search.query import TypedPrefix
from paperdesk.search.vocabulary import Vocabulary, after_prefix

#: The most words one expanding term of a query may stand for.
MAX_EXPANSION = 300
#: The commonest words the word being typed stands for, and the most documents they
#: may hold together: their posting lists are read at about 1 µs a document the first
#: time (`graph co` at 13,417 papers: 40 words, 49,000 documents, 110 ms of CPU).
TYPED_EXPANSION = 40
TYPED_POSTINGS = 40_000
#: Letters a wildcard must follow (`?`, `*x` would read the whole vocabulary).
WILDCARD_PREFIX_MIN = 2


class Expanded(wq.MultiTerm):  # type: ignore[misc]
    """An expanding term with its words already found: matched, scored and shown as
    whoosh matches the term it replaces (each word a Term, constant score or not)."""

    def __init__(self, original: Any, words: list[str]) -> None:
        self.fieldname = original.fieldname
        self.text = getattr(original, "text", "")  # a range of words has ends instead
        self.boost = original.boost
        self.constantscore = original.constantscore
        self.words = words

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is Expanded
            and self.fieldname == other.fieldname
            and self.words == other.words
            and self.boost == other.boost
            and self.constantscore == other.constantscore
        )

    def __hash__(self) -> int:
        return hash((self.fieldname, tuple(self.words), self.boost, self.constantscore))

    def __repr__(self) -> str:
        return f"Expanded({self.fieldname!r}, {self.text!r}, {len(self.words)} words)"

    def _btexts(self, ixreader: Any) -> list[bytes]:
        return [word.encode("utf-8") for word in self.words]


def bounded(query: wq.Query, searcher: Searcher, vocabulary: Vocabulary) -> wq.Query:
    """The query with each expanding term replaced by its words; QueryError for a term
    that stands for too many words, or for everything."""

    def bound(node: wq.Query) -> wq.Query:
        if isinstance(node, wq.Every):
            raise QueryError(
                "a lone * stands for every paper: leave the search empty to list them all"
            )
        if not isinstance(node, wq.MultiTerm) or isinstance(node, Expanded):
            return node
        field = node.fieldname
        if searcher.schema[field].self_parsing():  # numbers: few terms, whoosh's way
            return node
        if isinstance(node, TypedPrefix):
            found = vocabulary.starting(searcher, field, node.text)
            return Expanded(node, _commonest(found))
        found = _words(node, searcher, vocabulary)
        if len(found) > MAX_EXPANSION:
            raise QueryError(_too_many(node, len(found)))
        return Expanded(node, sorted(found))

    return query.accept(bound)


def _words(node: Any, searcher: Searcher, vocabulary: Vocabulary) -> Counter[str]:
    field = node.fieldname
    if isinstance(node, wq.Prefix):
        _refuse_wider(node, vocabulary.widest(searcher, field, node.text, after_prefix(node.text)))
        return vocabulary.starting(searcher, field, node.text)
    if isinstance(node, wq.FuzzyTerm):
        return vocabulary.near(searcher, field, node.text, node.maxdist, node.prefixlength)
    if isinstance(node, wq.Wildcard):
        literal = re.split(r"[*?\[]", node.text, maxsplit=1)[0]
        if len(literal) < WILDCARD_PREFIX_MIN:
            raise QueryError(
                f"{_shown(node)} starts with a wildcard: give at least"
                f" {WILDCARD_PREFIX_MIN} letters before * or ?"
            )
        pattern = re.compile(fnmatch.translate(node.text))
        return vocabulary.matching(searcher, field, literal, lambda term: bool(pattern.match(term)))
    if isinstance(node, wq.TermRange):
        return _range(node, searcher, vocabulary)
    raise QueryError(f"{_shown(node)} cannot be searched")


def _range(node: Any, searcher: Searcher, vocabulary: Vocabulary) -> Counter[str]:
    """A range of words (`a TO c`, `>=4` without a field), its ends as whoosh reads them."""
    low, high = node.start or "", node.end
    end = None if high is None else high + "\0"  # just after `high`
    _refuse_wider(node, vocabulary.widest(searcher, node.fieldname, low, end))
    found = vocabulary.counts(searcher, node.fieldname, low, end)
    return Counter(
        {
            term: count
            for term, count in found.items()
            if not (node.startexcl and term == low)
            and (high is None or term < high or (term == high and not node.endexcl))
        }
    )


def _refuse_wider(node: Any, widest: int) -> None:
    """Refuse before counting the words when one segment alone holds too many."""
    if widest > MAX_EXPANSION:
        raise QueryError(_too_many(node, widest, at_least=True))


def _too_many(node: Any, count: int, at_least: bool = False) -> str:
    many = f"{'over ' if at_least else ''}{count:,} words"
    if isinstance(node, wq.TermRange):
        return (
            f"the words from {node.start or ''!r} to {node.end or ''!r} are {many},"
            f" too many to search (at most {MAX_EXPANSION}); a range of numbers needs"
            " its field, e.g. rating:>=4 or year:2020..2024"
        )
    return (
        f"{_shown(node)} stands for {many}, too many to search"
        f" (at most {MAX_EXPANSION}): give more letters"
    )


def _commonest(found: Counter[str]) -> list[str]:
    """The words of the most documents, at most TYPED_EXPANSION of them and
    TYPED_POSTINGS documents in all (a word that would pass it is left out, the next
    ones are still tried: `graph n` at 100,000 papers keeps network and smaller ones)."""
    chosen: list[str] = []
    room = TYPED_POSTINGS
    for term, count in sorted(found.items(), key=lambda item: (-item[1], item[0])):
        if count <= room:
            chosen.append(term)
            room -= count
            if len(chosen) == TYPED_EXPANSION:
                break
    return sorted(chosen)


def _shown(node: Any) -> str:
    text = str(node)
    prefix = "text:"
    return repr(text[len(prefix) :] if text.startswith(prefix) else text)

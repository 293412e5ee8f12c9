"""Word analysis for the index: whoosh's stemming chain in one pass, with its terms.

The index used to analyse words with `StemmingAnalyzer() | CharsetFilter(accent_map)`:
a regex tokenizer and four filters, each a Python generator every token passes through,
most of the cost of indexing (bench/bench_index_floor.py measured it). Every step after
the tokenizer depends on the lower-cased word alone, so here the final term (or "stop
word") is cached per word: one regex match and one dictionary lookup per word. Positions
are numbered as StopFilter(renumber=True) numbers them, so phrases match as before;
the one difference is that `*` is not part of a word (see _WORDS).
Calls the fast path does not cover (character offsets for highlighting, unanalysed or
stop-keeping query text) go through the classic chain itself.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

from whoosh.analysis import STOP_WORDS, Analyzer, CharsetFilter, StemmingAnalyzer, Token
from whoosh.fields import TEXT
from whoosh.formats import Positions
from whoosh.lang.porter import stem
from whoosh.support.charset import accent_map
from whoosh.system import pack_uint

_STOP = object()
# Words, dotted ones kept whole ("x.y"). Not whoosh-reloaded's tokenizer pattern: it
# keeps `*` inside words (for wildcard queries), which indexed a note's `**Mamba**` as
# "**mamba**", out of reach of `note:mamba` (issue 12.6).
_WORDS = re.compile(r"\w+(?:\.?\w+)*", re.UNICODE).findall
# Corpus vocabularies run to ~10^5 words; past this the cache starts again (bounded memory).
_CACHE_LIMIT = 300_000


def classic_analyzer() -> Analyzer:
    # Stemming so "training" finds "trained"; accent folding so "Rocktaschel" finds "Rocktäschel".
    return StemmingAnalyzer() | CharsetFilter(accent_map)  # type: ignore[no-any-return]


class FoldedStemmingAnalyzer(Analyzer):  # type: ignore[misc]
    """The terms of `classic_analyzer()`, computed once per distinct word."""

    is_morph = True  # stems words, like StemFilter (whoosh asks when correcting spelling)

    def __init__(self) -> None:
        self._classic = classic_analyzer()
        self._terms: dict[str, object] = {}

    def __getstate__(self) -> dict[str, Any]:
        # The schema is pickled into the index's table of contents: not the cache.
        return {"_classic": self._classic}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self._classic = state["_classic"]
        self._terms = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FoldedStemmingAnalyzer)

    def __hash__(self) -> int:
        return hash(FoldedStemmingAnalyzer)

    def __call__(  # type: ignore[override]
        self,
        value: str,
        positions: bool = False,
        chars: bool = False,
        keeporiginal: bool = False,
        removestops: bool = True,
        start_pos: int = 0,
        start_char: int = 0,
        tokenize: bool = True,
        mode: str = "",
        **kwargs: Any,
    ) -> Iterator[Token]:
        if chars or keeporiginal or not removestops or not tokenize:
            yield from self._classic(
                value,
                positions=positions,
                chars=chars,
                keeporiginal=keeporiginal,
                removestops=removestops,
                start_pos=start_pos,
                start_char=start_char,
                tokenize=tokenize,
                mode=mode,
                **kwargs,
            )
            return
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        first, terms = self.terms(value)
        for offset, term in enumerate(terms):
            token.text = term
            token.boost = 1.0
            token.stopped = False
            if positions:
                token.pos = start_pos + first + offset
            yield token

    def terms(self, value: str) -> tuple[int, list[str]]:
        """The position of the first kept word, and every kept word's term, in order.

        Positions after the first follow it with no gaps (StopFilter's renumbering), so
        a term's place in the list plus that first position is its position.
        """
        terms = self._terms
        if len(terms) > _CACHE_LIMIT:
            terms.clear()
        kept: list[str] = []
        first = 0
        for number, word in enumerate(_WORDS(value)):
            term = terms.get(word)  # keyed by the word as written: no lower() per word
            if term is None:
                term = terms[word] = _term(word.lower())
            if term is not _STOP:
                if not kept:
                    first = number
                kept.append(term)  # type: ignore[arg-type]
        return first, kept


class WordsField(TEXT):  # type: ignore[misc]
    """TEXT whose documents are indexed from FoldedStemmingAnalyzer.terms, no Tokens.

    whoosh builds each distinct term's (bytes, frequency, weight, posting) by pushing a
    Token per word through the analyzer and the format; here they come from one list of
    terms, encoded by the field's own format, so the postings are the same bytes.
    Queries still go through the analyzer.
    """

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        analyzer = self.analyzer
        if not isinstance(value, str) or not isinstance(analyzer, FoldedStemmingAnalyzer):
            yield from super().index(value, **kwargs)
            return
        first, terms = analyzer.terms(value)
        boost = self.format.field_boost
        if isinstance(self.format, Positions):
            places: dict[str, list[int]] = {}
            for offset, term in enumerate(terms, start=first):
                places.setdefault(term, []).append(offset)
            encode = self.format.encode
            for term, positions in places.items():
                count = len(positions)
                yield term.encode("utf-8"), count, count * boost, encode(positions)
        else:
            for term, count in Counter(terms).items():
                yield term.encode("utf-8"), count, count * boost, pack_uint(count)


def index_term(word: str) -> str | None:
    """The term the index holds for a word (None for a stop word)."""
    term = _term(word.lower())
    return None if term is _STOP else str(term)


def _term(word: str) -> object:
    if len(word) < 2 or word in STOP_WORDS:
        return _STOP
    return stem(word).translate(accent_map)

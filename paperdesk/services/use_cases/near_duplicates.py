"""Near-duplicates: the same paper whose text is spelled a little differently.

Exact keys (services/use_cases/matching.py) miss a paper whose abstract had a typo fixed, says
`3.5×` where another source says `$3.5\\times$`, or carries HTML or different line
breaks. Here two papers are compared by rapidfuzz's normalised Indel similarity of what
a reader sees: the plain text of the abstract (paperdesk.text), lower-cased with
punctuation dropped, with the title in front when both papers have a real one.
Records without an abstract are left to the exact title key: short strings with a
small edit ("Attention is (not) all you need") are too often different papers.

Comparing every pair is quadratic, so papers are compared only within blocks: two
papers share a block when they share a clause of their abstract (text between `.`,
`,`, `;`, `:`, `?`, `!`, compared without case or whitespace, 30 characters or more),
or its first or last 40 characters. A typo fix or a LaTeX spelling changes a clause or
two and leaves the rest as they were. A block holding more than MAX_BLOCK papers is
boilerplate ("Experiments show that") and is skipped. Blocking costs a `lower`, a few
`replace` and a `split` per abstract; only the few candidates get plain text.

The threshold was chosen on ../shared/data/corpus.jsonl (13,417 real abstracts), see
bench/bench_near_duplicates.py. Every abstract against itself with two transposed
letters: 99% score >= 0.996; missed only 3 abstracts too short to compare. Against its
LaTeX converted to Unicode by pylatexenc (harsher than real sources: unknown macros
vanish): 99% score >= 0.97, 7 of 3,170 below 0.95. The most similar pair of
*different* papers within blocks, two UAI proceedings prefaces sharing boilerplate,
scores 0.944 on the abstracts alone and 0.895 with their titles. Pairs between 0.85
and 0.95 are nearly all workshop and conference versions of one work: `paperdesk
duplicates` offers them with their score; import never merges them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.utils import default_process

from paperdesk.core.evidence import MATCH_THRESHOLD
from paperdesk.core.models import PaperRecord
from paperdesk.core.text import collapse_whitespace
from paperdesk.text import to_plain

log = logging.getLogger(__name__)

#: A block key shared by more papers than this is boilerplate, not evidence.
MAX_BLOCK = 50
#: Shorter abstracts ("Withdrawn.", "See the paper.") say too little to compare.
MIN_ABSTRACT_CHARS = 100
_MIN_CLAUSE_CHARS = 30
_CLAUSE_SEPARATORS = (",", ";", ":", "?", "!")
_EDGE_CHARS = 40


def block_keys(abstract: str) -> set[str]:
    """Keys of the blocks an abstract belongs to (empty when it is too short to compare)."""
    text = abstract.lower()
    for blank in (" ", "\n", "\t", "\r", "\xa0"):
        text = text.replace(blank, "")
    if len(text) < MIN_ABSTRACT_CHARS:
        return set()
    for separator in _CLAUSE_SEPARATORS:
        text = text.replace(separator, ".")
    keys = {clause for clause in text.split(".") if len(clause) >= _MIN_CLAUSE_CHARS}
    keys.add("^" + text[:_EDGE_CHARS])
    keys.add("$" + text[-_EDGE_CHARS:])
    return keys


def comparable(text: str) -> str:
    """What similarity is measured on: plain text, lower case, words and single spaces."""
    return collapse_whitespace(default_process(to_plain(text)))


@dataclass(frozen=True)
class _Entry:
    title: str  # "" when the title is derived: a derived title says nothing new
    abstract: str


class NearDuplicateIndex:
    """Papers by block, and the fuzzy comparison of papers that share a block."""

    def __init__(self, threshold: float = MATCH_THRESHOLD) -> None:
        self.threshold = threshold
        self._entries: dict[int, _Entry] = {}
        self._blocks: dict[str, list[int]] = {}
        self._comparable: dict[int, tuple[str, str]] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def add(self, paper_id: int, title: str, abstract: str) -> None:
        """Index a paper; `title` is "" when the paper has no real title."""
        keys = block_keys(abstract)
        if not keys:
            return
        self._entries[paper_id] = _Entry(title, abstract)
        for key in keys:
            self._blocks.setdefault(key, []).append(paper_id)

    def best_match(self, title: str, abstract: str) -> tuple[int, float] | None:
        """The indexed paper most similar to this text, if any reaches the threshold."""
        candidates = dict.fromkeys(
            paper_id
            for key in block_keys(abstract)
            for paper_id in self._blocks.get(key, ())
            if len(self._blocks[key]) <= MAX_BLOCK
        )
        if not candidates:
            return None
        probe = (comparable(title) if title else "", comparable(abstract))
        best: tuple[int, float] | None = None
        for paper_id in candidates:
            score = self._score(probe, self._comparable_of(paper_id))
            if score and (best is None or score > best[1]):
                best = (paper_id, score)
        return best

    def similar_pairs(self) -> Iterator[tuple[int, int, float]]:
        """Every pair of indexed papers sharing a block and reaching the threshold."""
        seen: set[tuple[int, int]] = set()
        for members in self._blocks.values():
            if not 2 <= len(members) <= MAX_BLOCK:
                continue
            for position, first in enumerate(members):
                for second in members[position + 1 :]:
                    pair = (min(first, second), max(first, second))
                    if pair in seen:
                        continue
                    seen.add(pair)
                    score = self._score(self._comparable_of(first), self._comparable_of(second))
                    if score:
                        yield (*pair, score)

    def _comparable_of(self, paper_id: int) -> tuple[str, str]:
        found = self._comparable.get(paper_id)
        if found is None:
            entry = self._entries[paper_id]
            found = (comparable(entry.title) if entry.title else "", comparable(entry.abstract))
            self._comparable[paper_id] = found
        return found

    def _score(self, first: tuple[str, str], second: tuple[str, str]) -> float:
        """Similarity in [0, 1], or 0.0 below the threshold (rapidfuzz stops early then)."""
        if first[0] and second[0]:
            left, right = f"{first[0]} {first[1]}", f"{second[0]} {second[1]}"
        else:
            left, right = first[1], second[1]
        return fuzz.ratio(left, right, score_cutoff=self.threshold * 100) / 100


def real_title(title: str, title_is_derived: bool) -> str:
    return "" if title_is_derived else title


TextRows = Iterable[tuple[int, str, bool, str]]


class ImportNearDuplicates:
    """Near-duplicate lookup during one import, among the library's papers.

    The library is read only when the first record fails its exact keys, so re-importing
    a file costs nothing here. A file's own records are not compared with each other:
    two entries of one file whose texts merely look alike are two entries, which
    `paperdesk duplicates` offers if the user wants them joined.
    """

    def __init__(self, library_texts: Callable[[], TextRows]) -> None:
        self._library_texts = library_texts
        self._index: NearDuplicateIndex | None = None

    def find(self, record: PaperRecord) -> tuple[int, float] | None:
        """The most similar library paper and its similarity, if any reaches the threshold."""
        index = self._loaded()
        if not len(index):  # an empty library: nothing to compare the text with
            return None
        return index.best_match(real_title(record.title, record.title_is_derived), record.abstract)

    def _loaded(self) -> NearDuplicateIndex:
        if self._index is None:
            self._index = NearDuplicateIndex(MATCH_THRESHOLD)
            for paper_id, title, derived, abstract in self._library_texts():
                self._index.add(paper_id, real_title(title, derived), abstract)
            log.info("near-duplicate index: %d library papers", len(self._index))
        return self._index

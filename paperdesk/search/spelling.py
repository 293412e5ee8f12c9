""" "Did you mean": each word of a query the index lacks, replaced by the nearest it holds.

whoosh's corrector compared every word of the vocabulary with each word of the query
in Python (1.5-2.2 s of CPU per 0-hit query at 13,417 papers), and gave none for a
query typed in the window (the word being typed is an OR of a prefix and stems, which
it does not correct). Here the query's own text is corrected word by word: a word whose
term no document holds is replaced by the term of the most documents among the nearest
(rapidfuzz over the Vocabulary: milliseconds), the rest of the text kept as typed.
The replacements are index terms, stems (`diffus`): services/use_cases/searching.py shows them
as the words papers use (diffusion).
"""

from __future__ import annotations

import re

from rapidfuzz.distance import OSA
from whoosh.searching import Searcher

from paperdesk.core import fields
from paperdesk.search.analysis import index_term
from paperdesk.search.query import FREE_TEXT_FIELDS, field_named
from paperdesk.search.vocabulary import Vocabulary

#: Queries of more words get no suggestion (each word is a scan of the vocabulary).
SUGGEST_MAX_WORDS = 6
# A word (optionally `field:word`) outside quotes, not next to a wildcard or fuzzy mark.
_WORD = re.compile(
    r"(?<![\w*?~:])(?:(?P<field>[A-Za-z_][\w-]*):)?(?P<word>[^\W\d_]{2,})(?![\w*?~:])"
)
#: How many times more papers a word one edit further must be in, to be preferred.
EDIT_WEIGHT = 20
_OPERATORS = {"AND", "OR", "NOT", "TO", "ANDNOT", "ANDMAYBE"}


def suggest(searcher: Searcher, vocabulary: Vocabulary, text: str) -> str | None:
    """The text with its unknown words replaced by near index terms, or None when no
    word is unknown, none has a near term, or the query is too long to correct."""
    if len(text.split()) > SUGGEST_MAX_WORDS or text.count('"') % 2:
        return None
    changed = False

    def corrected(match: re.Match[str]) -> str:
        nonlocal changed
        replacement = _nearest(searcher, vocabulary, match["field"], match["word"])
        if replacement is None:
            return match.group()
        changed = True
        return f"{match['field']}:{replacement}" if match["field"] else replacement

    # Phrases are left as typed: their words are corrected outside quotes only.
    parts = re.split(r'("[^"]*")', text)
    result = "".join(part if part.startswith('"') else _WORD.sub(corrected, part) for part in parts)
    return result if changed else None


def _nearest(
    searcher: Searcher, vocabulary: Vocabulary, field_name: str | None, word: str
) -> str | None:
    """The index term for a word no document holds, or None (a known word, an operator,
    a stop word, a field without words, nothing near)."""
    if word in _OPERATORS:
        return None
    field = field_named(field_name or fields.DEFAULT_QUERY_FIELD)
    term = index_term(word)
    if field not in FREE_TEXT_FIELDS or term is None or searcher.doc_frequency(field, term):
        return None
    # One edit for short words (`rnm` -> rnn), two for longer ones (`difusion` -> diffus).
    distance = 1 if len(term) <= 4 else 2
    near = vocabulary.near(searcher, field, term, distance)
    if not near:
        return None
    # Each edit counts as much as EDIT_WEIGHT times fewer papers: the stems of rare
    # words are often one edit nearer than the stem of the common word meant
    # (`convolutonal` -> "convoluton": "convolution" of 1 paper, "convolut" of 946).
    return max(near, key=lambda found: (near[found] / EDIT_WEIGHT ** _edits(term, found), found))


def _edits(word: str, other: str) -> int:
    return int(OSA.distance(word, other))

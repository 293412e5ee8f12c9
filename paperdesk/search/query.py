"""Query parsing: whoosh's own parser and plugins, plus checks that give readable errors.

whoosh is lenient (it silently drops what it cannot parse), which hides typos from a
user. The checks here reject what would otherwise surprise: unknown fields, unbalanced
quotes or parentheses, non-numbers in numeric fields, queries that reduce to nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache

from whoosh import query as wq
from whoosh.qparser import FieldAliasPlugin, FuzzyTermPlugin, GtLtPlugin, QueryParser
from whoosh.support.charset import accent_map

from paperdesk.core import fields
from paperdesk.core.errors import QueryError
from paperdesk.core.fields import FieldType
from paperdesk.search.schema import POSITIONAL_FIELD, build_schema

_FIELD_PREFIX = re.compile(r"(?:^|(?<=[\s(]))(?P<name>[A-Za-z_][\w-]*):")
# `year:2024..2025`, `year:2024..`, `year:..2020`: beets-style ranges users expect.
_DOTTED_RANGE = re.compile(r"\b(?P<field>\w+):(?P<low>\d*)\.\.(?P<high>\d*)(?![\w.])")
_NUMERIC_VALUE = re.compile(
    rf"\b(?P<field>{'|'.join(sorted(fields.numeric_query_names()))}):"
    r"(?P<value>[\[{]|(?:>=|<=|>|<|=)?[^\s()\[\]{}]*)",
    re.IGNORECASE,
)
# Limits on what one query may ask: past them whoosh takes seconds (an 8,000-letter
# word to stem, hundreds of prefixes to expand) or overflows Python's stack (nesting).
MAX_WORD = 100
MAX_WORDS = 200
MAX_EXPANDING = 20  # prefix*, wild?card and fuzzy~ terms, each a scan of the vocabulary
MAX_DEPTH = 20
MAX_NUMBER = 2**31 - 1  # years and ratings are indexed as 32-bit numbers
_EXPANDING = re.compile(r"[*?]|~\d*(?=\s|\)|$)")
# Words of these fields are what a reader sees in the abstract: they are highlighted.
FREE_TEXT_FIELDS = {field.name for field in fields.query_fields() if field.type == FieldType.TEXT}

CHEAT_SHEET = """\
words            all words must appear (stemmed: training finds trained)
"a phrase"       the words in this order
a OR b, NOT a    boolean operators (AND is implied); group with ( )
train*  mamba~   prefix and fuzzy (one typo) matches
title:x author:x note:x   search one field only
tag:rnn          a tag (tag:ml also finds ml/rnn); status:to-read
venue:icml  year:2025  year:2024..2025  rating:>=4
in:"reading group"        papers in a shortlist"""


@lru_cache(maxsize=1)
def _parser() -> QueryParser:
    parser = QueryParser(fields.DEFAULT_QUERY_FIELD, build_schema())
    parser.add_plugin(FuzzyTermPlugin())
    parser.add_plugin(GtLtPlugin())
    # Names users type for a field: `in:` reads better than `shortlist:`.
    parser.add_plugin(FieldAliasPlugin(fields.query_aliases()))
    return parser


def parse_query(text: str) -> wq.Query:
    """Parse a user's query or raise QueryError with a one-line explanation."""
    text = text.strip()
    if not text:
        raise QueryError("the query is empty")
    _check_balance(text)
    _check_size(text)
    text = _DOTTED_RANGE.sub(_dotted_to_whoosh_range, text)
    _check_fields(text)
    _check_numbers(text)
    try:
        parsed = _parser().parse(text)
    except (IndexError, ValueError, TypeError, RecursionError) as error:
        # whoosh's parser fails like this on stray operators (`NOT NOT x`, `<<<`, `> a`).
        raise QueryError(
            f"cannot read {text!r}: an operator (AND, OR, NOT, <, >) lacks a term"
        ) from error
    if parsed is wq.NullQuery or isinstance(parsed, type(wq.NullQuery)):
        raise QueryError(
            f"nothing to search for in {text!r}: only very common words, "
            "or an operator without a term"
        )
    return parsed.accept(_phrase_in_positional_field)


# The word being typed: the last of the text, no space after it, optionally `field:word`.
_TYPED_WORD = re.compile(r"(?:^|[\s(])(?:(?P<field>[A-Za-z_][\w-]*):)?(?P<word>[^\W\d_]+)$")
_OPERATORS = {"AND", "OR", "NOT", "TO", "ANDNOT", "ANDMAYBE"}
#: Index terms are stems, up to this many letters shorter than a word being typed
#: (`diffusi` -> "diffus", `contrastiv` -> "contrast"), and never under four letters.
_STEM_SHORTER_BY = 2
_STEM_MIN = 4


class TypedPrefix(wq.Prefix):  # type: ignore[misc]
    """The word being typed as the start of longer words: of any length, so it stands
    for its commonest words only (search/expansion.py), never a refusal."""


def with_typed_word(parsed: wq.Query, typed: str) -> wq.Query:
    """Search as you type: the word being typed (the last of `typed`, when no space
    follows it) also matches the start of longer words, so `diffus` finds diffusion and
    `contrastiv` finds contrastive before the word is finished, and `graph n` narrows
    `graph` to the papers with words starting with n (its commonest ones) rather than
    to the few with the word `ne` on the way to `graph neural`.

    The index holds stems (diffusion -> "diffus", contrastive -> "contrast"), so the
    word matches the terms that start with it and the stems it starts with
    (`diffusi` -> "diffus"); the word's own term still matches as before.
    """
    match = _TYPED_WORD.search(typed)
    if match is None or typed.count('"') % 2 or match["word"].upper() in _OPERATORS:
        return parsed
    field = field_named(match["field"] or fields.DEFAULT_QUERY_FIELD)
    word = match["word"].lower().translate(accent_map)
    if field not in FREE_TEXT_FIELDS:
        return parsed
    own = [token.text for token in build_schema()[field].analyzer(word, mode="query")]
    shortest = max(_STEM_MIN, len(word) - _STEM_SHORTER_BY)
    alternatives = [
        TypedPrefix(field, word),
        *(wq.Term(field, word[:end]) for end in range(len(word) - 1, shortest - 1, -1)),
    ]

    def widen(node: wq.Query) -> wq.Query:
        if isinstance(node, wq.Term) and node.fieldname == field and node.text in own:
            return wq.Or([node, *alternatives])
        return node

    if not own:  # a stop word so far (`the` on the way to `theory`): only the prefix
        widened: wq.Query = wq.Or(alternatives)
        return widened if parsed is wq.NullQuery else wq.And([parsed, widened])
    return parsed.accept(widen)


def field_named(name: str) -> str:
    """The index field a typed field name (or one of its aliases) stands for."""
    name = name.lower()
    for field, aliases in fields.query_aliases().items():
        if name in aliases:
            return field
    return name


def _phrase_in_positional_field(node: wq.Query) -> wq.Query:
    """A phrase on a field without positions (`title:"graph neural"`) becomes the phrase
    in `text` (which holds the title, authors and note too) and each word in the field."""
    if isinstance(node, wq.Phrase) and node.fieldname != POSITIONAL_FIELD:
        words = list(node.words)
        phrase = wq.Phrase(POSITIONAL_FIELD, words, slop=node.slop, boost=node.boost)
        return wq.And([phrase, *(wq.Term(node.fieldname, word) for word in words)])
    return node


def highlight_terms(parsed: wq.Query) -> tuple[str, ...]:
    """Words of the free-text fields, to highlight in the abstract (stems, lower case)."""
    terms: dict[str, None] = {}
    for field, value in parsed.iter_all_terms(phrases=True):
        if field in FREE_TEXT_FIELDS and isinstance(value, str):
            terms[value] = None
    return tuple(terms)


def _dotted_to_whoosh_range(match: re.Match[str]) -> str:
    low = match["low"] or ""
    high = match["high"] or ""
    if not low and not high:
        raise QueryError(f"{match.group(0)!r} needs a number on at least one side of '..'")
    return f"{match['field']}:[{' '.join(filter(None, (low, 'TO', high)))}]"


def _check_size(text: str) -> None:
    words = text.split()
    longest = max(words, key=len)
    if len(longest) > MAX_WORD:
        raise QueryError(
            f"a word of {len(longest):,} characters is too long to search for (at most {MAX_WORD})"
        )
    if len(words) > MAX_WORDS:
        raise QueryError(f"{len(words):,} words are too many for one search (at most {MAX_WORDS})")
    expanding = len(_EXPANDING.findall(text))
    if expanding > MAX_EXPANDING:
        raise QueryError(
            f"{expanding} wildcard or fuzzy terms are too many for one search"
            f" (at most {MAX_EXPANDING})"
        )


def _check_balance(text: str) -> None:
    if text.count('"') % 2:
        raise QueryError('a quotation mark (") is not closed')
    depth = 0
    for char in re.sub(r'"[^"]*"', "", text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            raise QueryError("a closing parenthesis has no opening one")
        if depth > MAX_DEPTH:
            raise QueryError(f"parentheses are nested too deep (at most {MAX_DEPTH} levels)")
    if depth:
        raise QueryError("a parenthesis is not closed")


def _check_fields(text: str) -> None:
    outside_quotes = re.sub(r'"[^"]*"', '""', text)
    known = fields.query_names()
    for match in _FIELD_PREFIX.finditer(outside_quotes):
        name = match["name"].lower()
        if name not in known:
            listed = ", ".join(sorted(known))
            raise QueryError(f"unknown field {match['name']!r}; fields are: {listed}")


def _check_numbers(text: str) -> None:
    for match in _NUMERIC_VALUE.finditer(text):
        value = match["value"]
        if value in ("[", "{"):  # a whoosh range; its parser checks the bounds
            continue
        bare = value.lstrip("<>=")
        # isdecimal, not isdigit: superscripts (`year:²`) are digits int() cannot read.
        if not bare.isdecimal():
            field = match["field"].lower()
            example = "year:2025 or year:2024..2025" if field == "year" else "rating:>=4"
            raise QueryError(f"{field} needs a number, not {bare or 'nothing'!r} (e.g. {example})")
        if int(bare) > MAX_NUMBER:
            raise QueryError(f"{match['field'].lower()}:{bare} is out of range")

"""Citation keys: `sun2025learning` from a paper's first author, year and title.

A key pattern is literal key characters mixed with these tokens:

- `{auth}`: the first author's surname, lower case, folded to ASCII letters and digits
  (`Rocktäschel` -> `rocktaschel`, `Laurens van der Maaten` -> `vandermaaten`). With no
  author, or a surname with no Latin letters (`张伟`), it is `anon`.
- `{Auth}`: the same with a capital first letter (`Sun`, `Anon`).
- `{year}`: the four-digit year; empty when the year is unknown.
- `{title}`: the first significant word of the title, lower case: articles,
  prepositions and similar stop words are skipped, LaTeX, HTML and punctuation are
  removed, hyphenated words are joined (`SGSI: Soft-Gated ...` -> `sgsi`,
  `On the $K^2$-means ...` -> `k2means`). Empty when the title has no letters.
- `{veryshorttitle}`: the same as `{title}` (the name JabRef users know).
- `{shorttitle}`: the first three significant words joined (`learningsparsegraphs`).

The default `{auth}{year}{title}` gives `sun2025learning`, and `anon2025sgsi` for an
abstract with a derived title and no authors yet. Keys are unique through `unique_key`,
which appends a, b, ..., z, aa, ab, ... like other reference managers do.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Set
from functools import lru_cache

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import Paper, PaperRecord

DEFAULT_PATTERN = "{auth}{year}{title}"
NO_AUTHOR = "anon"

# Characters a key pattern writes itself (DBLP keys use : and /).
_KEY = re.compile(r"[A-Za-z0-9_\-:.+/]+")
# What bibtex, biber, bibtexparser and LaTeX's \cite refuse in a key (tried with TeX
# Live: `baker*2018`, `(jake)2018`, `o'connor2018` and `Müller2020` all compile and
# resolve): blanks and control characters, the comma and braces that end a key,
# `"` and `=` (bibtexparser), `#` and `%` (TeX parameters and comments), `~` (active)
# and the backslash.
_NOT_IN_A_KEY = re.compile(r'[\s,{}"=#%~\\\x00-\x1f\x7f-\x9f]')

_STOP_WORDS = frozenset(
    """a an and are as at be beyond by can do does for from how in into is it its of on
    or over the to toward towards via what when where which why with without""".split()
)
# Name suffixes that are not the surname ("Martin Luther King Jr.").
_NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv"})

# Latin letters that Unicode does not decompose into an ASCII base letter.
_ASCII_FOLD = str.maketrans(
    {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O", "ł": "l",
     "Ł": "L", "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ı": "i"}
)  # fmt: skip
_HTML_TAG = re.compile(r"<[^<>]*>")
# `\textit`, `\"` (accents) and other LaTeX commands: their names are markup, not words.
_LATEX_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
_NOT_ALPHANUMERIC = re.compile(r"[^a-z0-9\s]+")
_TOKEN = re.compile(r"\{([^{}]*)\}")


def _ascii_words(text: str) -> list[str]:
    """Whitespace-separated words of `text`, lower-case ASCII alphanumerics only."""
    text = _LATEX_COMMAND.sub("", _HTML_TAG.sub(" ", text)).translate(_ASCII_FOLD)
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _NOT_ALPHANUMERIC.sub("", folded.lower()).split()


def surname(name: str) -> str:
    """The family name of a "First von Last" (or "Last, First") author, as written."""
    if "," in name:
        return name.split(",", 1)[0].strip()
    words = name.split()
    while len(words) > 1 and "".join(_ascii_words(words[-1])) in _NAME_SUFFIXES:
        words.pop()
    start = len(words) - 1
    # Lower-case particles before the last word belong to it, as in BibTeX's "von"
    # part: "Laurens van der Maaten" and "de la Fuente" (no given name).
    while start > 0 and words[start - 1][:1].islower():
        start -= 1
    return " ".join(words[start:])


def _author_part(paper: Paper | PaperRecord) -> str:
    folded = "".join(_ascii_words(surname(paper.authors[0]))) if paper.authors else ""
    return folded or NO_AUTHOR


def _significant_words(title: str, count: int) -> str:
    words = [w for w in _ascii_words(title) if re.search("[a-z]", w)]
    significant = [w for w in words if w not in _STOP_WORDS] or words
    return "".join(significant[:count])


_TOKENS: dict[str, Callable[[Paper | PaperRecord], str]] = {
    "auth": _author_part,
    "Auth": lambda paper: _author_part(paper).capitalize(),
    "year": lambda paper: str(paper.year) if paper.year else "",
    "title": lambda paper: _significant_words(paper.title, 1),
    "veryshorttitle": lambda paper: _significant_words(paper.title, 1),
    "shorttitle": lambda paper: _significant_words(paper.title, 3),
}


@lru_cache(maxsize=16)
def _parse_pattern(pattern: str) -> tuple[tuple[bool, str], ...]:
    """Split a pattern into (is_token, text) parts, or raise InvalidValueError."""
    parts: list[tuple[bool, str]] = []
    position = 0
    for match in _TOKEN.finditer(pattern):
        parts.append((False, pattern[position : match.start()]))
        parts.append((True, match.group(1)))
        position = match.end()
    parts.append((False, pattern[position:]))
    known = ", ".join(f"{{{name}}}" for name in _TOKENS)
    for is_token, text in parts:
        if is_token and text not in _TOKENS:
            raise InvalidValueError(f"unknown key pattern token {{{text}}}; use {known}")
        if not is_token and text and not _KEY.fullmatch(text):
            raise InvalidValueError(
                f"key pattern {pattern!r} has characters a citation key cannot hold "
                f"in {text!r}; tokens are {known}"
            )
    if not any(is_token for is_token, _ in parts):
        raise InvalidValueError(f"key pattern {pattern!r} has no token; use {known}")
    return tuple(part for part in parts if part[1])


def check_pattern(pattern: str) -> None:
    """Raise InvalidValueError with a readable reason when `pattern` is not usable."""
    _parse_pattern(pattern)


def make_key(paper: Paper | PaperRecord, pattern: str = DEFAULT_PATTERN) -> str:
    """The key `pattern` gives `paper`, before making it unique (see module doc)."""
    key = "".join(
        _TOKENS[text](paper) if is_token else text for is_token, text in _parse_pattern(pattern)
    )
    return key or NO_AUTHOR


def is_valid_key(key: str) -> bool:
    """True for a key that BibTeX, biber and LaTeX's \\cite all accept unchanged."""
    return bool(key) and not _NOT_IN_A_KEY.search(key)


def _suffix(number: int) -> str:
    """0 -> a, 25 -> z, 26 -> aa, 27 -> ab: spreadsheet-column style letters."""
    letters = ""
    number += 1
    while number:
        number, remainder = divmod(number - 1, 26)
        letters = chr(ord("a") + remainder) + letters
    return letters


def unique_key(base: str, taken: Set[str]) -> str:
    """`base`, or `base` with the first free suffix a, b, ..., z, aa, ab, ...

    Keys are compared case-insensitively, as BibTeX and pybtex do, so `taken` must
    hold casefolded keys (`{key.casefold() for key in keys}`).
    """
    return _first_free(base, taken, 0)[0]


def _first_free(base: str, taken: Set[str], start: int) -> tuple[str, int]:
    """The first free key of `base`, `base`a, `base`b... from the `start`-th on, and its
    place in that sequence."""
    number = start
    candidate = base if number == 0 else base + _suffix(number - 1)
    while candidate.casefold() in taken:
        candidate = base + _suffix(number)
        number += 1
    return candidate, number


def assign_keys(
    papers: Iterable[Paper | PaperRecord],
    pattern: str = DEFAULT_PATTERN,
    taken: Iterable[str] = (),
) -> list[str]:
    """One unique key per paper, in order: its own key if valid, else a new one.

    Papers' own keys are claimed first, so a generated key never pushes a stored key
    aside; a duplicate or invalid own key is replaced by a generated one. `taken`
    names keys already used elsewhere (they are not handed out).
    """
    papers = list(papers)
    used = {key.casefold() for key in taken}
    keys: list[str | None] = []
    for paper in papers:
        own = paper.citation_key
        if own and is_valid_key(own) and own.casefold() not in used:
            used.add(own.casefold())
            keys.append(own)
        else:
            keys.append(None)
    # Where the search for a free suffix of each base stopped: the keys before it stay
    # taken, so the next paper of that base starts there (10,000 keyless papers of one
    # base, `anon2025learning`, would otherwise try 50 million keys).
    passed: dict[str, int] = {}
    result = []
    for paper, key in zip(papers, keys, strict=True):
        if key is None:
            base = make_key(paper, pattern)
            key, passed[base] = _first_free(base, used, passed.get(base, 0))
            used.add(key.casefold())
        result.append(key)
    return result

"""Titles that keep their capitals when a bibliography style lower-cases them.

Styles such as `plain` print titles in sentence case, lower-casing every letter that is
not inside braces. Words a style must not lower-case are wrapped in braces: acronyms and
CamelCase (`{SGSI}`, `{MoE}`), letters with digits (`{3D}`), math (`{$K^2$}`) and, in a
sentence-case title, every capitalised word after the first (they are names), in a
title-case title only the names that ML titles use (`{Gaussian}`, `{Markov}`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperdesk.text.latex_escape import CLOSE, FIXED, MATH, OPEN, TEXT, Token

# Words Title Case leaves in lower case: they say nothing about a title's case.
_MINOR_WORDS = frozenset(
    "a an and as at but by for from in into nor of on or over per than the to via vs with".split()
)
# Names common in ML titles that lower-casing styles would spoil even in "Title Case".
_PROPER_NOUNS = frozenset(
    """Bayes Bayesian Bellman Bernoulli Boltzmann Brownian Dirichlet Euclidean Fisher
    Fourier Gaussian Gibbs Hamiltonian Hessian Hilbert Kalman Kullback Lagrangian Langevin
    Laplace Laplacian Leibler Lipschitz Markov Markovian Monte Carlo Nash Nesterov Newton
    Poisson Riemannian Shapley Sobolev Stein Thompson Wasserstein Wiener""".split()
)
_WORD = re.compile(r"[^\W_]+")
_ACCENTS = frozenset(('\\"', "\\'", "\\`", "\\^", "\\~", "\\=", "\\."))
_SENTENCE_END = re.compile(r"[:.?!]\s*$")


@dataclass(frozen=True)
class _TitleWord:
    token: Token
    match: re.Match[str]
    starts_part: bool  # first word of the title or of a subtitle: capitalised anyway
    in_compound: bool  # after a hyphen, where title case may stay lower case

    @property
    def text(self) -> str:
        return self.match.group(0)


def _title_words(tokens: list[Token]) -> list[_TitleWord]:
    """The words outside braces and math, in order.

    A word right after an accent (`\\'Ecole`) is left out: braces there would put the
    accent on the whole word.
    """
    words = []
    depth = 0
    starts_part = True
    previous = Token(FIXED, "")
    for token in tokens:
        if token.kind == OPEN:
            depth += 1
        elif token.kind == CLOSE:
            depth -= 1
        if depth == 0 and token.kind == TEXT:
            position = 0
            for match in _WORD.finditer(token.text):
                before = token.text[position : match.start()]
                starts_part = starts_part or bool(_SENTENCE_END.search(before))
                if match.start() or previous.text not in _ACCENTS:
                    words.append(_TitleWord(token, match, starts_part, before.endswith("-")))
                starts_part = False
                position = match.end()
            starts_part = starts_part or bool(_SENTENCE_END.search(token.text[position:]))
        elif token.kind != FIXED:
            starts_part = False
        previous = token
    return words


def _has_capital(text: str) -> bool:
    return text != text.lower()


def _is_sentence_case(words: list[_TitleWord]) -> bool:
    """True when the plain words after the first are mostly lower case."""
    telling = [
        word.text
        for word in words
        if not (word.starts_part or word.in_compound)
        and len(word.text) > 1
        and word.text.isalpha()
        and word.text.lower() not in _MINOR_WORDS
        and not _has_capital(word.text[1:])
    ]
    capitalised = sum(text[0].isupper() for text in telling)
    return 0 < len(telling) - capitalised >= capitalised


def _needs_protection(word: _TitleWord, sentence_case: bool) -> bool:
    text = word.text
    if _has_capital(text[1:]):  # SGSI, MoE, iPhone, 3D
        return True
    if not text[0].isupper() or word.starts_part:
        return False
    if len(text) == 1 or not text.isalpha():  # Option A, K2 (words are letters and digits)
        return True
    return sentence_case or text in _PROPER_NOUNS


def protect_title(tokens: list[Token]) -> None:
    """Wrap words a bibliography style must not lower-case in braces, in place.

    In a sentence-case title every capital after the first word is a name; in a
    title-case title only acronyms, CamelCase, letters with digits and known names are.
    """
    words = _title_words(tokens)
    sentence_case = _is_sentence_case(words)
    protect: dict[int, list[re.Match[str]]] = {}
    for word in words:
        if _needs_protection(word, sentence_case):
            protect.setdefault(id(word.token), []).append(word.match)
    depth = 0
    for token in tokens:
        if token.kind == OPEN:
            depth += 1
        elif token.kind == CLOSE:
            depth -= 1
        elif token.kind == MATH and depth == 0:
            token.text = "{" + token.text + "}"  # BibTeX would lower-case $K^2$ too
        elif id(token) in protect:
            pieces, position = [], 0
            for match in protect[id(token)]:
                pieces += [token.text[position : match.start()], "{", match.group(0), "}"]
                position = match.end()
            token.text = "".join(pieces) + token.text[position:]

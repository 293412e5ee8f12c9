"""Normalising text and fingerprints: two spellings of one paper must meet, others not."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paperdesk.core.text import collapse_whitespace, fingerprint, normalise_for_matching


@pytest.mark.parametrize(
    ("text", "collapsed"),
    [
        ("  Learning\n  sparse\tgraphs  ", "Learning sparse graphs"),
        ("one", "one"),
        ("", ""),
        (" \n\t ", ""),
        ("no\u00a0break", "no break"),  # a non-breaking space copied from a web page
    ],
)
def test_collapse_whitespace(text: str, collapsed: str) -> None:
    assert collapse_whitespace(text) == collapsed


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Rocktäschel", "Rocktaschel"),
        ("Attention Is All You Need.", "attention is all you need"),
        ("Learning\nsparse  graphs", "Learning sparse graphs"),
        ("Gradient-free  optimisation", "gradient free optimisation"),
        ("ﬁne-tuning", "fine tuning"),  # a ligature from a PDF
        ("Écoles", "ecoles"),
    ],
)
def test_two_spellings_of_one_text_normalise_alike(one: str, other: str) -> None:
    assert normalise_for_matching(one) == normalise_for_matching(other)


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Learning sparse graphs", "Learning dense graphs"),
        ("GPT-2", "GPT-3"),
        ("图神经网络", "神经网络"),
    ],
)
def test_different_texts_stay_different(one: str, other: str) -> None:
    assert normalise_for_matching(one) != normalise_for_matching(other)


def test_latex_is_not_read_here_braces_and_backslashes_just_vanish() -> None:
    assert normalise_for_matching('Rockt{\\"a}schel {GAN}s') == "rockt a schel gan s"


def test_normalised_text_is_lower_case_words_with_single_spaces() -> None:
    assert normalise_for_matching("  The $O(n)$ {\\em Bound}, revisited! ") == (
        "the o n em bound revisited"
    )


def test_a_fingerprint_follows_the_abstract_not_the_title() -> None:
    abstract = "We study sparse graphs."

    assert fingerprint("A derived title", abstract) == fingerprint("The real title", abstract)
    assert fingerprint("T", abstract) == fingerprint("T", " we  study sparse GRAPHS ")
    assert fingerprint("T", abstract) != fingerprint("T", "We study dense graphs.")


def test_without_an_abstract_the_title_is_the_fingerprint() -> None:
    assert fingerprint("Sparse Graphs", "") == fingerprint("sparse graphs.", "  ")
    assert fingerprint("Sparse Graphs", "") != fingerprint("Dense Graphs", "")


def test_a_fingerprint_is_a_sha1_hex_digest() -> None:
    digest = fingerprint("Title", "Abstract")

    assert len(digest) == 40
    assert int(digest, 16) >= 0


@given(st.text(max_size=60))
def test_normalising_is_idempotent(text: str) -> None:
    once = normalise_for_matching(text)

    assert normalise_for_matching(once) == once
    assert collapse_whitespace(collapse_whitespace(text)) == collapse_whitespace(text)


def _accents_removed_character_by_character(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(re.findall(r"[^\W_]+", kept.casefold()))


@pytest.mark.parametrize(
    "text",
    [
        "Rocktäschel, Müller and Ñúñez",
        "e\u0301te\u0301 a\u0300 Orsay",  # marks after ASCII letters
        "ﬁnite Ⅻ ²",  # compatibility forms
        "한국어 논문 שָׁלוֹם नमस्ते",  # Hangul, Hebrew points, Devanagari signs
        "".join(chr(c) for c in range(0x80, sys.maxunicode + 1) if not 0xD800 <= c < 0xE000),
    ],
)
def test_accents_go_as_a_test_of_every_character_would_remove_them(text: str) -> None:
    assert normalise_for_matching(text) == _accents_removed_character_by_character(text)


@given(st.text(st.characters(max_codepoint=0x7F)) | st.text())
def test_normalising_gives_the_words_of_the_text_without_accents(text: str) -> None:
    # ASCII text is translated rather than searched by the regex: the same words.
    assert normalise_for_matching(text) == _accents_removed_character_by_character(text)

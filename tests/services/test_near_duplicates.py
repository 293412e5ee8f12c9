"""Near-duplicates: spelling variants of one abstract match, different papers do not."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from paperdesk.core.evidence import SUGGEST_THRESHOLD
from paperdesk.services.use_cases.near_duplicates import (
    MATCH_THRESHOLD,
    MAX_BLOCK,
    NearDuplicateIndex,
    block_keys,
)
from tests.services.conftest import SEEDS

TTT = (
    "Self-attention performs well in long context but has quadratic complexity. Existing "
    "RNN layers have linear complexity, but their performance in long context is limited by "
    "the expressive power of their hidden states. We present a practical framework for "
    "instantiating sequence modeling layers with linear complexity and expressive hidden "
    "states. The key idea is to make the hidden state a machine learning model itself, and "
    "the update rule a step of self-supervised learning. Since the hidden state is updated by "
    "training even on test sequences, our layers are called Test-Time Training (TTT) layers."
)
SCALING = (
    "Scaling laws are powerful tools to predict the performance of large language models. "
    "However, current scaling laws fall short of accounting for inference costs. In this "
    "work, we first show that model architecture affects inference latency, where models of "
    "the same size can have up to $3.5\\times$ difference in latency. We release the Morph-1B "
    "model, which improves inference latency by $1.8\\times$ while maintaining accuracy on "
    "downstream tasks compared to open-source models."
)


def seed_abstracts() -> list[str]:
    text = SEEDS[0].read_text(encoding="utf-8")
    return [p.strip() for p in text.split("\n\n")[1:] if p.strip()]


def index_of(*abstracts: str, threshold: float = MATCH_THRESHOLD) -> NearDuplicateIndex:
    index = NearDuplicateIndex(threshold)
    for paper_id, abstract in enumerate(abstracts, start=1):
        index.add(paper_id, "", abstract)
    return index


@pytest.mark.parametrize(
    "variant",
    [
        pytest.param(TTT.replace("quadratic", "quadartic"), id="typo"),
        pytest.param(TTT.replace("expressive power", "expresive power"), id="typo-fixed-other"),
        pytest.param(
            TTT.replace(". ", ".\n").replace("hidden states", "hidden\nstates"), id="lines"
        ),
        pytest.param(TTT.replace("Test-Time Training", "<em>Test-Time Training</em>"), id="html"),
        pytest.param(TTT.replace("Test-Time", "{T}est-{T}ime"), id="bibtex-braces"),
    ],
)
def test_spelling_variants_of_an_abstract_match_it(variant: str) -> None:
    found = index_of(*seed_abstracts(), TTT).best_match("", variant)
    assert found is not None
    paper_id, score = found
    assert paper_id == len(seed_abstracts()) + 1 and score >= MATCH_THRESHOLD


def test_latex_and_unicode_spellings_match() -> None:
    unicode = SCALING.replace("$3.5\\times$", "3.5×").replace("$1.8\\times$", "1.8×")
    assert index_of(SCALING).best_match("", unicode) is not None
    accented = "Rockt{\\\"a}schel and G{\\'e}ron show " + TTT
    assert index_of(accented).best_match("", "Rocktäschel and Géron show " + TTT) is not None


def test_two_papers_sharing_boilerplate_do_not_match() -> None:
    boilerplate = " Code and data are available at our project page on GitHub for everyone."
    first, second = seed_abstracts()[:2]
    index = index_of(first + boilerplate)
    # They share a block (the boilerplate sentence) and are compared, but score low.
    assert block_keys(first + boilerplate) & block_keys(second + boilerplate)
    assert index.best_match("", second + boilerplate) is None


def test_real_titles_count_only_when_both_papers_have_one() -> None:
    index = NearDuplicateIndex()
    index.add(1, "", TTT)  # a seed paper: its title is derived
    found = index.best_match("Learning to (Learn at Test Time): RNNs", TTT)
    assert found is not None and found[1] == 1.0
    index = NearDuplicateIndex()
    index.add(1, "A Completely Different Title About Graph Neural Networks", TTT)
    found = index.best_match("Learning to (Learn at Test Time): RNNs", TTT)
    assert found is not None and found[1] < 1.0


def test_short_abstracts_are_never_compared() -> None:
    index = index_of("Withdrawn.", "This paper was withdrawn by the authors.")
    assert index.best_match("", "Withdrawn.") is None
    assert list(index.similar_pairs()) == []


def test_similar_pairs_lists_each_pair_once_with_its_score() -> None:
    abstracts = seed_abstracts()
    typo = abstracts[3].replace(" the ", " teh ", 1)
    pairs = list(index_of(*abstracts, typo).similar_pairs())
    assert len(pairs) == 1
    first, second, score = pairs[0]
    assert (first, second) == (4, len(abstracts) + 1) and MATCH_THRESHOLD <= score < 1.0


def test_a_sentence_shared_by_too_many_papers_is_not_a_block() -> None:
    shared = "We thank the anonymous reviewers for their helpful comments on this work."

    def papers(count: int) -> list[str]:
        return [
            f"{shared} Paper {n} studies the topic number {n * 7919} in considerable depth."
            for n in range(count)
        ]

    assert list(index_of(*papers(10), threshold=0.5).similar_pairs())  # a small block: compared
    assert list(index_of(*papers(MAX_BLOCK + 1), threshold=0.5).similar_pairs()) == []


def _corpus(corpus_file: Path) -> list[dict[str, object]]:
    with corpus_file.open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines]


def _transpose_two_letters(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) > 5 and w.isalpha()]
    i = rng.choice(long_words)
    j = rng.randrange(len(words[i]) - 1)
    word = words[i]
    words[i] = word[:j] + word[j + 1] + word[j] + word[j + 2 :]
    return " ".join(words)


def test_corpus_typo_variants_find_their_own_paper(corpus_file: Path) -> None:
    papers = _corpus(corpus_file)
    index = NearDuplicateIndex()
    for paper_id, paper in enumerate(papers):
        index.add(paper_id, str(paper["title"]), str(paper["abstract"]))
    rng = random.Random(7)
    for paper_id in rng.sample(range(len(papers)), 200):
        paper = papers[paper_id]
        variant = _transpose_two_letters(str(paper["abstract"]), rng)
        found = index.best_match(str(paper["title"]), variant)
        assert found is not None and found[0] == paper_id, paper["title"]


def test_corpus_prefaces_sharing_boilerplate_are_suggested_never_merged(
    corpus_file: Path,
) -> None:
    prefaces = [
        p
        for p in _corpus(corpus_file)
        if str(p["title"]).startswith(
            ("The 35th Uncertainty in Artificial", "Proceedings of the thirty-seventh")
        )
    ]
    assert len(prefaces) == 2
    for threshold, expected in ((MATCH_THRESHOLD, 0), (SUGGEST_THRESHOLD, 1)):
        for with_titles in (True, False):
            index = NearDuplicateIndex(threshold)
            for paper_id, paper in enumerate(prefaces):
                title = str(paper["title"]) if with_titles else ""
                index.add(paper_id, title, str(paper["abstract"]))
            assert len(list(index.similar_pairs())) == expected

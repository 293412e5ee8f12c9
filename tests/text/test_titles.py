"""Derived titles: every seed abstract read by hand, plus the inputs that break heuristics."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.text import MAX_TITLE_CHARS, UNTITLED, derive_title, to_plain
from tests.conftest import SEEDS_DIR

# Abstracts that introduce a named method, system or dataset: (opening words of the
# abstract, what the title must start with). Where the abstract spells the name out,
# the expansion is part of the expected start.
NAMED = [
    ("Existing methods for inferring latent relational", "SGSI: Soft-Gated Structural Inference"),
    ("In recent years there have been remarkable breakthroughs", "Cavia"),
    (
        "Selecting high-quality candidates from large datasets",
        "mCS: Multivariate Conformal Selection",
    ),
    ("Language model (LLM) post-training can refine", "WildChat-50M"),
    ("Future advanced AI systems may learn", "MONA: Myopic Optimization with Non-myopic Approval"),
    (
        "The progress in materials science and drug discovery",
        "MIPT: Multilevel Informed Prompt-Tuning",
    ),
    ("Cascade Ranking is a prevalent architecture", "LCRON"),
    ("Neural operators have emerged as a promising approach", "HEAP: Hyper Extended Adaptive PDHG"),
    ("Large Language Models (LLMs) matrices can often", "WeLore: Weight Low-Rank Projection"),
    ("While Large Language Models (LLMs) demonstrate impressive", "MathConstruct"),
    ("Mathematical reasoning tasks pose significant challenges", "cDPO"),
    ("Semi-supervised Federated Learning (SSFL) is a promising", "BSemiFL"),
    ("Recently, there has been a surge of interest", "HIGHT: Hierarchical Graph Tokenization"),
    ("Modern machine learning pipelines are increasingly", "MixMin"),
    ("Mixture-of-Experts (MoE) is widely adopted", "Oracle-MoE"),
    ("Federated graph learning (FGL) aims to", "FedATH"),
    ("Machine Learning Interatomic Potentials (MLIPs)", "FlashTP"),
    (
        "Bayesian optimization (BO) with preference-based",
        "BOHF: Bayesian Optimization from Human Feedback",
    ),
    (
        "Transformers rely on both content-based",
        "TAPE: Contextualized Equivariant Position Encoding",
    ),
    ("We propose **DocVXQA**, a novel framework", "DocVXQA"),
    ("Inferring properties of graph-structured data", "GraNT: Graph Nonparametric Teaching"),
    ("Self-attention performs well in long context", "TTT: Test-Time Training"),
    ("Dataset contamination, where evaluation datasets overlap", "KDS: Kernel Divergence Score"),
]

# Abstracts that name no contribution: (opening words, words the title must contain,
# an acronym the abstract defines as background that must not pose as the paper's name).
DESCRIBED = [
    ("Decentralized SGD (D-SGD) is a popular", ("generalization", "D-SGD"), "D-SGD:"),
    (
        "The deployment of mixture-of-experts (MoE)",
        ("serving multiple fine-tuned MoE-LLMs",),
        "MoE:",
    ),
    ("Graph Contrastive Learning (GCL) improves", ("biology-aware graph augmentation",), "GCL"),
    ("Differentiable structure learning of causal", ("ancestral constraints",), "DAG"),
    (
        "We study the problem of learning the topology",
        ("topology", "Gaussian Graphical Model"),
        "We study",
    ),
    ("Dense depth prediction deep neural networks", ("high dynamic range depth", "Hilbert"), "DNN"),
    ("Despite the tremendous success of deep learning", ("contour integration",), "Despite"),
    ("Scaling laws are powerful tools", ("inference-efficient models", "scaling laws"), "Morph"),
    ("Decision trees (DTs) and their random forest", ("product manifolds",), "DT:"),
    (
        "Sampling-based search, a simple paradigm",
        ("sampling-based search", "scaling"),
        "Sampling-based search,",
    ),
    ("Large Language Models (LLMs) have emerged", ("LLMs and FMs",), "LLMs:"),
    (
        "Classical Mixtures of Experts (MoE) are Machine",
        ("Expectation Maximization", "guarantees"),
        "MoE:",
    ),
    (
        "Determining the direction of relationships",
        ("Bayes factor-based intervention",),
        "Determining",
    ),
    (
        "Neural network ensembles have proven effective",
        ("ensemble distribution distillation",),
        "Neural",
    ),
    (
        "Numerous optimization algorithms have a time-varying",
        ("differentiation", "time-varying"),
        "Numerous",
    ),
]


def _seed_abstracts() -> list[str]:
    paragraphs = []
    for seed in sorted(SEEDS_DIR.glob("*.txt")):
        text = seed.read_text(encoding="utf-8")
        paragraphs += [p.strip() for p in re.split(r"\n\s*\n", text)[1:] if p.strip()]
    return paragraphs


SEED_ABSTRACTS = _seed_abstracts()


def _abstract_opening_with(opening: str) -> str:
    matches = [abstract for abstract in SEED_ABSTRACTS if abstract.startswith(opening)]
    assert len(matches) == 1, f"{opening!r} should open exactly one seed abstract"
    return matches[0]


def test_the_tables_cover_every_seed_abstract_once() -> None:
    openings = [opening for opening, *_ in NAMED + DESCRIBED]
    assert len(SEED_ABSTRACTS) == 38
    for abstract in SEED_ABSTRACTS:
        assert sum(abstract.startswith(opening) for opening in openings) == 1, abstract[:60]


@pytest.mark.parametrize(("opening", "expected_start"), NAMED, ids=[n for _, n in NAMED])
def test_a_named_contribution_titles_the_paper(opening: str, expected_start: str) -> None:
    title = derive_title(_abstract_opening_with(opening))

    assert title.startswith(expected_start)
    assert title == expected_start or title[len(expected_start)] == ":"


@pytest.mark.parametrize(
    ("opening", "must_contain", "must_not_start_with"), DESCRIBED, ids=[o for o, *_ in DESCRIBED]
)
def test_an_unnamed_contribution_is_described(
    opening: str, must_contain: tuple[str, ...], must_not_start_with: str
) -> None:
    title = derive_title(_abstract_opening_with(opening))

    for words in must_contain:
        assert words.casefold() in title.casefold()
    assert not title.startswith(must_not_start_with)


def test_descriptions_read_well_when_the_abstract_gives_one() -> None:
    titles = {
        derive_title(abstract).split(":")[0]: derive_title(abstract) for abstract in SEED_ABSTRACTS
    }

    assert titles["DocVXQA"] == "DocVXQA: visually self-explainable document question answering"
    assert titles["Cavia"] == "Cavia: camera-controllable, multi-view video generation"
    assert titles["FlashTP"] == "FlashTP: a highly optimized tensor-product library"


@pytest.mark.parametrize("abstract", SEED_ABSTRACTS, ids=lambda a: a[:30])
def test_every_seed_title_is_clean(abstract: str) -> None:
    title = derive_title(abstract)

    assert title.strip() == title and title
    assert len(title) <= MAX_TITLE_CHARS
    assert not any(markup in title for markup in ("$", "\\", "**", "\\textit"))
    assert title[-1] not in ".,;:"
    assert title.rstrip("…").split()[-1].lower() not in {"and", "of", "the", "a", "to"}


@pytest.mark.parametrize("abstract", ["", "   \n\t ", "$$", "!!! ???", "** ** \\\\"])
def test_a_title_is_never_empty(abstract: str) -> None:
    assert derive_title(abstract) == UNTITLED


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        ("Transformers", "Transformers"),
        ("Transformers.", "Transformers"),
        # math reads as the detail pane shows it (paperdesk.text.to_plain)
        ("$x^2 + y^2 = z^2$", "x² + y² = z²"),
        (
            "Learning halfspaces in $\\mathbb{R}^d$ with noise.",
            "Learning halfspaces in ℝᵈ with noise",
        ),
        # an interval is no citation
        ("Every $f:[0,1]\\to[0,1]$ has a fixed point.", "Every f:[0,1]→[0,1] has a fixed point"),
        (
            "$\\alpha$-divergences give $\\mathcal{O}(n \\log n)$ regret bounds for bandits.",
            "α-divergences give O(n log n) regret bounds for bandits",
        ),
        (
            "本文提出了一种新的图神经网络方法，用于分子性质预测。实验表明该方法优于基线。",
            "本文提出了一种新的图神经网络方法，用于分子性质预测",
        ),
        (
            "Prior work [1, 2] (Smith et al., 2020) shows that sparse attention is enough.",
            "Prior work shows that sparse attention is enough",
        ),
        (
            'Rockt{\\"a}schel et al. studied how models reason, but little is known.',
            "Rocktäschel et al. studied how models reason",
        ),
        (
            "We propose **FooNet**, a novel framework for fast graph search.",
            "FooNet: fast graph search",
        ),
        ("We present a method, called ShapeShift, for deforming meshes.", "ShapeShift"),
        (
            "Large language models hallucinate. We propose Retrieval Augmented Checking (RAC), "
            "which verifies claims.",
            "RAC: Retrieval Augmented Checking",
        ),
        (
            "Decentralized SGD (D-SGD) is a popular method. "
            "We study the generalization of D-SGD under heavy-tailed noise.",
            "Generalization of D-SGD under heavy-tailed noise",
        ),
        (
            "Graph Contrastive Learning (GCL) improves representations. "
            "We propose a new augmentation and test it.",
            "Graph Contrastive Learning (GCL) improves representations",
        ),
    ],
)
def test_edge_inputs(abstract: str, title: str) -> None:
    assert derive_title(abstract) == title


@pytest.mark.parametrize(
    "sentence",
    [
        r"Regret bounds of $\tilde{\mathcal{O}}(\sqrt{T})$ hold for {\em adaptive} bandits.",
        r"Rockt{\"a}schel's \textit{e.g.} \texttt{svds} runs in $O(T^{\frac{2}{3}})$ time.",
        "Transformers <em>learn</em> con**T**extual features&mdash;fast.",
        r"Sampling from $\pi \propto e^{-V}$ on $\mathbb{R}^d$ is hard.",
    ],
)
def test_a_title_reads_as_the_abstract_does(sentence: str) -> None:
    """One text engine: the opening clause of an abstract reads as the abstract shows."""
    assert derive_title(sentence) == to_plain(sentence).removesuffix(".")


def test_a_very_long_first_sentence_is_cut_at_a_word_and_marked() -> None:
    sentence = "Modern " + " ".join(["very large and deeply structured models of the world"] * 12)
    title = derive_title(sentence + ".")

    assert len(title) <= MAX_TITLE_CHARS
    assert title.endswith("…")
    kept = title.removesuffix("…")
    assert sentence.startswith(kept) and sentence[len(kept)] == " "
    assert kept.split()[-1] not in {"and", "of", "the"}


def test_a_word_longer_than_a_title_is_cut_too() -> None:
    title = derive_title("A" * 300)

    assert title == "A" * (MAX_TITLE_CHARS - 1) + "…"


# Pieces of markup and prose that heuristics trip over, in any order.
_PIECES = [
    *"ab AZ$\\*_{}()[].,;:-~^`'\"\n本é",
    "**",
    "$$",
    "\\textbf{",
    "We propose ",
    "(ABC)",
    ", a ",
]


@settings(deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_any_text_gets_a_clean_title(abstract: str) -> None:
    title = derive_title(abstract)

    assert title.strip()
    assert len(title) <= MAX_TITLE_CHARS
    assert "$" not in title and "\\" not in title and "**" not in title

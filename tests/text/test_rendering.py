"""What a reader sees of raw titles and abstracts: real strings from the seeds and corpus."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import paperdesk.text.html
import paperdesk.text.plain
from paperdesk.core.text import collapse_whitespace
from paperdesk.search.highlight import hit_pattern
from paperdesk.text import protect_markup, render, to_html, to_plain
from paperdesk.text.lexer import read_events
from tests.conftest import lines_of
from tests.text.html_checks import assert_safe_html

PLAIN_CASES = [
    # seeds
    (r"improves edge recovery by up to $9$\% AUROC", "improves edge recovery by up to 9% AUROC"),
    (r"scales to larger graphs ($94.2$\% AUROC)", "scales to larger graphs (94.2% AUROC)"),
    (
        r"Prior work has established that $O(d \log n)$ samples",
        "Prior work has established that O(d log n) samples",
    ),
    (r"two variants: $\texttt{mCS-dist}$, using", "two variants: mCS-dist, using"),
    (r"Only at very large scales ($\sim5B$ training", "Only at very large scales (∼5B training"),
    (
        r"employs \textit{similarity-based expert consolidation} to",
        "employs similarity-based expert consolidation to",
    ),
    (r"Projection} \textbf{(WeLore)} that unifies", "Projection (WeLore) that unifies"),
    (
        "we propose con**T**extualized equivari**A**nt **P**osition **E**ncoding (**TAPE**)",
        "we propose conTextualized equivariAnt Position Encoding (TAPE)",
    ),
    (
        "graph-structured data, *e.g.*, the solubility",
        "graph-structured data, e.g., the solubility",
    ),
    (
        "kernel speedups over _e3nn_ and NVIDIA cuEquivariance",
        "kernel speedups over e3nn and NVIDIA cuEquivariance",
    ),
    (r"up to 41.6$\times$ and 60.8$\times$ kernel", "up to 41.6× and 60.8× kernel"),
    (
        r"regret bounds of $\tilde{\mathcal{O}}(\sqrt{\Gamma(T)T})$, where",
        "regret bounds of Õ(√(Γ(T)T)), where",
    ),
    (r"classification (-38.19\%), node-level", "classification (-38.19%), node-level"),
    (r"scores of $0.03-0.15$.", "scores of 0.03-0.15."),
    # corpus
    (r"datasets, \textit{e.g.} RACE.", "datasets, e.g. RACE."),
    (r"the problem of {\em anomaly detection} which", "the problem of anomaly detection which"),
    (r"Variational Schr\"odinger Momentum Diffusion", "Variational Schrödinger Momentum Diffusion"),
    (r"than the \texttt{svds} in Matlab", "than the svds in Matlab"),
    ("four dimensions&mdash;efficiency, validity", "four dimensions—efficiency, validity"),
    (
        r"an algorithm with $O(T^{\frac{2}{3}}\ln T)$ regret",
        "an algorithm with O(T^(2/3)ln T) regret",
    ),
    (r"a factor of $\sqrt{SA/C}$, in any", "a factor of √(SA/C), in any"),
    (r"(AUPR) and $F_{1}$-score.", "(AUPR) and F₁-score."),
    (r"$f:P\times Q\to\mathbb{R}$ is a cost", "f:P× Q→ℝ is a cost"),
    (r"test error of \textcolor{red}{$2.23%$} on CIFAR-10", "test error of 2.23% on CIFAR-10"),
    (
        r"surpasses task-specific models~\citep{UnifiedSKG2022} on 16",
        "surpasses task-specific models [UnifiedSKG2022] on 16",
    ),
    (r"available at \href{https://github.com/ZJUHJ/TRPN}{the repo}.", "available at the repo."),
    (r"This ``inner'' optimization", "This “inner” optimization"),
    ("Delle Rose et al.~(COLT'23) introduce", "Delle Rose et al. (COLT'23) introduce"),
    ("a dataset of ~167k in-patient stays", "a dataset of ~167k in-patient stays"),
    ("at a cost of $5.2K USD, which allows", "at a cost of $5.2K USD, which allows"),
    (
        "costing under $1000 USD for OpenAI’s gpt-3.5-turbo",
        "costing under $1000 USD for OpenAI’s gpt-3.5-turbo",
    ),
    ("($0.23 - $0.27 per image), emphasizing", "($0.23 - $0.27 per image), emphasizing"),
    (r"with probability $1 - δ$. The core", "with probability 1 - δ. The core"),
    (
        "Weight Reparameterization (**WeightRep**) as a way",
        "Weight Reparameterization (WeightRep) as a way",
    ),
    # everyday markup: math, dashes, accents, HTML, entities
    (r"$\alpha$-divergence", "α-divergence"),
    (r"a $K^2$ grid", "a K² grid"),
    ("text---with dashes", "text—with dashes"),
    (r"Rockt{\"a}schel", "Rocktäschel"),
    ("<em>Important</em> and <b>bold</b>", "Important and bold"),
    ("A &amp; B &lt;C&gt;", "A & B <C>"),
    # a bare % is a percent sign: the rest of the line stays
    (
        "brain alignment (~6%), but has\nno similar effect",
        "brain alignment (~6%), but has no similar effect",
    ),
    (r"$x^{\top}$, $W^{-1}$, $e^{-x^2/2}$, $\theta^*$", "xᵀ, W⁻¹, e^(-x²/2), θ*"),
    (r"$\|\theta\|_2$ and $\frac{n}{\log n}$", "‖θ‖₂ and n/(log n)"),
    (r"$\mathbb{E}[X]$ and $\eps$-net", "E[X] and ε-net"),
    ("<think> tags and snake_case_names stay", "<think> tags and snake_case_names stay"),
    # IEEE Xplore's exports wrap the TeX in a title in <tex> (jabref's testjabref.bib)
    (r"X- and <tex>$\gamma$</tex>-Ray Spectroscopy", "X- and γ-Ray Spectroscopy"),
    ("Plain text  with\n  breaks", "Plain text with breaks"),
    # accents written as a macro, a blank, then the letter (jabref, biber examples)
    (r"Delebecque, Fran{\c c}ois", "Delebecque, François"),
    (r"Erd\H os and \H o", "Erdős and ő"),
    (r"{\v S}koda and \v Skoda", "Škoda and Škoda"),
    (r"\k a \u a \r a", "ą ă å"),
    # a symbol accent takes no blank: `\.` before a space is a stray dot
    (r"et. al.\. No composite", "et. al.. No composite"),
    (r"G. {\relax Yu}. Prokhorov", "G. Yu. Prokhorov"),
    # biblatex and csquotes quotations, nested and holding accents
    (
        r"\mkbibquote{Intention} und \mkbibquote{Intentionalit{\"a}t} in der Scholastik",
        "“Intention” und “Intentionalität” in der Scholastik",
    ),
    (r"Abhandlung: \mkbibquote{{\"U}ber den Intellekt}", "Abhandlung: “Über den Intellekt”"),
    (r"said \mkbibquote{a \mkbibquote{b} c}.", "said “a “b” c”."),
    (
        r"are \enquote{sets of individuals}; \enquote{item sets}",
        "are “sets of individuals”; “item sets”",
    ),
    # `~` joining two words is a space; before a number after a blank it means "about"
    (r"see Fig.~3 and Knuth~et al.~2019", "see Fig. 3 and Knuth et al. 2019"),
    ("Donald~E. Knuth", "Donald E. Knuth"),
    ("a gain of (~6%) over ~167k", "a gain of (~6%) over ~167k"),
    (
        r"algorithm, {AOBB-K\textsuperscript{*}}, was competitive with {BBK\textsuperscript{*}}",
        "algorithm, AOBB-K*, was competitive with BBK*",
    ),
    # Markdown emphasis looks past LaTeX braces (BibTeX writers brace words)
    (r"norm $\|x\|_{G}$ is |x|_{G} = sum_{i=1}", "norm ‖x‖_G is |x|_G = sum_i=1"),
    ("{Q}*-learning and {A}* search", "Q*-learning and A* search"),
    ("{con}**{T}**{extualized}", "conTextualized"),
    # ...and reads a command after them as what it shows: an ASCII BibTeX export writes
    # `*e.g.*’` as `*e.g.*{\textquoteright}` (punctuation: the emphasis closes), `*e.g.*é`
    # as `*e.g.*{\'e}` (a letter: CommonMark keeps the asterisks)
    (r"*e.g.*{\textquoteright} and *a*{\textquoteright}", "e.g.’ and a’"),
    (r"*e.g.*{\'e}", "*e.g.*é"),
    # a named accent is a letter too (hypothesis: `*e.g.*Ļ` went out as `*e.g.*{\c{L}}`)
    (r"*e.g.*{\c{L}} and *e.g.*{\v{s}}", "*e.g.*Ļ and *e.g.*š"),
    # the backtick of a grave accent closes no `code` span (hypothesis in CI: the title
    # "`Ì" went out as `` `{\`I} `` and came back as "{\I")
    (r"`{\`I}", "`Ì"),
    (r"`{\`I} and `x`", "`Ì and x"),
    # arithmetic is not Markdown emphasis
    ("2*3 = 6 and 4*5 = 20", "2*3 = 6 and 4*5 = 20"),
    ("2**10 and 3**2", "2**10 and 3**2"),
    ("a * b * c", "a * b * c"),
]


@pytest.mark.parametrize(("source", "expected"), PLAIN_CASES)
def test_to_plain_shows_what_a_reader_should_see(source: str, expected: str) -> None:
    assert to_plain(source) == expected


HTML_CASES = [
    (
        r"employs \textit{similarity-based expert consolidation} to",
        "employs <i>similarity-based expert consolidation</i> to",
    ),
    (r"two variants: $\texttt{mCS-dist}$, using", "two variants: <code>mCS-dist</code>, using"),
    (r"Projection} \textbf{(WeLore)} that", "Projection <b>(WeLore)</b> that"),
    ("equivari**A**nt (**TAPE**)", "equivari<b>A</b>nt (<b>TAPE</b>)"),
    ("data, *e.g.*, the", "data, <i>e.g.</i>, the"),
    ("over _e3nn_ and", "over <i>e3nn</i> and"),
    ("run `pip install x` first", "run <code>pip install x</code> first"),
    (
        r"the problem of {\em anomaly detection} which",
        "the problem of <i>anomaly detection</i> which",
    ),
    (r"the graph has $n$ nodes", "the graph has <i>n</i> nodes"),
    (r"$O(d \log n)$ samples", "O(d log n) samples"),
    (r"$x_{i,j}$ and $T^{1/3}$", "x<sub>i,j</sub> and T<sup>1/3</sup>"),
    (
        "<em>new</em> <strong>fast</strong> H<sub>2</sub>O 10<sup>-3</sup>",
        "<i>new</i> <b>fast</b> H₂O 10⁻³",
    ),
    ("a <script>alert(1)</script> b", "a &lt;script&gt;alert(1)&lt;/script&gt; b"),
    (
        '<a href="http://x">link</a> <img src=x onerror=alert(1)>',
        '&lt;a href="http://x"&gt;link&lt;/a&gt; &lt;img src=x onerror=alert(1)&gt;',
    ),
    ('<em onclick="evil()">x</em>', '&lt;em onclick="evil()"&gt;x'),
    ("p < 0.05 & q > 1", "p &lt; 0.05 &amp; q &gt; 1"),
    ("&lt;em&gt;not a tag&lt;/em&gt;", "&lt;em&gt;not a tag&lt;/em&gt;"),
    (
        r"Aristotle's \mkbibquote{\emph{De Motu} Animalium}",
        "Aristotle's “<i>De Motu</i> Animalium”",
    ),
    ("2*3*4 and *x*", "2*3*4 and <i>x</i>"),
    (r"X- and <tex>$\gamma$</tex>-Ray", "X- and γ-Ray"),
]


@pytest.mark.parametrize(("source", "expected"), HTML_CASES)
def test_to_html_formats_markup_and_escapes_everything_else(source: str, expected: str) -> None:
    assert to_html(source) == expected


def _seed_abstracts() -> list[str]:
    seeds = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.txt"))
    abstracts = []
    for path in seeds:
        paragraphs = [
            p for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")) if p.strip()
        ]
        abstracts.extend(paragraphs[1:])  # the first paragraph is the list's header line
    return abstracts


def test_no_seed_abstract_shows_markup_in_plain_text() -> None:
    abstracts = _seed_abstracts()
    assert len(abstracts) == 38
    for abstract in abstracts:
        plain = to_plain(abstract)
        for leftover in ("$", "\\", "**", "{", "}"):
            assert leftover not in plain, (leftover, plain)


def test_seed_abstracts_keep_their_formatting_in_html() -> None:
    html = " ".join(to_html(a) for a in _seed_abstracts())
    assert "<i>similarity-based expert consolidation</i>" in html
    assert "<code>mCS-learn</code>" in html
    assert "<b>DocVXQA</b>" in html
    assert "<i>constructive proofs</i>" in html


def _corpus_texts(corpus_file: Path) -> list[str]:
    with corpus_file.open(encoding="utf-8") as lines:
        records = [json.loads(line) for line in lines]
    return [text for r in records for text in (r["title"] or "", r["abstract"] or "")]


def test_corpus_markup_never_reaches_plain_text(corpus_file: Path) -> None:
    texts = _corpus_texts(corpus_file)
    assert len(texts) == 2 * lines_of(corpus_file)
    converted = 0
    for text in texts:
        plain = to_plain(text)
        for command in (r"\textit", r"\emph", r"\textbf", r"\texttt", r"\frac", "**"):
            if command in text:
                assert command not in plain, (command, plain)
                converted += 1
    assert converted > 150  # the test really saw the markup it is about


def test_corpus_html_is_always_safe(corpus_file: Path) -> None:
    for text in _corpus_texts(corpus_file):
        if any(c in text for c in "<&$\\*_`"):
            assert_safe_html(to_html(text, hit_pattern(["learning", "train*"])))


# Pieces of markup, glued together in any order, reach the corners a corpus never shows.
_MARKUP_PIECES = st.sampled_from(
    list("$\\{}<>/*_`~&%^'-#[]() \nabKxe2")
    + ["<em>", "</em>", "<b>", "<script>", "&amp;", "&#x3c;", "$$", "**", "---", "``"]
    + [r"\textit{", r"\emph{", r"\frac", r"\sqrt[", r"\left(", r"\href{", r"\url{", "{\\em "]
    + [r"\mkbibquote{", r"\c ", r"\H", r"\relax "]
    # macros pylatexenc fails on (paperdesk.text.latex_tree says how)
    + [r"\verb", r"\exercise", r"\input{", r"\colorbox{", r"\title"]
)


@contextmanager
def _no_error_logged() -> Iterator[None]:
    """Fail the example (so hypothesis shrinks it) when rendering logs an error."""
    errors: list[logging.LogRecord] = []
    handler = logging.Handler(logging.ERROR)
    handler.emit = errors.append  # type: ignore[method-assign]
    text_logger = logging.getLogger("paperdesk.text")
    text_logger.addHandler(handler)
    try:
        yield
    finally:
        text_logger.removeHandler(handler)
    assert not errors, errors[0].getMessage()


@settings(max_examples=400, deadline=None)
@given(
    st.lists(_MARKUP_PIECES, max_size=40).map("".join) | st.text(max_size=80),
    st.lists(st.text(max_size=6), max_size=3),
)
# pylatexenc warns of a command without its argument (`\input` at the end): on purpose
@pytest.mark.logs_warnings
def test_rendering_never_fails_and_html_stays_safe(source: str, terms: list[str]) -> None:
    with _no_error_logged():
        plain = to_plain(source)
        fragment = to_html(source, hit_pattern(terms))
    assert isinstance(plain, str)
    assert "<script" not in fragment.lower()
    assert_safe_html(fragment)


@pytest.mark.parametrize(
    "display",
    [
        "Learning Sparse Graphs",  # reads as itself: unchanged
        "Costs $5 and $10",
        "snake_case_names and 2*3 = 6",
        "",
    ],
)
def test_protect_markup_leaves_text_that_reads_as_itself(display: str) -> None:
    assert protect_markup(display) == display


@pytest.mark.parametrize(
    ("display", "written"),
    [
        (r"random strings {and deletion", r"random strings \{and deletion"),
        ("A *bold* claim", r"A \*bold\* claim"),
        (r"a \ b $x$", r"a \textbackslash{} b \$x\$"),
        ("pages 2--3 and ''quoted''", "pages 2-{}-3 and '{}'quoted'{}'"),
        (
            "<em>x</em> &amp; ~5 `y`",
            r"\<em>x\</em> \&amp; \textasciitilde{}5 \textasciigrave{}y\textasciigrave{}",
        ),
    ],
)
def test_protect_markup_escapes_text_that_would_read_differently(
    display: str, written: str
) -> None:
    assert protect_markup(display) == written
    assert to_plain(written) == display


@settings(max_examples=400, deadline=None)
@given(st.lists(_MARKUP_PIECES, max_size=30).map("".join) | st.text(max_size=80))
# pylatexenc warns of a macro that fails on this markup (`\url` without its argument)
@pytest.mark.logs_warnings
def test_protected_text_always_reads_back_as_itself(text: str) -> None:
    with _no_error_logged():
        assert to_plain(protect_markup(text)) == collapse_whitespace(text)


def test_broken_input_still_reads() -> None:
    assert to_plain("a lone \\") == "a lone \\"
    assert to_plain("{unbalanced braces") == "unbalanced braces"
    assert to_plain("closing} too") == "closing too"
    assert to_plain(r"\unknownmacro{x} and \ModelName~achieves") == "x and ModelName achieves"
    assert to_plain("the bound is $O(n") == "the bound is O(n"  # an abstract cut in mid-formula
    assert to_plain(r"\textit{never closed") == "never closed"
    assert to_html(r"\textit{never closed") == "<i>never closed</i>"
    assert to_plain("") == ""
    assert to_html("") == ""


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # pylatexenc's \verb reader runs off the end of the text
        (r"a trailing \verb", "a trailing verb"),
        # pylatexenc's text table expects an argument its parser did not give
        (r"\exercise x", "exercise x"),
        # an \input shows nothing: no file is ever read
        (r"\input{/etc/passwd} b", "b"),
    ],
)
def test_what_pylatexenc_cannot_read_still_reads(source: str, expected: str) -> None:
    assert to_plain(source) == expected
    assert to_html(source) == expected


@pytest.mark.logs_errors
def test_a_renderer_bug_is_logged_as_an_error_and_the_reader_gets_the_source(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """So a test that meets a crash fails (tests fail on logged errors), and a user does not."""

    def broken(text: str, html_mode: bool) -> list[tuple[str, frozenset[str]]]:
        raise RuntimeError("a bug in the renderer")

    monkeypatch.setattr(paperdesk.text.plain, "styled_runs", broken)
    monkeypatch.setattr(paperdesk.text.html, "styled_runs", broken)

    assert to_plain("a  *b*\n c") == "a *b* c"
    assert to_html("x < *y*") == "x &lt; *y*"
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 2
    assert all(r.exc_info and r.exc_info[0] is RuntimeError for r in errors)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(list("-'\"ab \n.2é^|#%>") + ["--", "''", "---"])).map("".join)
    | st.text(alphabet=st.characters(exclude_characters="$\\{}<&`~*_"), max_size=80)
)
def test_text_without_markup_skips_the_lexer_and_reads_the_same(text: str) -> None:
    """Most abstracts take the fast path; it must show what the full reading would."""
    assume(not render.has_markup(text))
    for html_mode in (False, True):
        full_reading = render._runs(read_events(text), html_mode)
        assert render.styled_runs(text, html_mode) == full_reading

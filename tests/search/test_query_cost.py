"""Every query is answered or refused in bounded CPU, at a few thousand papers (issue 25).

At 13,417 papers a query that found nothing cost 1.5-2.2 s of CPU (whoosh's spelling
corrector walking the vocabulary in Python), `*` 4.5 s, a 100-letter word typed in the
window 16 s, `^?]ǅßéORrating:>=4` 8.6 s. The bounds here are CPU time (process_time),
so a loaded machine does not fail them: generous for any query hypothesis makes, tighter
for the named ones, which cost a few ms now.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paperdesk.core.errors import QueryError
from paperdesk.search import expansion
from paperdesk.search.index import FullTextIndex, Hits
from tests.search.word_corpus import build, seed_words

PAPERS = 3_000
#: CPU for any query at PAPERS papers (the issue's target is 100 ms at 100,000).
ANY_QUERY_S = 1.0
#: CPU for each named query below (each cost 0.1-16 s before at 13,417 papers).
NAMED_QUERY_S = 0.1


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> FullTextIndex:
    built = build(tmp_path_factory.mktemp("cost") / "index", PAPERS)
    built.search("graph")  # the searcher is open, as in a session
    return built


def cpu_of(index: FullTextIndex, text: str, typing: bool) -> tuple[float, Hits | QueryError]:
    started = time.process_time()
    try:
        answer: Hits | QueryError = index.search(text, typed=text if typing else "")
    except QueryError as refused:
        answer = refused
    return time.process_time() - started, answer


NAMED = [
    "difusion",  # nothing found: the suggestion
    "graph xyzzyq",
    "convolutonal networks for grpah clasification",
    "x" * 100,  # the longest word allowed
    "*",
    "?",
    "a*",
    "^?]ǅßéORrating:>=4",
    "title:*",
    "grap~2",
    "graph [a TO z]",
    "title:<graph",  # a range of words with one end (it failed once in Expanded)
    "ǅßéOR>=4",
    "graph n",
    "test ti",
]


@pytest.mark.parametrize("typing", [False, True], ids=["entered", "typed"])
@pytest.mark.parametrize("text", NAMED)
def test_the_named_slow_queries_cost_milliseconds(
    index: FullTextIndex, text: str, typing: bool
) -> None:
    cpu_of(index, "warm up the vocabulary: no such wordd", typing)
    cpu, answer = cpu_of(index, text, typing)
    assert cpu < NAMED_QUERY_S, f"{text!r} took {cpu * 1000:.0f} ms of CPU"
    if isinstance(answer, QueryError):
        assert "\n" not in str(answer) and len(str(answer)) < 300


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("*", "a lone * stands for every paper"),
        ("title:*", "a lone * stands for every paper"),
        ("?", "'?' starts with a wildcard: give at least 2 letters"),
        ("^?]ǅßéORrating:>=4", "starts with a wildcard"),
        ("a*", "'a*' stands for .* words, too many to search"),
        ("graph [a TO z]", "a range of numbers needs its field, e.g. rating:>=4"),
    ],
)
def test_a_query_standing_for_everything_is_refused_with_what_to_type(
    index: FullTextIndex, text: str, message: str
) -> None:
    with pytest.raises(QueryError, match=re.escape(message).replace(r"\.\*", ".*")):
        index.search(text)


def test_wildcards_with_letters_enough_still_find_their_words(index: FullTextIndex) -> None:
    assert index.search("optimi*").ids  # optimization, optimize, optimal...
    # Wildcards match the index's terms, stems: converg for convergence, converged.
    assert index.search("conv?rg*").ids == index.search("convergence").ids != []
    assert set(index.search("inference~").ids) >= set(index.search("inference").ids)


def test_an_expansion_past_its_bound_names_the_count(
    index: FullTextIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(expansion, "MAX_EXPANSION", 3)
    with pytest.raises(QueryError, match=r"'co\*' stands for (over )?\d+ words.*at most 3"):
        index.search("co*")


@pytest.mark.parametrize(
    ("typed", "before", "finished"),
    [
        ("graph n", "graph", "graph neural"),
        ("graph ne", "graph", "graph neural"),
        ("graph neu", "graph", "graph neural"),
        ("test ti", "test", "test time"),
        ("learning r", "learning", "learning reasoning"),
        ("learning re", "learning", "learning reasoning"),
        ("model p", "model", "model performance"),
        ("model pe", "model", "model performance"),
    ],
)
def test_the_word_being_typed_narrows_the_list_and_never_empties_it(
    index: FullTextIndex, typed: str, before: str, finished: str
) -> None:
    """Each letter of the word being typed narrows what the words before it found, and
    the word it is on its way to is among what it finds (issue 25: `graph ne` found 0
    papers, `graph n` 1,104 and `graph neu` 386)."""
    found = index.search(typed, typed=typed).ids
    assert 0 < len(found) <= len(index.search(before).ids)
    assert set(index.search(finished).ids) <= set(found)


# Pieces queries are made of: the library's own words and parts of them, operators,
# fields, the parser's punctuation, and anything else.
_WORDS = sorted({word.lower() for word in seed_words()})
_PIECES = st.lists(
    st.sampled_from(_WORDS)
    | st.sampled_from(_WORDS).map(lambda word: word[: len(word) // 2])
    | st.sampled_from(
        [
            " ",
            " ",
            "AND",
            "OR",
            "NOT",
            "TO",
            "(",
            ")",
            '"',
            "*",
            "?",
            "~",
            "~2",
            "<",
            ">",
            ">=",
            "..",
            "[",
            "]",
            ":",
            "title:",
            "year:",
            "tag:",
            "note:",
            "rating:",
            "author:",
            "in:",
            "2025",
            "-1",
            "=",
            "{",
            "}",
            "+",
            "'",
            "é",
            "\\",
            "^",
            "ǅß",
        ]  # fmt: skip
    )
    | st.text(max_size=8),
    max_size=12,
).map("".join)


@settings(
    max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_PIECES, typing=st.booleans())
def test_any_query_is_answered_or_refused_within_its_cpu_bound(
    index: FullTextIndex, text: str, typing: bool
) -> None:
    """Whatever is typed gives hits or a QueryError a user can read, never another
    exception (issue 13 item 7), within the CPU bound (issue 25)."""
    cpu, answer = cpu_of(index, text, typing)
    assert cpu < ANY_QUERY_S, f"{text!r} took {cpu * 1000:.0f} ms of CPU"
    if isinstance(answer, QueryError):
        assert "\n" not in str(answer) and len(str(answer)) < 300


def test_the_index_has_the_papers_it_is_said_to_have(index: FullTextIndex, tmp_path: Path) -> None:
    """The bounds above are of this size of library, with two segments and deletions."""
    assert index.doc_count() == PAPERS

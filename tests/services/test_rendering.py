"""The abstract the detail pane shows: formatted, search hits marked, nothing unsafe."""

from __future__ import annotations

from paperdesk.services.use_cases.rendering import abstract_html
from tests.text.html_checks import assert_safe_html, marked


def test_an_abstract_shows_its_formatting_and_the_search_hits() -> None:
    fragment = abstract_html(
        r"We \emph{train} policies with $O(n)$ <script>x</script> samples.", ["policy", "train"]
    )

    assert_safe_html(fragment)
    hits, text = marked(fragment)
    assert hits == ["train", "policies"]
    assert text == "We train policies with O(n) <script>x</script> samples."
    assert "<i>" in fragment


def test_without_search_terms_nothing_is_marked() -> None:
    hits, text = marked(abstract_html("Training *fast* models."))
    assert hits == []
    assert text == "Training fast models."


def test_tinted_words_and_marked_passages_are_styled_where_the_reader_sees_them() -> None:
    import re
    from datetime import datetime

    from paperdesk.core.models import Annotation
    from paperdesk.services.use_cases.rendering import WordStyle, passage_at

    abstract = r"Contextual \emph{bandits} with regret bounds <script>x</script> for neural nets."
    start, stop, quote = passage_at(abstract, 0, 18)
    assert quote == "Contextual bandits"
    mark = Annotation(1, 1, start, stop, quote, "#b9f6ca", "", datetime(2026, 1, 1))
    styles = [
        WordStyle(("bound",), "color:#116329"),
        WordStyle(("neural net",), "color:#b3261e"),
    ]
    fragment = abstract_html(abstract, ["regret"], [mark], styles)

    assert '<span style="color:#116329">bounds</span>' in fragment
    assert '<span style="color:#b3261e">neural nets</span>' in fragment
    assert fragment.count("background-color:#b9f6ca") == 2  # "Contextual ", then "bandits"
    assert 'class="hit"' in fragment and ">regret</span>" in fragment
    # The source's own markup stays text: only our spans and the \emph's italics are tags.
    without_ours = re.sub(r'<span(?: class="hit")? style="[^"<>]*">|</span>|</?i>', "", fragment)
    assert "<" not in without_ours
    assert "&lt;script&gt;" in without_ours


def test_why_this_paper_names_words_of_its_abstract_and_no_stop_words(desk) -> None:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from paperdesk.core.triage import Decision
    from paperdesk.services.use_cases import reading, triage

    triage.decide(desk, 1, Decision.KEEP)
    triage.decide(desk, 2, Decision.DISCARD)
    assert desk.promise.wait(60)
    paper = reading.paper(desk, 3)
    link = desk.promise.link()
    assert link is not None
    why = link.call("explain", paper, timeout=30)  # not promise.explain's short wait
    assert why is not None and (why.raising or why.lowering)
    text = (paper.title + " " + paper.abstract).casefold()
    for contribution in (*why.raising, *why.lowering):
        assert contribution.term.split()[0] in text
        assert any(word not in ENGLISH_STOP_WORDS for word in contribution.term.split())

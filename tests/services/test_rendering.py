"""The abstract the detail pane shows: formatted, search hits marked, nothing unsafe."""

from __future__ import annotations

from paperdesk.services.rendering import abstract_html
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

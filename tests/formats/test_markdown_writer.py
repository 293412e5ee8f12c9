"""Markdown reading list: readable as text, and renders as the list it claims to be."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.models import Identifiers
from paperdesk.formats.markdown_writer import markdown_item, write_markdown
from tests.factories import make_paper


def export(papers, heading=None) -> str:
    stream = io.StringIO()
    assert write_markdown(papers, stream, heading=heading) == len(papers)
    return stream.getvalue()


def test_a_reading_list_reads_well():
    papers = [
        make_paper(
            title="SGSI: Soft-Gated Structural Inference",
            authors=("Yi Sun", "Ada Lovelace"),
            ids=Identifiers(doi="10.1234/x"),
            tags=("graphs", "rl/offline"),
            note="Strong baseline.\n\nRead **section 3** first.",
        ),
        make_paper(title="On the $K^2$-means Problem", venue=None, year=2017, authors=()),
    ]
    assert export(papers, heading="Reading group") == (
        "# Reading group\n"
        "\n"
        "1. [SGSI: Soft-Gated Structural Inference](https://doi.org/10.1234/x)"
        " — Yi Sun, Ada Lovelace (ICML 2025)\n"
        "\n"
        "   Tags: graphs, rl/offline\n"
        "\n"
        "   > Strong baseline.\n"
        "   >\n"
        "   > Read **section 3** first.\n"
        "\n"
        "2. On the K²-means Problem (2017)\n"
    )


@pytest.mark.parametrize(
    ("ids", "link"),
    [
        (Identifiers(url="https://x.org/a_b(c)", doi="10.1234/x"), "https://x.org/a_b%28c%29"),
        # only http(s) pages are linked: anything else is data, not a link
        (Identifiers(url="javascript:alert(1)", doi="10.1234/x"), "https://doi.org/10.1234/x"),
        (Identifiers(url="file:///bin/sh", arxiv="2501.01234"), "https://arxiv.org/abs/2501.01234"),
        (Identifiers(doi="10.1234/x", arxiv="2501.01234"), "https://doi.org/10.1234/x"),
        (Identifiers(arxiv="2501.01234"), "https://arxiv.org/abs/2501.01234"),
        (Identifiers(openreview="AbC"), "https://openreview.net/forum?id=AbC"),
    ],
)
def test_title_links_to_the_best_page(ids, link):
    assert markdown_item(make_paper(ids=ids), 1).startswith(f"1. [Learning Sparse Graphs]({link})")


def test_long_author_lists_are_shortened():
    authors = tuple(f"Author {n}" for n in range(1, 8))
    item = markdown_item(make_paper(authors=authors), 1)
    assert "— Author 1, Author 2, Author 3 et al. (ICML 2025)" in item


def test_markup_in_titles_is_escaped_and_items_past_nine_indent_further():
    item = markdown_item(make_paper(title="- 2*3 a_list [x] #1 $5", note="n"), 12)
    first, _, quote = item.splitlines()
    assert first == "12. \\- 2\\*3 a\\_list \\[x\\] \\#1 \\$5 — Yi Sun (ICML 2025)"
    assert quote == "    > n"


markdown_it = pytest.importorskip("markdown_it")

hostile = st.text(alphabet=st.sampled_from(list("*_`[]()<>#$~|\\-+1. \n!")) | st.characters())


@settings(max_examples=100, deadline=None)
@given(
    titles=st.lists(hostile, min_size=1, max_size=6),
    authors=st.lists(hostile, max_size=3),
    note=hostile,
)
def test_any_text_renders_as_one_list_with_a_linked_item_per_paper(titles, authors, note):
    """Whatever the titles, names and notes hold, the rendered structure stays the same.

    A note is the user's Markdown and may hold headings and lists of its own, but only
    inside its quote.
    """
    papers = [
        make_paper(
            title=title,
            authors=tuple(authors),
            note=note,
            ids=Identifiers(url="https://u.example/"),
        )
        for title in titles
    ]
    tokens = markdown_it.MarkdownIt("commonmark").parse(export(papers, heading="List"))
    top = [t.type for t in tokens if t.level == 0 and t.nesting == 1]
    assert top == ["heading_open", "ordered_list_open"]
    items = [i for i, t in enumerate(tokens) if t.type == "list_item_open" and t.level == 1]
    assert len(items) == len(papers)
    for index in items:
        headline = next(t for t in tokens[index:] if t.type == "inline")
        assert headline.children[0].type == "link_open"
        assert headline.children[0].attrs["href"] == "https://u.example/"

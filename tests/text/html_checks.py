"""Reading the HTML fragments paperdesk.text writes: is it safe, what does it mark."""

from __future__ import annotations

import re
from html.parser import HTMLParser

HIT = '<span class="hit" style="background-color:#ffe066;color:#000">'
_OUR_TAGS = re.compile(r"</?(?:b|i|code|sub|sup)>|" + re.escape(HIT) + "|</span>")


def assert_safe_html(fragment: str) -> None:
    """Only our own tags and entities: nothing from the source is read as HTML."""
    without_our_tags = _OUR_TAGS.sub("", fragment)
    assert "<" not in without_our_tags, fragment
    assert not re.search(r"&(?!amp;|lt;|gt;)", without_our_tags), fragment


class _HitCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.hits: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "span":
            self.depth += 1
            self.hits.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.depth:
            self.hits[-1] += data


def marked(fragment: str) -> tuple[list[str], str]:
    """The marked pieces of a fragment, and all of its text."""
    parser = _HitCollector()
    parser.feed(fragment)
    parser.close()
    return parser.hits, "".join(parser.text)

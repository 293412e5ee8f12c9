"""safe_url: only http(s) links with a host are ever made clickable (issue 13, item 6)."""

from __future__ import annotations

import pytest

from paperdesk.core.links import safe_url


@pytest.mark.parametrize(
    "url",
    [
        "https://arxiv.org/abs/1706.03762",
        "http://example.org/a_b?x=1&y=%20#frag",
        "HTTPS://OpenReview.net/forum?id=abc",
        "  https://padded.example/  ",
    ],
)
def test_web_links_are_safe(url: str) -> None:
    assert safe_url(url) == url.strip()


@pytest.mark.parametrize(
    "url",
    [
        None,
        "",
        "file:///bin/sh",
        "javascript:alert(1)",
        "JavaScript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "smb://host/share",
        "vbscript:x",
        "/etc/passwd",
        "www.example.org",  # no scheme: not something to hand to a browser as is
        "https://",  # no host
        "https://exa mple.org",  # a blank inside
        "https://example.org/\x00",
        "https://example.org\\@evil.example",
        "http://[::1",  # a malformed host
    ],
)
def test_everything_else_is_not(url: str | None) -> None:
    assert safe_url(url) is None

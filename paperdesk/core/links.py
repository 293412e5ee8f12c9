"""Which links may be opened with a click.

A paper's URL comes from whatever file it was imported from: `file:///bin/sh`,
`javascript:...` or `smb://host/share` are data, never something to hand to a browser
or the desktop. Everything that makes a link clickable (the detail pane, the Markdown
and BibTeX exports) asks `safe_url` first.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from paperdesk.core.models import Identifiers

_SCHEMES = frozenset({"http", "https"})


def safe_url(url: str | None) -> str | None:
    """The URL without outer blanks if it is http(s) with a host and no blanks or control
    characters inside; None for anything else."""
    if not url:
        return None
    text = url.strip()
    if any(char.isspace() or ord(char) < 32 or ord(char) == 127 for char in text):
        return None
    try:
        parts = urlsplit(text)
    except ValueError:  # `http://[::1` and other malformed hosts
        return None
    if parts.scheme.lower() not in _SCHEMES or not parts.hostname or "\\" in text:
        return None
    return text


# A PMLR paper page `.../v202/smith23a.html` keeps its PDF at `.../v202/smith23a/smith23a.pdf`.
_PMLR_PAGE = re.compile(r"^(https?://proceedings\.mlr\.press/v\d+)/([\w\-]+)\.html$")
# An ACL Anthology page `https://aclanthology.org/2020.acl-main.1/` -> `....1.pdf`.
_ACL_PAGE = re.compile(r"^(https?://aclanthology\.org/[\w.\-]+?)/?$")


def pdf_url(ids: Identifiers) -> str | None:
    """Where the paper's PDF is, from its identifiers (arXiv, OpenReview, a PMLR or ACL
    Anthology page, a URL that is a PDF); http(s) only, None when none says."""
    url = safe_url(ids.url)
    if url and url.lower().endswith(".pdf"):
        return url
    if ids.arxiv:
        return f"https://arxiv.org/pdf/{ids.arxiv}"
    if ids.openreview:
        return f"https://openreview.net/pdf?id={ids.openreview}"
    if url and (pmlr := _PMLR_PAGE.match(url)):
        return f"{pmlr.group(1)}/{pmlr.group(2)}/{pmlr.group(2)}.pdf"
    if url and (acl := _ACL_PAGE.match(url)):
        return f"{acl.group(1)}.pdf"
    return None

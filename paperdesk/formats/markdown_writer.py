"""Writing papers as a Markdown reading list, ready to paste into a wiki or an issue.

    # Reading group

    1. [Learning Sparse Graphs](https://doi.org/10.1234/x) — Yi Sun, Ada Lovelace (ICML 2025)

       Tags: graphs, rl/offline

       > The user's note, as written (it is Markdown already).

       Highlighted:

       > A passage of the abstract the user marked.
       > — the user's comment on it

Titles are shown as plain text (LaTeX and markup rendered, `$K^2$` as K²) and linked to
the paper's URL, else its DOI, arXiv or OpenReview page. More than five authors are
shortened to the first three and "et al.". Text from the paper is escaped so that a
`*`, `_` or `$` in a title cannot turn into emphasis or math; the note is the user's own
Markdown and is quoted as it is.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TextIO
from urllib.parse import quote

from paperdesk.core.links import safe_url
from paperdesk.core.models import Annotation, Paper
from paperdesk.core.text import collapse_whitespace
from paperdesk.text import to_plain

MAX_AUTHORS = 5
AUTHORS_BEFORE_ET_AL = 3

# Characters that would start emphasis, code, links, HTML, strikethrough, math or a
# heading; at the start of a line, also a list marker (`- x`, `2. x`).
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]<>~$|#])|^([-+]|\d+(?=[.)]))")
# Characters a link destination cannot hold bare: blanks, parentheses, angle brackets.
_URL_SAFE = ":/?#[]@!$&'*+,;=%~"


def _escape(text: str) -> str:
    return _MARKDOWN_SPECIAL.sub(_backslashed, collapse_whitespace(text))


def _backslashed(match: re.Match[str]) -> str:
    special, list_marker = match.groups()
    if special:
        return "\\" + special
    if list_marker.isdigit():  # `2.` -> `2\.`: the number stays, the list marker goes
        return list_marker + "\\"
    return "\\" + list_marker


def paper_link(paper: Paper) -> str | None:
    """Where a reader finds the paper: its web page (an http(s) URL: a Markdown viewer
    makes it a link), else its DOI, arXiv or OpenReview page."""
    ids = paper.ids
    if url := safe_url(ids.url):
        return url
    if ids.doi:
        return f"https://doi.org/{ids.doi}"
    if ids.arxiv:
        return f"https://arxiv.org/abs/{ids.arxiv}"
    if ids.openreview:
        return f"https://openreview.net/forum?id={ids.openreview}"
    return None


def _authors(authors: tuple[str, ...]) -> str:
    names = [_escape(name) for name in authors if name.strip()]
    if len(names) > MAX_AUTHORS:
        return ", ".join(names[:AUTHORS_BEFORE_ET_AL]) + " et al."
    return ", ".join(names)


def _headline(paper: Paper) -> str:
    title = _escape(to_plain(paper.title)) or "Untitled"
    link = paper_link(paper)
    line = f"[{title}]({quote(link.strip(), safe=_URL_SAFE)})" if link else title
    authors = _authors(paper.authors)
    if authors:
        line += f" — {authors}"
    where = " ".join(part for part in (_escape(paper.venue or ""), str(paper.year or "")) if part)
    if where:
        line += f" ({where})"
    return line


def markdown_item(paper: Paper, number: int) -> str:
    """One numbered list item, its lines ending in newlines."""
    marker = f"{number}. "
    indent = " " * len(marker)
    blocks = [marker + _headline(paper)]
    tags = ", ".join(_escape(tag) for tag in paper.tags)
    if tags:
        blocks.append(f"{indent}Tags: {tags}")
    note = paper.note.strip()
    if note:
        quoted = (f"{indent}> {line}".rstrip() for line in note.splitlines())
        blocks.append("\n".join(quoted))
    if paper.annotations:
        blocks.append(f"{indent}Highlighted:")
        blocks.extend(_passage(annotation, indent) for annotation in paper.annotations)
    return "\n\n".join(blocks) + "\n"


def _passage(annotation: Annotation, indent: str) -> str:
    """A marked passage as a quote, its comment on the quote's last line."""
    lines = [f"{indent}> {_escape(annotation.quote)}"]
    if annotation.comment.strip():
        lines.append(f"{indent}> — {_escape(annotation.comment)}")
    return "\n".join(lines)


def write_markdown(papers: Iterable[Paper], stream: TextIO, heading: str | None = None) -> int:
    """Write a numbered reading list, under `# heading` if one is given; return the count."""
    count = 0
    if heading:
        stream.write(f"# {_escape(heading)}\n")
    for count, paper in enumerate(papers, start=1):
        if count > 1 or heading:
            stream.write("\n")
        stream.write(markdown_item(paper, count))
    return count

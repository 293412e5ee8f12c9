"""Links a paper offers (DOI, arXiv, OpenReview, its web page), and opening one.

Only http(s) links are ever shown as links or handed to the desktop: a URL imported
from a file may be `file:///bin/sh` or `javascript:...`, which is data, not a link.
Labels and notes never open anything by themselves; a click comes here first.
"""

from __future__ import annotations

import html
import logging

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from paperdesk.core.links import pdf_url
from paperdesk.core.models import Identifiers

log = logging.getLogger(__name__)

WEB_SCHEMES = ("http", "https")


def web_url(url: str | None) -> str | None:
    """`url` if it is an http(s) address with a host, else None."""
    if not url or any(ch.isspace() or ord(ch) < 32 for ch in url.strip()):
        return None
    parsed = QUrl(url.strip(), QUrl.ParsingMode.StrictMode)
    if not parsed.isValid() or parsed.scheme().lower() not in WEB_SCHEMES or not parsed.host():
        return None
    return url.strip()


def paper_links(ids: Identifiers) -> list[tuple[str, str]]:
    """(label, url) for each external id a paper has, web page first (Zotero opens it)."""
    links = []
    if url := web_url(ids.url):
        links.append(("Web page", url))
    if ids.doi:
        links.append(("DOI", f"https://doi.org/{ids.doi}"))
    if ids.arxiv:
        links.append(("arXiv", f"https://arxiv.org/abs/{ids.arxiv}"))
    if ids.openreview:
        links.append(("OpenReview", f"https://openreview.net/forum?id={ids.openreview}"))
    if pdf := pdf_url(ids):
        links.append(("PDF", pdf))
    return links


def links_html(ids: Identifiers) -> str:
    return " · ".join(
        f"<a href='{html.escape(url, quote=True)}'>{html.escape(label)}</a>"
        for label, url in paper_links(ids)
    )


def open_link(url: str) -> bool:
    """Hand an http(s) link to the desktop's browser; refuse (and log) anything else."""
    safe = web_url(url)
    if safe is None:
        log.warning("not opening %r: only http(s) links are opened", url)
        return False
    return QDesktopServices.openUrl(QUrl(safe))

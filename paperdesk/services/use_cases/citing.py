"""Formatted citations of papers (Copy Citation) and bibliographies in a CSL style."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from paperdesk.formats import citations
from paperdesk.formats.atomic import atomic_open
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import reading

#: The styles a user picks from (name -> label, CSL file), and the one used until then.
STYLES = citations.STYLES
DEFAULT_STYLE = citations.DEFAULT_STYLE


def bibliography(desk: Desk, ids: Sequence[int], style: str, output: str = "text") -> str:
    """The papers' bibliography in `style` (citations.STYLES) as text, Markdown or HTML."""
    return citations.write_bibliography(reading.papers(desk, list(ids)), style, output)


def citation(desk: Desk, ids: Sequence[int], style: str) -> str:
    """What Copy Citation puts on the clipboard: one plain-text entry per paper."""
    return "\n".join(citations.bibliography(reading.papers(desk, list(ids)), style))


def write_bibliography(desk: Desk, ids: Sequence[int], style: str, output: str, path: Path) -> None:
    """The bibliography saved to `path`, whole or not at all."""
    text = bibliography(desk, ids, style, output)
    with atomic_open(path) as stream:
        stream.write(text)

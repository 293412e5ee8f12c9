"""An abstract as the detail pane shows it: formatted, with the words a search found marked.

The GUI may not reach the search index's code, yet which words a hit marks follows the
index's analyzer (paperdesk.search.highlight); this is where the two meet.
"""

from __future__ import annotations

from collections.abc import Iterable

from paperdesk.search.highlight import hit_pattern
from paperdesk.text import to_html


def abstract_html(abstract: str, search_terms: Iterable[str] = ()) -> str:
    """Safe Qt rich text of `abstract`, marking the words `search_terms` would find."""
    return to_html(abstract, hit_pattern(search_terms))

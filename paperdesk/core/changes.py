"""What a mutation touched, so views refresh only that (DESIGN §6, Anki's OpChanges)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Changes:
    """Returned by every mutating service call.

    `paper_ids` are papers whose row or detail must be redrawn; the booleans say which
    sidebar sections are stale; `papers_added_or_removed` means row counts changed and a
    table must re-query its ids. `description` names the action for an Edit menu.
    """

    description: str = ""
    paper_ids: frozenset[int] = field(default_factory=frozenset)
    papers_added_or_removed: bool = False
    tags: bool = False
    shortlists: bool = False
    saved_searches: bool = False
    imports: bool = False
    # The library's always-highlight words changed: abstracts shown must be redrawn.
    highlight_words: bool = False
    history_id: int | None = None
    #: The generation the action committed (an import's: a team library's index skips
    #: it once this machine indexed it, services/runtime/team_index.py).
    generation: int | None = None

    def merged_with(self, other: Changes) -> Changes:
        return Changes(
            description=self.description or other.description,
            paper_ids=self.paper_ids | other.paper_ids,
            papers_added_or_removed=self.papers_added_or_removed or other.papers_added_or_removed,
            tags=self.tags or other.tags,
            shortlists=self.shortlists or other.shortlists,
            saved_searches=self.saved_searches or other.saved_searches,
            imports=self.imports or other.imports,
            highlight_words=self.highlight_words or other.highlight_words,
            history_id=other.history_id or self.history_id,
            generation=other.generation or self.generation,
        )

    @property
    def is_empty(self) -> bool:
        return not (
            self.paper_ids
            or self.papers_added_or_removed
            or self.tags
            or self.shortlists
            or self.saved_searches
            or self.imports
            or self.highlight_words
        )


def ids_of(values: Iterable[int]) -> frozenset[int]:
    return frozenset(int(v) for v in values)

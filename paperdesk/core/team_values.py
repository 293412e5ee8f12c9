"""What a team library's members think of one paper: each one's rating and note.

In a team library every member has their own note and rating of a paper (the paper's
`note` and `rating` are the reader's own); this is everyone's, for the "Team" views.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class MemberNote:
    member: str
    body: str
    when: datetime | None


@dataclass(frozen=True)
class TeamValues:
    """Every member's rating (unrated members left out) and note of one paper."""

    ratings: tuple[tuple[str, int], ...] = ()
    notes: tuple[MemberNote, ...] = ()
    #: The member reading them (whose own note is the paper's `note`).
    reader: str = ""

    @property
    def own_rating(self) -> int:
        """The reader's own rating (0 when they have not rated the paper)."""
        return next((rating for member, rating in self.ratings if member == self.reader), 0)

    @property
    def own_note(self) -> str:
        """The reader's own note ("" when they have none)."""
        return next((note.body for note in self.notes if note.member == self.reader), "")

    def others_notes(self) -> tuple[MemberNote, ...]:
        """Everyone's notes but the reader's own."""
        return tuple(note for note in self.notes if note.member != self.reader)

    @property
    def count(self) -> int:
        """How many members rated the paper."""
        return len(self.ratings)

    @property
    def average(self) -> float | None:
        """The team's average rating; None when nobody rated the paper."""
        if not self.ratings:
            return None
        return sum(rating for _, rating in self.ratings) / len(self.ratings)

    def summary(self) -> str:
        """One line: "★ 3.5 average of 2 · alice 4, bob 3" (or "not rated yet")."""
        if self.average is None:
            return "not rated yet"
        each = ", ".join(f"{member} {rating}" for member, rating in self.ratings)
        return f"★ {self.average:.1f} average of {self.count} · {each}"

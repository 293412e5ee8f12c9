"""How the command line prints: paper rows and details, changes, JSON, a progress bar."""

from __future__ import annotations

import json
import shutil
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from paperdesk.core.changes import Changes
from paperdesk.core.models import MAX_RATING, Paper
from paperdesk.core.team_values import TeamValues
from paperdesk.formats.team_json import team_json
from paperdesk.text import to_plain

EXIT_ERROR = 1  # what a verb returns when it failed (2 is a usage error)


def paper_json(paper: Paper) -> dict[str, Any]:
    """A paper for `--json`; a team library's adds `team`, everyone's values."""
    item = {
        "id": paper.id,
        "title": paper.title,
        "title_is_derived": paper.title_is_derived,
        "authors": list(paper.authors),
        "venue": paper.venue,
        "year": paper.year,
        "status": paper.status.value,
        "rating": paper.rating,
        "tags": list(paper.tags),
        "shortlists": list(paper.shortlists),
        "note": paper.note,
        "abstract": paper.abstract,
        "doi": paper.ids.doi,
        "arxiv": paper.ids.arxiv,
        "openreview": paper.ids.openreview,
        "url": paper.ids.url,
        "citation_key": paper.citation_key,
        "added": paper.added.isoformat(),
    }
    if paper.team is not None:
        item["team"] = team_json(paper.team)
    return item


def print_json(value: object, indent: int | None = 2) -> None:
    print(json.dumps(value, indent=indent, ensure_ascii=False))


def width() -> int:
    return min(shutil.get_terminal_size((80, 24)).columns, 120)


def clip(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1].rstrip() + "…"


def print_paper_rows(papers: Sequence[Paper]) -> None:
    """One line per paper: id, stars, status, title (derived titles marked with ~)."""
    room = width()
    for paper in papers:
        stars = ("★" * paper.rating).ljust(MAX_RATING, "·")
        prefix = f"{paper.id:>6}  {stars}  {paper.status.value:<9} "
        title = ("~" if paper.title_is_derived else "") + to_plain(paper.title)
        print(prefix + clip(title, room - len(prefix)))


def print_papers(papers: Sequence[Paper], as_json: bool) -> None:
    if as_json:
        print_json([paper_json(p) for p in papers])
    else:
        print_paper_rows(papers)


def print_paper_detail(paper: Paper) -> None:
    room = min(width(), 100)
    derived = "  (derived from the abstract)" if paper.title_is_derived else ""
    print(f"#{paper.id}  {to_plain(paper.title)}{derived}")
    lines = [
        ("Authors", ", ".join(paper.authors) or "(unknown)"),
        ("Venue", " ".join(str(p) for p in (paper.venue, paper.year) if p) or "(unknown)"),
        ("Status", paper.status.value),
        ("Rating", "★" * paper.rating + "☆" * (MAX_RATING - paper.rating)),
        ("Tags", ", ".join(paper.tags) or "-"),
        ("Lists", ", ".join(paper.shortlists) or "-"),
    ]
    for label, value in (
        ("DOI", paper.ids.doi),
        ("arXiv", paper.ids.arxiv),
        ("OpenReview", paper.ids.openreview),
        ("URL", paper.ids.url),
    ):
        if value:
            lines.append((label, value))
    for label, value in lines:
        print(textwrap.fill(value, room, initial_indent=f"{label:<11}", subsequent_indent=" " * 11))
    if paper.abstract:
        print()
        print(textwrap.fill(to_plain(paper.abstract), room))
    if paper.note:
        print("\nNote:")
        print(textwrap.indent(paper.note, "  "))
    if paper.team is not None:
        print_team(paper.team)


def print_team(team: TeamValues) -> None:
    """A team library's view of a paper: the average rating and everyone's notes."""
    print(f"\nTeam:      {team.summary()}")
    for note in team.notes:
        when = f" ({note.when:%Y-%m-%d %H:%M})" if note.when else ""
        print(f"  {note.member}{when}:")
        print(textwrap.indent(note.body, "    "))


def tell(message: str) -> None:
    """A one-line message on stderr (waiting, read-only, damaged...)."""
    print(f"paperdesk: {message}", file=sys.stderr, flush=True)


def report_changes(changes: Changes) -> None:
    count = len(changes.paper_ids)
    suffix = f" ({count} paper{'s' if count != 1 else ''})" if count else ""
    print(f"{changes.description}{suffix}")


class ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()

    def __call__(self, done: int, total: int, message: str = "") -> None:
        if not self.enabled:
            return
        total = max(total, 1)
        filled = int(30 * min(done, total) / total)
        bar = "█" * filled + "░" * (30 - filled)
        sys.stderr.write(f"\r{bar} {done}/{total} {clip(message, 30):<30}")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()

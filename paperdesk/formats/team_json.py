"""Every member's rating and note of a paper as JSON: the `team` key of a team
library's JSON/JSON Lines export (and of `paperdesk show --json`).

    "team": {"average": 3.0, "count": 2, "ratings": {"alice": 4, "bob": 2},
             "notes": [{"member": "bob", "note": "...", "when": "2026-12-01T07:00:00"}]}

`average` and `count` are for readers; importing reads `ratings` and `notes` back, so
an export of a team library imported into another restores every member's values.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from paperdesk.core.team_values import MemberNote, TeamValues
from paperdesk.formats.user_data import Warn, parse_rating


def team_json(team: TeamValues) -> dict[str, Any]:
    return {
        "average": team.average,
        "count": team.count,
        "ratings": dict(team.ratings),
        "notes": [
            {
                "member": note.member,
                "note": note.body,
                "when": note.when.isoformat() if note.when else None,
            }
            for note in team.notes
        ],
    }


def parse_team(value: Any, warn: Warn) -> TeamValues | None:
    """The `team` key read back (None when absent); malformed parts are warned about
    and left out, the rest is kept."""
    if value is None:
        return None
    if not isinstance(value, dict):
        warn("team: not an object of ratings and notes: left out")
        return None
    ratings = []
    given = value.get("ratings")
    for member, rating in (given if isinstance(given, dict) else {}).items():
        parsed = parse_rating(str(rating), f"team rating of {member}", warn)
        if parsed:
            ratings.append((str(member), parsed))
    notes = []
    given = value.get("notes")
    for item in given if isinstance(given, list) else []:
        member, body = (item.get("member"), item.get("note")) if isinstance(item, dict) else (0, 0)
        if not isinstance(member, str) or not isinstance(body, str) or not member:
            warn("team: a note without a member's name and text: left out")
            continue
        notes.append(MemberNote(member, body, _when(item.get("when"), warn)))
    return TeamValues(tuple(ratings), tuple(notes))


def _when(value: Any, warn: Warn) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value)
    except ValueError:
        warn(f"team: a note's time {value[:30]!r} is not an ISO date: left out")
        return None

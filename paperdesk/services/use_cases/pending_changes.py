"""Changes made while a team library's server is away, applied on its return.

The window keeps such a change on this machine, beside its index of the library, rather
than refusing it (ratings, statuses, titles, tags, shortlist entries; a note is kept as
a draft instead, services/use_cases/note_drafts.py): the banner counts the changes waiting, and
once the server answers they are applied in the order they were made, each one ordinary
action (its own undo step, the usual rules: when two people set one field the later
write wins, tags and shortlist entries added by two people both stay). A change the
library can no longer take (its paper deleted meanwhile) is dropped with a log line.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError, ServerUnreachable
from paperdesk.core.models import Status
from paperdesk.formats.atomic import atomic_open
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, shortlists, tagging

log = logging.getLogger(__name__)

PENDING_FILE = "pending-changes.json"


@dataclass(frozen=True)
class PendingChange:
    """One user action on some papers, kept as the service call that makes it."""

    kind: str  # a key of MAKERS
    ids: tuple[int, ...]
    value: int | str | tuple[str, ...]  # the rating, status, title, tag names, shortlist


#: Each kind of change that may wait for the server, and the service call making it.
MAKERS: dict[str, Callable[[Desk, PendingChange], Changes]] = {
    "rating": lambda desk, c: editing.set_rating(desk, c.ids, int(_one(c.value))),
    "status": lambda desk, c: editing.set_status(desk, c.ids, Status(str(c.value))),
    "title": lambda desk, c: editing.set_title(desk, c.ids[0], str(c.value)),
    "add tags": lambda desk, c: tagging.add_tags(desk, c.ids, _names(c.value)),
    "remove tags": lambda desk, c: tagging.remove_tags(desk, c.ids, _names(c.value)),
    "toggle tag": lambda desk, c: tagging.toggle_tag(desk, c.ids, str(c.value)),
    "add to shortlist": lambda desk, c: shortlists.add(
        desk, str(c.value), c.ids, create_missing=True
    ),
    "remove from shortlist": lambda desk, c: shortlists.remove(desk, str(c.value), c.ids),
}


def apply(desk: Desk, change: PendingChange) -> Changes:
    """Make the change now (raises as the service does when the server is away)."""
    return MAKERS[change.kind](desk, change)


def pending_ratings(desk: Desk) -> dict[int, int]:
    """Paper id -> the rating waiting for the server (the newest, where several wait)."""
    return {
        paper_id: int(_one(change.value))
        for change in pending(desk)
        if change.kind == "rating"
        for paper_id in change.ids
    }


def keep(desk: Desk, change: PendingChange) -> int:
    """Keep a change the server could not take; returns how many now wait."""
    waiting = [*pending(desk), change]
    _write(desk, waiting)
    return len(waiting)


def pending(desk: Desk) -> list[PendingChange]:
    path = desk.folder / PENDING_FILE
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as error:
        log.warning("%s: the changes kept offline could not be read (%s)", path, error)
        return []
    return [
        # "field": the name a rating or status was kept under before other kinds could be
        PendingChange(item.get("kind", item.get("field")), tuple(item["ids"]), _value(item))
        for item in kept
    ]


def apply_pending(desk: Desk) -> Changes | None:
    """Apply the kept changes, oldest first; those the server cannot take yet (it went
    away again) stay kept. The Changes of those applied (None: there were none)."""
    waiting = pending(desk)
    if not waiting:
        return None
    applied = Changes()
    for number, change in enumerate(waiting):
        try:
            applied = applied.merged_with(apply(desk, change))
        except ServerUnreachable:
            _write(desk, waiting[number:])
            return applied
        except PaperdeskError as error:
            log.warning("a change made offline could not be applied: %s", error)
    _write(desk, [])
    return applied


def _write(desk: Desk, changes: list[PendingChange]) -> None:
    path = desk.folder / PENDING_FILE
    if not changes:
        path.unlink(missing_ok=True)
        return
    with atomic_open(path) as stream:
        kept = [{"kind": c.kind, "ids": list(c.ids), "value": c.value} for c in changes]
        json.dump(kept, stream)


def _value(item: dict[str, object]) -> int | str | tuple[str, ...]:
    value = item["value"]
    if isinstance(value, list):  # tag names: JSON has no tuples
        return tuple(str(name) for name in value)
    assert isinstance(value, int | str), value
    return value


def _one(value: int | str | tuple[str, ...]) -> int | str:
    assert not isinstance(value, tuple), value
    return value


def _names(value: int | str | tuple[str, ...]) -> list[str]:
    assert isinstance(value, tuple), value
    return list(value)

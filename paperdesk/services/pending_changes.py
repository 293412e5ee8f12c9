"""Ratings and statuses set while a team library's server is away, applied on its return.

The window keeps such a change on this machine, beside its index of the library, rather
than refusing it: the banner counts the changes waiting, and once the server answers
they are applied in the order they were made, each one ordinary action (its own undo
step, the usual rule when two people set one field: the later write wins). A change
the library can no longer take (its paper deleted meanwhile) is dropped with a log line.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass

from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError, ServerUnreachable
from paperdesk.core.models import Status
from paperdesk.formats.atomic import atomic_open
from paperdesk.services import editing
from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)

PENDING_FILE = "pending-changes.json"


@dataclass(frozen=True)
class PendingChange:
    """One rating or status set on some papers."""

    field: str  # "rating" or "status"
    ids: tuple[int, ...]
    value: int | str


def apply(desk: Desk, change: PendingChange) -> Changes:
    """Make the change now (raises as the service does when the server is away)."""
    if change.field == "rating":
        return editing.set_rating(desk, list(change.ids), int(change.value))
    return editing.set_status(desk, list(change.ids), Status(str(change.value)))


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
    return [PendingChange(item["field"], tuple(item["ids"]), item["value"]) for item in kept]


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
        kept = [{"field": c.field, "ids": list(c.ids), "value": c.value} for c in changes]
        json.dump(kept, stream)

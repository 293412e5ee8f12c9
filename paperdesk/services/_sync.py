"""What every mutating service shares: the write lock, and bringing the index up to date."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from paperdesk.core.changes import Changes
from paperdesk.services import indexing
from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def mutation(action: Callable[Concatenate[Desk, P], R]) -> Callable[Concatenate[Desk, P], R]:
    """A service that changes the library: it runs holding the library's write lock.

    The lock covers the action's reads, its commit and its index update, so another
    program's action comes wholly before or after it (services/write_lock.py).
    """

    @functools.wraps(action)
    def locked(desk: Desk, *args: P.args, **kwargs: P.kwargs) -> R:
        with desk.writing():
            return action(desk, *args, **kwargs)

    return locked


def synced(desk: Desk, changes: Changes) -> Changes:
    """Re-index what `changes` names, in the same service call as the database write.

    The write has committed by now: an index that cannot follow (a full disk) is
    logged and left stale, to be rebuilt by the next action, and the change is
    reported as made, because it was.
    """
    try:
        indexing.sync_changes(desk.library, desk.index, changes)
    except Exception as error:  # noqa: BLE001 - whoosh raises many types; the data is safe
        log.warning(
            "the search index could not follow this change (%s: %s); it will be rebuilt",
            type(error).__name__,
            error,
        )
    return changes

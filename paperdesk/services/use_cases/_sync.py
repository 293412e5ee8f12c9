"""What every mutating service shares: the write lock, and bringing the index (and the
ranking, once a triage started it) up to date after each write it commits."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Concatenate, ParamSpec, TypeVar

from paperdesk.core.changes import Changes
from paperdesk.core.errors import Cancelled
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import column_orders

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")


def mutation(action: Callable[Concatenate[Desk, P], R]) -> Callable[Concatenate[Desk, P], R]:
    """A service that changes the library: it runs holding the library's write lock, and
    every write it commits brings the index and the ranking up to date (`following`).

    The lock covers the action's reads, its commits and its index updates, so another
    program's action comes wholly before or after it (services/runtime/write_lock.py).
    """

    @functools.wraps(action)
    def locked(desk: Desk, *args: P.args, **kwargs: P.kwargs) -> R:
        with desk.writing(), following(desk):
            return action(desk, *args, **kwargs)

    return locked


@contextmanager
def following(desk: Desk, *, index_later: bool = False) -> Iterator[None]:
    """Within the block, what each committed write changed (its `Changes`, read from its
    journal by the store) brings the index up to date, in the same service call as the
    write; a bulk change, or any with `index_later`, in the background (through
    Desk.catch_up_deferred: services/runtime/index_follower.py)."""
    replaced = desk._library.listen(functools.partial(_follow, desk, index_later=index_later))
    try:
        yield
    finally:
        desk._library.listen(replaced)


def _follow(desk: Desk, changes: Changes, index_later: bool) -> None:
    promise = desk.promise_if_started()
    if promise is not None:
        promise.note_changes(changes)  # the ranking learns from bulk changes too
    if changes.paper_ids or not changes.papers_added_or_removed:
        # The kept sort orders move these papers instead of reading every paper again.
        column_orders.of(desk._library).note(desk._library.generation(), changes.paper_ids)
    with index_may_lag():
        desk._follower.follow(changes, later=index_later)


@contextmanager
def index_may_lag() -> Iterator[None]:
    """Index updates after a commit: a failure is logged, never reported as the action's.

    The write has committed by then: an index that cannot follow (a full disk, a kill)
    is left stale and rebuilt by the next action (Desk.writing) or the next open, and
    the change is reported as made, because it was.
    """
    try:
        yield
    except Cancelled:
        raise  # the user stopped the indexing: the caller decides (an import withdraws)
    except Exception as error:  # whoosh raises many types; the data itself is safe
        log.warning(
            "the search index could not follow this change (%s: %s); it will be rebuilt",
            type(error).__name__,
            error,
        )

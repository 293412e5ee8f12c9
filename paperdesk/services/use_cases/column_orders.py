"""Every paper's place in each sort order, kept in memory and followed through changes.

Sorting a search's hits by a column used to ask the database for the whole column's
order per search (466 ms for titles at 100,000 papers, issue 11). The order is kept
with each paper's sort value, and only changes when the library does: a change noted
by the service that made it (`note`) moves just the papers it touched, read again from
the database when the order is next asked for (a rating set on a paper: one row and
9 ms of CPU, where reading the title order whole took 1.8 s at 100,000). After a change
not noted (another program's, an import of thousands) the order is read whole again.

The kept order is the database's: by the column's value (NULL first ascending, last
descending, text compared as SQLite's BINARY collation compares it, which Python's
str comparison matches), ties by ascending id.
"""

from __future__ import annotations

import threading
from array import array
from bisect import insort
from collections.abc import Collection, Iterable
from functools import total_ordering
from typing import Any
from weakref import WeakKeyDictionary

from paperdesk.store.library import Library

_NOWHERE = -1  # the place of an id the library does not hold (deleted, not yet re-indexed)
#: Above this many changed papers the orders are read again whole (cheaper than
#: moving each: a few hundred ms at 100,000 papers).
MOVE_AT_MOST = 2000
#: The most changes remembered: an order older than these is read whole again.
_NOTES_KEPT = 64

_SortKey = tuple[Any, ...]


class ColumnOrders:
    """One library's sort orders (as id arrays) and places (arrays indexed by paper id)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # the GUI's searches and a worker's may overlap
        # Each kept order as its papers' sort keys, in order (the id last in each),
        # the generation it reflects, its ids and (once a sort asked) their places.
        self._keys: dict[tuple[str, bool], list[_SortKey]] = {}
        self._generations: dict[tuple[str, bool], int] = {}
        self._orders: dict[tuple[str, bool], array[int]] = {}
        self._places: dict[tuple[str, bool], array[int]] = {}
        # The papers each noted change touched, by the generation it made.
        self._notes: dict[int, frozenset[int]] = {}

    def note(self, generation: int, paper_ids: Collection[int]) -> None:
        """A change that made `generation` touched (only) these papers' sort values."""
        with self._lock:
            self._notes[generation] = frozenset(paper_ids)
            for old in sorted(self._notes)[:-_NOTES_KEPT]:
                del self._notes[old]

    def order(self, library: Library, key: str, descending: bool) -> list[int]:
        """All paper ids in this order (ties by id, as the database breaks them)."""
        with self._lock:
            return self._order(library, key, descending).tolist()

    def sort(self, library: Library, ids: list[int], key: str, descending: bool) -> list[int]:
        """`ids` in this order, without those the library no longer holds."""
        with self._lock:
            order = self._order(library, key, descending)
            places = self._places.get((key, descending))
            if places is None:
                places = self._places[key, descending] = _places_of(order)
        size = len(places)
        held = [i for i in ids if 0 <= i < size and places[i] != _NOWHERE]
        return sorted(held, key=places.__getitem__)

    def _order(self, library: Library, key: str, descending: bool) -> array[int]:
        """The order (the caller holds the lock), brought up to the library's generation:
        only this one, so a change costs one order's update, not every kept order's."""
        generation = library.generation()
        wanted = (key, descending)
        kept = self._generations.get(wanted)
        if kept is not None and kept != generation:
            self._follow(library, wanted, kept, generation)
        found = self._orders.get(wanted)
        if found is None:
            # In the database's order: the keys are already sorted.
            keys = _keys_of(library.papers.sort_values(key, descending), descending)
            self._keys[wanted] = keys
            found = self._orders[wanted] = _ids_of(keys)
            self._places.pop(wanted, None)
        self._generations[wanted] = generation
        return found

    def _follow(
        self, library: Library, wanted: tuple[str, bool], kept: int, generation: int
    ) -> None:
        """Move the papers the noted changes since `kept` touched, or forget the order
        when a change in between was not noted."""
        self._places.pop(wanted, None)
        changed = self._changed_between(kept, generation)
        if changed is None or len(changed) > MOVE_AT_MOST:
            del self._keys[wanted], self._orders[wanted]
            return
        keys = self._keys[wanted]
        key, descending = wanted
        values = library.papers.sort_values(key, descending, changed)
        _move(keys, _keys_of(values, descending), changed)
        self._orders[wanted] = _ids_of(keys)
        oldest = min(self._generations.values())
        self._notes = {g: ids for g, ids in self._notes.items() if g > oldest}

    def _changed_between(self, kept: int, generation: int) -> set[int] | None:
        """The papers changed after generation `kept` up to `generation`; None when some
        change in between was not noted."""
        if generation < kept:
            return None
        changed: set[int] = set()
        for made in range(kept + 1, generation + 1):
            touched = self._notes.get(made)
            if touched is None:
                return None
            changed.update(touched)
        return changed


def _move(keys: list[_SortKey], moved: list[_SortKey], changed: set[int]) -> None:
    """Take the changed papers out of a sorted key list, and put back those still held."""
    keys[:] = [entry for entry in keys if entry[-1] not in changed]
    if len(moved) > 64:  # one sort of the nearly sorted list beats many inserts
        keys.extend(moved)
        keys.sort()
    else:
        for entry in moved:
            insort(keys, entry)


def _keys_of(values: Iterable[tuple[int, Any]], descending: bool) -> list[_SortKey]:
    """Sort keys ordering (id, value) pairs as the database does: NULL first when
    ascending, last when descending; ties by ascending id either way."""
    if descending:
        return [(value is None, _Reversed(value), paper_id) for paper_id, value in values]
    return [(value is not None, value, paper_id) for paper_id, value in values]


@total_ordering
class _Reversed:
    """A value that sorts in the reverse order of the values it wraps."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Reversed) and self.value == other.value

    def __lt__(self, other: _Reversed) -> bool:
        if self.value is None or other.value is None:  # NULLs, compared among themselves
            return False
        return bool(other.value < self.value)

    def __hash__(self) -> int:
        return hash(self.value)


def _ids_of(keys: list[_SortKey]) -> array[int]:
    return array("q", [entry[-1] for entry in keys])


def _places_of(order: array[int]) -> array[int]:
    places = array("q", [_NOWHERE]) * (max(order, default=0) + 1)
    for place, paper_id in enumerate(order):
        places[paper_id] = place
    return places


_BY_LIBRARY: WeakKeyDictionary[Library, ColumnOrders] = WeakKeyDictionary()


def of(library: Library) -> ColumnOrders:
    """The orders kept for an open library (forgotten with it)."""
    orders = _BY_LIBRARY.get(library)
    if orders is None:
        orders = _BY_LIBRARY[library] = ColumnOrders()
    return orders

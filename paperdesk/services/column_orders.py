"""Every paper's place in each sort order, read from the database once per generation.

Sorting a search's hits by a column used to ask the database for the whole column's
order per search (466 ms for titles at 100,000 papers, issue 11). The order only
changes when the library does, so it is kept until the database generation moves on:
a sorted search is then an in-memory sort of its hits by their places.
"""

from __future__ import annotations

import threading
from array import array
from weakref import WeakKeyDictionary

from paperdesk.store.library import Library

_NOWHERE = -1  # the place of an id the library does not hold (deleted, not yet re-indexed)


class ColumnOrders:
    """One library's sort orders (as id arrays) and places (arrays indexed by paper id)."""

    def __init__(self) -> None:
        self._lock = threading.RLock()  # the GUI's searches and a worker's may overlap
        self._generation: int | None = None
        self._orders: dict[tuple[str, bool], array[int]] = {}
        self._places: dict[tuple[str, bool], array[int]] = {}

    def order(self, library: Library, key: str, descending: bool) -> list[int]:
        """All paper ids in this order (ties by id, as the database breaks them)."""
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
        generation = library.generation()
        with self._lock:
            if generation != self._generation:
                self._orders.clear()
                self._places.clear()
                self._generation = generation
            found = self._orders.get((key, descending))
            if found is None:
                found = array("q", library.papers.sorted_ids(key, descending))
                self._orders[key, descending] = found
            return found


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

"""Ways to answer a search, from today's to the proposed one, for bench_search_paths.py.

Each path takes the user's query text and returns all matching paper ids in the order
asked for (relevance, or a table column). They differ only in how they get there:
- Today: paperdesk's FullTextIndex.search as it is (a searcher per query, every hit
  scored, each hit's paper id read from its stored fields; the parser's field check
  builds the schema again per query);
- OneSearcher: one searcher kept open until the index changes;
- IdArray: + paper ids from an array indexed by document number, loaded once per
  index generation, instead of each hit's stored fields;
- Proposed: + the schema's field names cached, no scoring when the order is a column
  (the caller sorts by an in-memory rank per column, also loaded once per generation),
  phrases on fields without positions answered from the `text` field's positions;
  `first_page` returns the best `page` hits before the rest are counted.
"""

from __future__ import annotations

import functools
from array import array
from pathlib import Path

from whoosh import index as windex
from whoosh import query as wq
from whoosh.searching import Searcher

from paperdesk.search import query as paperdesk_query
from paperdesk.search.index import INDEX_NAME, FullTextIndex
from paperdesk.search.query import parse_query
from paperdesk.store.library import Library

POSITIONAL = frozenset({"text"})


class Columns:
    """Column sort orders from the database: per query (today) or once per generation."""

    def __init__(self, library: Library) -> None:
        self.library = library
        self._ranks: dict[str, array] = {}

    def order(self, column: str) -> list[int]:
        return self.library.sorted_ids(column)

    def rank(self, column: str) -> array:
        """rank[paper id] = its place in the column's order (cache it per generation)."""
        found = self._ranks.get(column)
        if found is None:
            order = self.order(column)
            found = array("l", bytes(8 * (max(order, default=0) + 1)))
            for place, paper_id in enumerate(order):
                found[paper_id] = place
            self._ranks[column] = found
        return found


class Today:
    name = "today (FullTextIndex.search)"

    def __init__(self, folder: Path, columns: Columns) -> None:
        self.index = FullTextIndex(folder)
        self.columns = columns

    def search(self, text: str, sort: str | None = None) -> list[int]:
        ids = self.index.search(text).ids
        if sort is not None:  # as services.searching.find_ids does
            wanted = set(ids)
            ids = [i for i in self.columns.order(sort) if i in wanted]
        return ids

    def close(self) -> None:
        self.index.close()


class OneSearcher:
    name = "+ one searcher kept open"

    def __init__(self, folder: Path, columns: Columns) -> None:
        self.columns = columns
        self.ix = windex.open_dir(folder, indexname=INDEX_NAME)
        self.searcher: Searcher = self.ix.searcher()

    def current(self) -> Searcher:
        # Cheap check per query: a new generation (another writer committed) reopens.
        if not self.searcher.up_to_date():
            self.searcher = self.searcher.refresh()
        return self.searcher

    def search(self, text: str, sort: str | None = None) -> list[int]:
        results = self.current().search(parse_query(text), limit=None)
        return self.sorted([int(hit["id"]) for hit in results], sort)

    def sorted(self, ids: list[int], sort: str | None) -> list[int]:
        if sort is None:
            return ids
        wanted = set(ids)
        return [i for i in self.columns.order(sort) if i in wanted]

    def close(self) -> None:
        self.searcher.close()
        self.ix.close()


class IdArray(OneSearcher):
    name = "+ docnum -> id array"

    def __init__(self, folder: Path, columns: Columns) -> None:
        super().__init__(folder, columns)
        self.ids = load_id_array(self.searcher)

    def search(self, text: str, sort: str | None = None) -> list[int]:
        results = self.current().search(parse_query(text), limit=None)
        ids = self.ids
        return self.sorted([ids[docnum] for docnum, _ in results.items()], sort)


class Proposed(IdArray):
    name = "+ cached fields, unscored when sorted"

    def __init__(self, folder: Path, columns: Columns) -> None:
        super().__init__(folder, columns)
        schema = self.searcher.schema
        self.has_positions = {
            n for n in schema.names() if schema[n].format and schema[n].format.supports("positions")
        }

    def parse(self, text: str) -> wq.Query:
        with cached_known_fields():
            parsed = parse_query(text)
        return phrases_from_text(parsed, self.has_positions)

    def search(self, text: str, sort: str | None = None) -> list[int]:
        parsed = self.parse(text)
        searcher = self.current()
        ids = self.ids
        if sort is None:
            results = searcher.search(parsed, limit=None)
            return [ids[docnum] for docnum, _ in results.items()]
        found = [ids[docnum] for docnum in searcher.docs_for_query(parsed)]
        return sorted(found, key=self.columns.rank(sort).__getitem__)

    def first_page(self, text: str, page: int = 100) -> tuple[list[int], int]:
        """The best `page` hits now; the count (the rest) only when the caller asks."""
        results = self.current().search(self.parse(text), limit=page)
        ids = self.ids
        return [ids[docnum] for docnum, _ in results.items()], results.scored_length()


PATHS = (Today, OneSearcher, IdArray, Proposed)


# ------------------------------------------------------------------ helpers


def load_id_array(searcher: Searcher) -> array:
    """Paper id of every document number, read once per index generation."""
    reader = searcher.reader()
    ids = array("l", bytes(8 * reader.doc_count_all()))
    for docnum, fields in reader.iter_docs():
        ids[docnum] = int(fields["id"])
    return ids


@functools.lru_cache(maxsize=1)
def _known_fields() -> frozenset[str]:
    return frozenset(_original_known_fields())


_original_known_fields = paperdesk_query.known_fields


class cached_known_fields:  # noqa: N801 - used like a function, as contextlib helpers are
    """Within the block, the parser's field check uses field names computed once."""

    def __enter__(self) -> None:
        paperdesk_query.known_fields = _known_fields  # type: ignore[assignment]

    def __exit__(self, *_exc: object) -> None:
        paperdesk_query.known_fields = _original_known_fields


def phrases_from_text(parsed: wq.Query, has_positions: set[str]) -> wq.Query:
    """A phrase on a field without positions (title:"graph neural") becomes the phrase
    in `text` (which holds title, authors and note too) and each word in the field."""

    def fix(node: wq.Query) -> wq.Query:
        if isinstance(node, wq.Phrase) and node.fieldname not in has_positions:
            words = list(node.words)
            phrase = wq.Phrase("text", words, slop=node.slop, boost=node.boost)
            return wq.And([phrase, *(wq.Term(node.fieldname, w) for w in words)])
        return node

    return parsed.accept(fix)

"""FullTextIndex: the one interface to the whoosh index (derived, disposable data).

The index remembers which database generation it reflects in a stamp file written
after each commit. A missing, corrupt, stale or half-rebuilt index (the `rebuilding`
flag is set before a rebuild and removed after it) is rebuilt from the database on
open, so the index is never the only copy of anything (DESIGN §3, qutebrowser history).
"""

from __future__ import annotations

import json
import logging
import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from whoosh import index as windex
from whoosh.index import Index
from whoosh.searching import Searcher

from paperdesk.core.errors import Cancelled, QueryError
from paperdesk.search.query import highlight_terms, parse_query
from paperdesk.search.schema import SCHEMA_VERSION, IndexDocument, build_schema

log = logging.getLogger(__name__)

STAMP_FILE = "paperdesk-index.json"
REBUILD_FLAG = "rebuilding"
INDEX_NAME = "papers"


@dataclass(frozen=True)
class Hits:
    """Matching paper ids, best first, with what to highlight and a spelling suggestion."""

    ids: list[int]
    terms: tuple[str, ...]
    suggestion: str | None


class FullTextIndex:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._index: Index | None = None

    # ------------------------------------------------------------------ state

    def stamp(self) -> dict[str, int] | None:
        try:
            return json.loads((self.folder / STAMP_FILE).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def why_stale(self, generation: int) -> str | None:
        """Why the index must be rebuilt for this database generation, or None if fine."""
        reason = self.why_unusable()
        if reason is None and (self.stamp() or {}).get("generation") != generation:
            return "the index is older than the library"
        return reason

    def why_unusable(self) -> str | None:
        """Why the index cannot be used at all (missing, damaged, half-built), or None.

        A team library's index is then rebuilt; short of that it catches up from the
        change sequence (services/team_index.py), whatever generation its stamp names.
        """
        if (self.folder / REBUILD_FLAG).exists():
            return "an earlier rebuild was interrupted"
        stamp = self.stamp()
        try:
            if not windex.exists_in(self.folder, indexname=INDEX_NAME):
                return "the index is missing"
            if stamp is None:
                return "the index stamp is missing or unreadable"
            if stamp.get("schema") != SCHEMA_VERSION:
                return "the index was built by another version"
            self._open().doc_count()
        except Exception as error:  # whoosh raises many types for damaged files
            self._index = None
            return f"the index is damaged ({type(error).__name__})"
        return None

    def _open(self) -> Index:
        if self._index is None:
            self._index = windex.open_dir(self.folder, indexname=INDEX_NAME)
        return self._index

    def _write_stamp(self, generation: int) -> None:
        path = self.folder / STAMP_FILE
        temporary = path.with_suffix(".tmp")
        temporary.write_text(
            json.dumps({"schema": SCHEMA_VERSION, "generation": generation}), encoding="utf-8"
        )
        temporary.replace(path)

    def mark_current(self, generation: int) -> None:
        """Record that the index reflects this generation (after a change it need not see)."""
        self._write_stamp(generation)

    def doc_count(self) -> int:
        return self._open().doc_count()

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
            self._index = None

    # ------------------------------------------------------------------ writing

    def rebuild(
        self,
        batches: Iterable[Sequence[IndexDocument]],
        generation: int,
        total: int,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
    ) -> None:
        """Index everything from scratch; an interrupted rebuild is redone at next open."""
        self.close()
        if self.folder.exists():
            shutil.rmtree(self.folder)
        self.folder.mkdir(parents=True)
        (self.folder / REBUILD_FLAG).write_text("", encoding="utf-8")
        index = windex.create_in(self.folder, build_schema(), indexname=INDEX_NAME)
        writer = index.writer(limitmb=256)
        done = 0
        try:
            for batch in batches:
                if cancelled is not None and cancelled():
                    raise Cancelled
                for document in batch:
                    writer.add_document(**document.fields())
                done += len(batch)
                if progress is not None:
                    progress(done, total)
            writer.commit()
        except BaseException:
            writer.cancel()
            index.close()
            raise
        self._index = index
        self._write_stamp(generation)
        (self.folder / REBUILD_FLAG).unlink()
        log.info("indexed %d papers", done)

    def update(
        self,
        documents: Sequence[IndexDocument],
        deleted_ids: Iterable[int],
        generation: int | None,
    ) -> None:
        """Replace the documents of changed papers and drop deleted ones, in one commit.

        `generation` None: other papers still wait to be re-indexed, so the index does
        not yet reflect any generation and its stamp stays as it was.
        """
        index = self._open()
        writer = index.writer()
        try:
            for paper_id in deleted_ids:
                writer.delete_by_term("id", str(paper_id))
            for document in documents:
                writer.update_document(**document.fields())
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        if generation is not None:
            self._write_stamp(generation)

    def add(
        self,
        documents: Iterable[IndexDocument],
        generation: int | None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Add new papers in one commit (cheaper than update: no old version to delete).

        One writer for the whole batch: a commit per chunk would write a segment per
        chunk and spend the import merging them.
        """
        index = self._open()
        writer = index.writer(limitmb=256)
        try:
            for count, document in enumerate(documents, start=1):
                writer.add_document(**document.fields())
                if progress is not None and count % 500 == 0:
                    progress(count)
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        if generation is not None:  # None: see update()
            self._write_stamp(generation)

    # ------------------------------------------------------------------ reading

    def search(self, text: str) -> Hits:
        """All matches ranked by BM25F; QueryError for a query the user must fix."""
        parsed = parse_query(text)
        index = self._open()
        with index.searcher() as searcher:
            results = searcher.search(parsed, limit=None)
            ids = [int(hit["id"]) for hit in results]
            suggestion = None if ids else _suggest(searcher, parsed, text)
        return Hits(ids=ids, terms=highlight_terms(parsed), suggestion=suggestion)

    def more_like(self, paper_id: int, text: str, count: int = 10) -> list[int]:
        """Papers whose words are most like `text` (the paper's own title and abstract).

        The text comes from the caller because the index stores no copy of it (keeping
        term vectors for 100,000 abstracts would double the index for one feature).
        """
        index = self._open()
        with index.searcher() as searcher:
            number = searcher.document_number(id=str(paper_id))
            if number is None:
                return []
            similar = searcher.more_like(number, "text", text=text, top=count)
            return [int(hit["id"]) for hit in similar]

    def indexed_ids(self) -> set[int]:
        with self._open().searcher() as searcher:
            return {int(fields["id"]) for fields in searcher.all_stored_fields()}


def _suggest(searcher: Searcher, parsed: object, text: str) -> str | None:
    try:
        corrected = searcher.correct_query(parsed, text)
    except (QueryError, ValueError, AttributeError, TypeError):
        # whoosh's corrector also walks numeric terms (year:1999) and fails on them;
        # a suggestion is a nicety, never a reason for the search to fail.
        return None
    return corrected.string if corrected.query != parsed else None

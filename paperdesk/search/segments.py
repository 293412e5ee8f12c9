"""Writing index segments: in this process, or one per worker process, listed at the end.

A whoosh index is a table of contents (TOC) listing segments. A bulk build writes one
segment per worker process without whoosh's lock (`_lk=False`, as whoosh's own MpWriter
sub-writers do: the process that started them holds it), and the starting process then
writes one TOC naming the old segments and the new ones: the workers' documents become
searchable at once, in one step, or not at all.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from whoosh.codec.base import Segment
from whoosh.index import TOC, Index
from whoosh.writing import SegmentWriter

from paperdesk.search.schema import IndexDocument
from paperdesk.search.storage import INDEX_NAME, open_index

__all__ = ["INDEX_NAME", "POOL_MB", "UPDATE_POOL_MB", "list_segments", "write_segment", "writer"]

# The writer's in-memory pool before it spills sorted runs to disk (whoosh's default):
# a worker of an index pool, or an import indexed in this process. Python's objects
# take more than whoosh counts: at 256 each worker of a 100,000-paper import peaked at
# 441 MB (issue 25: 300 at most). A smaller pool only adds runs to merge into the same
# one segment per worker (more segments, a finer split, made fuzzy searches 3.5x slower).
POOL_MB = 128
#: The pool of a writer updating the live index (an edit, a bulk edit's catch-up, in
#: the window's process): a commit that merges small segments passes every posting of
#: theirs through it (README, Performance: 294 -> 187 MB peak over 40 catch-up chunks).
UPDATE_POOL_MB = 32


class _LengthsReadOnce:
    """`doc_field_length` answered from one list per field, filled on first use."""

    def __init__(self, reader: Any, doc_count: int) -> None:
        self._reader = reader
        self._doc_count = doc_count
        self._tables: dict[str, list[int | None]] = {}

    def doc_field_length(self, docnum: int, fieldname: str, default: int = 0) -> int | None:
        table = self._tables.get(fieldname)
        if table is None:
            read = self._reader.doc_field_length
            table = [read(n, fieldname, default) for n in range(self._doc_count)]
            self._tables[fieldname] = table
        return table[docnum]


class FastSegmentWriter(SegmentWriter):  # type: ignore[misc]
    """SegmentWriter whose flush reads each document's field lengths once.

    Flushing writes every posting with its field's length in its document, which whoosh
    asks the per-document reader for per posting (four Python calls, ~120 times a paper).
    The same numbers reach the same writer from a list, so the segment is the same.
    """

    def _flush_segment(self) -> None:
        self.perdocwriter.close()
        reader = self.per_document_reader()
        lengths = _LengthsReadOnce(reader, self.docnum)
        self.fieldwriter.add_postings(self.schema, lengths, self.pool.iter_postings())
        self.fieldwriter.close()
        reader.close()

    def remove_temporaries(self) -> None:
        """Delete this writer's temporary folders (storage.py gives it its own): its
        pool's, and its per-document writer's, which asks for one of its own too (whoosh
        meant both to be the shared folder that finishing a writer deletes)."""
        self._tempstorage.destroy()
        columns = getattr(self.perdocwriter, "_cols", None)
        storage = getattr(columns, "_tempstorage", None)
        if storage is not None and storage is not self._tempstorage:
            storage.destroy()

    def _finish(self) -> None:  # after a commit or a cancel
        super()._finish()
        self.remove_temporaries()


def writer(
    index: Index, locked: bool = True, timeout: float = 0.0, limitmb: float = POOL_MB
) -> FastSegmentWriter:
    """A writer of one new segment; `locked` False when the caller holds whoosh's lock,
    else it waits up to `timeout` seconds for it. Its pool holds `limitmb` of postings
    before it spills a sorted run to its temporary folder."""
    return FastSegmentWriter(index, _lk=locked, timeout=timeout, limitmb=limitmb)


def write_segment(
    folder: str,
    documents: Iterable[IndexDocument],
    done: Callable[[int], None] | None = None,
) -> Segment | None:
    """Write documents as one new segment of the index in `folder`, listed nowhere yet.

    For a worker process: the caller holds the index's lock and lists the segment with
    `list_segments`. `done(n)` is told every 500 documents. None when there were none.
    """
    index = open_index(folder)
    segment_writer = writer(index, locked=False)
    count = 0
    try:
        for count, document in enumerate(documents, start=1):
            segment_writer.add_document(**document.fields())
            if done is not None and count % 500 == 0:
                done(500)
    except BaseException:
        segment_writer.cancel()  # the whole build is abandoned, this writer's runs too
        raise
    if done is not None:
        done(count % 500)
    try:
        if not count:
            segment_writer._close_segment()
            return None
        # Not commit(): the segment is listed by the caller, with the other workers'.
        return segment_writer._finalize_segment()  # type: ignore[no-any-return]
    finally:
        # The writer's own temporary folders (storage.py): no other writer's files.
        segment_writer.remove_temporaries()


def list_segments(index: Index, segments: Iterable[Segment | None]) -> None:
    """Add workers' segments to the index in one new TOC (the caller holds the lock).
    Other workers may still be writing theirs: their temporary folders stay."""
    new = [segment for segment in segments if segment is not None]
    if not new:
        return
    generation = index.latest_generation() + 1
    TOC(index.schema, [*index._segments(), *new], generation).write(index.storage, INDEX_NAME)

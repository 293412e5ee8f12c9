"""A whoosh SegmentWriter whose commit reads each document's field lengths once.

When a segment is flushed, whoosh writes every posting with the length of its field in
its document (for BM25's block bounds) and asks the per-document reader for it per
posting: a column lookup through four Python calls, ~120 times per paper. Here each
field's lengths are read once into a list and the postings look them up there; the
same numbers reach the same writer, so the segment is the same.
A prototype for paperdesk/search (bench_index_floor.py's "writer: lengths read once").
"""

from __future__ import annotations

from typing import Any

from whoosh.writing import SegmentWriter


class LengthsReadOnce:
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


class FastSegmentWriter(SegmentWriter):
    def _flush_segment(self) -> None:
        # SegmentWriter._flush_segment, with the per-document reader wrapped.
        self.perdocwriter.close()
        reader = self.per_document_reader()
        lengths = LengthsReadOnce(reader, self.docnum)
        self.fieldwriter.add_postings(self.schema, lengths, self.pool.iter_postings())
        self.fieldwriter.close()
        reader.close()

"""Where the whoosh index's files are read and written: `open_index`, `create_index`.

Segments are read in place. whoosh maps a segment file (`.seg`, the compound of its
postings, term dictionary and columns) into memory, then copies each part it opens
whole into a BytesIO (filedb/structfile.BufferFile): opening a searcher of the
100,000-paper index read all of its 170 MB, 144 MB of it the postings, into the heap,
and touched every page of the mapping besides (issue 11: the window held ~500 MB after
a few searches). Here a part is a view of the mapping: a search reads the pages of the
terms it looks up and of their posting lists, which the kernel can drop again.

Every writer of an index gets a temporary folder of its own for the sorted runs its
pool spills. whoosh names one folder per index (`papers.tmp`), shared by all writers,
and a writer that finishes or is cancelled deletes it: a cancelled worker of an index
pool (services/runtime/index_pool.py) deleted the runs another worker was still writing, which
then failed reading them back.
"""

from __future__ import annotations

import io
import mmap
import os
import shutil
import uuid
from pathlib import Path
from typing import Any

from whoosh.fields import Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import BufferFile, StructFile
from whoosh.index import FileIndex, Index

INDEX_NAME = "papers"
_SEGMENT_SUFFIX = ".seg"
#: How a writer's temporary folder is named: `papers-<unique>.tmp`.
TEMP_SUFFIX = ".tmp"


#: The read buffer of a part's file position (block headers, pickled block infos).
_READ_BUFFER = 4096


class _ViewReader(io.RawIOBase):
    """A seekable, read-only file over a memoryview, copying only what is read."""

    def __init__(self, view: memoryview) -> None:
        super().__init__()
        self._view = view
        self._position = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        start = self._position
        count = max(0, min(len(buffer), len(self._view) - start))
        buffer[:count] = self._view[start : start + count]
        self._position = start + count
        return count

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        if whence == io.SEEK_CUR:
            offset += self._position
        elif whence == io.SEEK_END:
            offset += len(self._view)
        if offset < 0:
            raise ValueError("negative seek position")
        self._position = offset
        return offset

    def tell(self) -> int:
        return self._position

    def close(self) -> None:
        self._view = memoryview(b"")  # the mapping may be closed once every view is
        super().close()


class ViewFile(BufferFile):  # type: ignore[misc]
    """A part of a segment, read where it lies in the mapped segment file.

    `get` slices the view, as whoosh's BufferFile does; reads through the file position
    go through a small buffer instead of a copy of the whole part."""

    def __init__(self, view: memoryview, name: str | None = None) -> None:
        StructFile.__init__(self, io.BufferedReader(_ViewReader(view), _READ_BUFFER), name=name)
        self._buf = view
        self.is_real = False

    def subset(self, position: int, length: int, name: str | None = None) -> ViewFile:
        return ViewFile(self._buf[position : position + length], name=name or self._name)

    def close(self) -> None:
        super().close()
        self._buf = memoryview(b"")


class MappedFile(ViewFile):
    """A whole segment file, mapped into memory. whoosh's CompoundStorage asks it for
    its parts (`subset`) when the storage says it does not map files itself."""

    def __init__(self, path: str, name: str) -> None:
        with open(path, "rb") as file:
            self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        super().__init__(memoryview(self._map), name)

    def close(self) -> None:
        view = self._buf
        super().close()
        view.release()
        try:
            self._map.close()
        except BufferError:
            pass  # a part is still open somewhere: the mapping goes with its last view


class IndexStorage(FileStorage):  # type: ignore[misc]
    """A folder holding one index: segments read in place (`MappedFile`), and writers
    that each spill to a temporary folder of their own."""

    def __init__(self, path: str, readonly: bool = False) -> None:
        # supports_mmap False: whoosh then asks the segment file for its parts, where
        # its own mapping would copy each part whole.
        super().__init__(path, supports_mmap=False, readonly=readonly)

    def open_file(self, name: str, **kwargs: Any) -> StructFile:
        if name.endswith(_SEGMENT_SUFFIX) and not kwargs:
            path = self._fpath(name)
            if os.path.getsize(path):
                return MappedFile(path, name)
        return super().open_file(name, **kwargs)

    def temp_storage(self, name: str | None = None) -> FileStorage:
        stem = (name or INDEX_NAME).removesuffix(TEMP_SUFFIX)
        unique = f"{stem}-{os.getpid()}-{uuid.uuid4().hex[:12]}{TEMP_SUFFIX}"
        return FileStorage(os.path.join(self.folder, unique)).create()


def open_index(folder: str | Path) -> Index:
    """The index in `folder` (whoosh's EmptyIndexError when there is none)."""
    return FileIndex(IndexStorage(str(folder)), indexname=INDEX_NAME)


def create_index(folder: str | Path, schema: Schema) -> Index:
    """A new, empty index in `folder` (created when missing)."""
    return FileIndex.create(IndexStorage(str(folder)).create(), schema, INDEX_NAME)


def remove_leftover_temporaries(folder: str | Path) -> None:
    """Delete writers' temporary folders in an index folder: those of writers killed
    before they could. Only while no writer can be at work (the caller holds the lock)."""
    for entry in Path(folder).iterdir():
        if entry.is_dir() and entry.name.startswith(INDEX_NAME) and entry.suffix == TEMP_SUFFIX:
            shutil.rmtree(entry, ignore_errors=True)

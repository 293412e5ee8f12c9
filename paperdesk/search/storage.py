"""Where the whoosh index's files are read and written: `open_index`, `create_index`.

Every writer of an index gets a temporary folder of its own for the sorted runs its
pool spills. whoosh names one folder per index (`papers.tmp`), shared by all writers,
and a writer that finishes or is cancelled deletes it: a cancelled worker of an index
pool (services/index_pool.py) deleted the runs another worker was still writing, which
then failed reading them back.
"""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

from whoosh.fields import Schema
from whoosh.filedb.filestore import FileStorage
from whoosh.index import FileIndex, Index

INDEX_NAME = "papers"
#: How a writer's temporary folder is named: `papers-<unique>.tmp`.
TEMP_SUFFIX = ".tmp"


class IndexStorage(FileStorage):  # type: ignore[misc]
    """A folder holding one index, whose writers each spill to a folder of their own."""

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

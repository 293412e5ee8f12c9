"""A whole library to a JSON backup file and back (issue 5, part 5).

`write_backup` is what `paperdesk export --format json` calls: it writes every paper
with every user datum (paperdesk.formats.backup describes the file). `restore_backup`
brings such a file back into an empty library, ids and all, and rebuilds the search
index; `paperdesk restore FILE` and `paperdesk import FILE` both end here.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

from paperdesk.config import UNFINISHED_DIR
from paperdesk.core.changes import Changes, ids_of
from paperdesk.core.errors import LibraryError
from paperdesk.formats.atomic import atomic_open
from paperdesk.formats.backup import read_backup_file, write_backup_document
from paperdesk.services.runtime import indexing
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import index_may_lag, mutation
from paperdesk.store.snapshot import LibraryNotEmptyError
from paperdesk.store.tables import now

log = logging.getLogger(__name__)


def write_backup(desk: Desk, path: Path) -> int:
    """Write the whole library to `path` (all or nothing); returns how many papers.

    WriteError (a PaperdeskError) when the file cannot be written; the old file, if
    any, is then left as it was.
    """
    state = desk._library.backups.read_state()
    with atomic_open(path, unfinished=desk.folder / UNFINISHED_DIR) as stream:
        write_backup_document(stream, state, now())
    log.info("backed up %d papers to %s", len(state["papers"]), path)
    return len(state["papers"])


@mutation
def restore_backup(
    desk: Desk, path: Path, progress: Callable[[int, int], None] | None = None
) -> Changes:
    """Fill an empty library from a backup file, then index it.

    FormatError naming the fault when the file is not a sound backup; LibraryError when
    the library already holds data (a restore never merges). Either way nothing is
    written. `progress` follows the re-indexing, the long part.
    """
    document = read_backup_file(path)
    description = f"Restore backup {path.name}"
    try:
        desk._library.backups.restore(document.state, description)
    except LibraryNotEmptyError as error:
        raise LibraryError(
            f"cannot restore into {desk.folder}: it is not empty ({error.listed}). A restore "
            "replaces a whole library, so it needs an empty one: "
            f"paperdesk --library NEW_FOLDER restore {path}"
        ) from None
    with index_may_lag():
        indexing.rebuild(desk._library, desk._index, progress)
    paper_ids = [paper["id"] for paper in document.state["papers"]]
    log.info("restored %d papers from %s", len(paper_ids), path)
    return Changes(
        description,
        ids_of(paper_ids),
        papers_added_or_removed=True,
        tags=True,
        shortlists=True,
        saved_searches=True,
        imports=True,
    )

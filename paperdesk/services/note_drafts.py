"""Notes typed into a team library while its server was away, kept on this machine.

A window closed while the server cannot be reached has notes it could not save; they
are written beside this machine's index of the library (its local folder) and saved
by the next window that opens the library, so nothing typed is lost.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

from paperdesk.formats.atomic import atomic_open
from paperdesk.services.desk import Desk

log = logging.getLogger(__name__)

DRAFTS_FILE = "note-drafts.json"


def keep(desk: Desk, drafts: Mapping[int, str]) -> None:
    """Write `drafts` (paper id -> note text) down, replacing those kept before."""
    with atomic_open(desk.folder / DRAFTS_FILE) as stream:
        json.dump({str(paper_id): text for paper_id, text in drafts.items()}, stream)


def take(desk: Desk) -> dict[int, str]:
    """The drafts kept by a window closed while offline (forgotten here: the caller
    saves them, and keeps them again if it cannot)."""
    path = desk.folder / DRAFTS_FILE
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as error:
        log.warning("%s: the note drafts could not be read (%s)", path, error)
        return {}
    path.unlink(missing_ok=True)
    return {int(paper_id): str(text) for paper_id, text in kept.items()}

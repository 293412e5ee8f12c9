"""Notes typed into a team library while its server was away, kept on this machine.

A window closed while the server cannot be reached has notes it could not save; they
are written beside this machine's index of the library (its local folder) and saved
by the next window that opens the library, so nothing typed is lost. Each keeps the
note as it was before the user typed: if the same member changed it elsewhere
meanwhile, saving the draft keeps both texts (store/notes.py `Notes.set`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass

from paperdesk.formats.atomic import atomic_open
from paperdesk.services.runtime.desk import Desk

log = logging.getLogger(__name__)

DRAFTS_FILE = "note-drafts.json"


@dataclass(frozen=True)
class Draft:
    """A note's text not saved yet, and the note it was typed over (None: not known,
    the text replaces whatever is stored)."""

    text: str
    based_on: str | None


def keep(desk: Desk, drafts: Mapping[int, Draft]) -> None:
    """Write `drafts` (by paper id) down, replacing those kept before."""
    with atomic_open(desk.folder / DRAFTS_FILE) as stream:
        kept = {str(paper_id): [d.text, d.based_on] for paper_id, d in drafts.items()}
        json.dump(kept, stream)


def take(desk: Desk) -> dict[int, Draft]:
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
    return {int(paper_id): _draft(value) for paper_id, value in kept.items()}


def _draft(value: str | list[str | None]) -> Draft:
    if isinstance(value, str):  # a draft kept before drafts knew their base
        return Draft(value, None)
    text, based_on = value
    return Draft(str(text), based_on)

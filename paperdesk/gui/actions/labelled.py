"""A screening's decisions to and from a labelled dataset (ASReview's `label_included`
CSV or RIS), from the sidebar's Screenings entries: the same service calls as
`paperdesk screenings export/import`, off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from paperdesk.gui.actions import perform
from paperdesk.gui.operations import Operations
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import labelled, screenings

#: The file dialogs' filter for a labelled dataset.
FILE_FILTER = "Labelled datasets (*.csv *.ris)"

Tell = Callable[[str], None]


def export_labels(operations: Operations, name: str, path: Path, tell: Tell) -> None:
    """Write screening `name`'s papers with their labels to `path` (on the reader
    thread: a read), then say how many."""

    def write(desk: Desk) -> int:
        return labelled.export(desk, screenings.named(desk, name), path)

    what = f"Exporting the labels of {name}"
    operations.read(
        what,
        write,
        on_done=lambda count: tell(f"{count:,} papers of {name} written to {path.name}"),
        on_error=partial(operations.errors.report, what),
    )


def import_labels(operations: Operations, name: str, path: Path) -> None:
    """Import `path` and record its labels as screening `name`'s decisions (created if
    new): one user action on the writer thread, one undo step; its description says how
    many labels were recorded."""
    perform(
        operations,
        f"Labels from {path.name}",
        lambda desk: labelled.import_into(desk, name, path)[2],
    )

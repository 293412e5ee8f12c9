"""`paperdesk screenings`: list screenings with their progress; forget one; move its
decisions to and from other screening tools as a labelled dataset."""

from __future__ import annotations

import argparse
from pathlib import Path

from paperdesk.cli.output import print_json
from paperdesk.services import labelled, screenings
from paperdesk.services.desk import Desk


def cmd_screenings(desk: Desk, args: argparse.Namespace) -> int:
    action = args.screenings_action
    if action == "delete":
        screenings.delete(desk, args.name)
        print(f"Forgot screening {args.name!r} (its decisions stay in the library's log)")
        return 0
    if action == "export":
        count = labelled.export(desk, screenings.named(desk, args.name), Path(args.file))
        print(f"{count:,} papers written to {args.file} with {labelled.LABEL}")
        return 0
    if action == "import":
        screening, count, _changes = labelled.import_into(desk, args.name, Path(args.file))
        print(f"{count:,} labels from {args.file} recorded in screening {screening.name!r}")
        return 0
    lines = screenings.summaries(desk)
    if args.json:
        print_json(
            [
                {
                    "name": line.screening.name,
                    "scope": line.screening.describe(),
                    "papers": line.papers,
                    "decided": line.decided,
                    "relevant": line.relevant,
                }
                for line in lines
            ]
        )
    elif not lines:
        print("No screenings yet: `paperdesk triage --screening NAME` starts one")
    for line in lines if not args.json else ():
        print(line.text())
    return 0

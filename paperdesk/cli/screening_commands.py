"""`paperdesk screenings`: list screenings with their progress; forget one; move its
decisions to and from other screening tools as a labelled dataset; in a team library,
finish a blind screening, list its conflicts and resolve them."""

from __future__ import annotations

import argparse
from pathlib import Path

from paperdesk.cli.output import print_json
from paperdesk.core.double_screening import Conflict, PairFigures
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.triage import LABELS, Decision
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import double_screening, labelled, screenings


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
    if action in PAIR_ACTIONS:
        return PAIR_ACTIONS[action](desk, args)
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


def _finish(desk: Desk, args: argparse.Namespace) -> int:
    screening = screenings.named(desk, args.name)
    double_screening.finish(desk, screening)
    print(f"You finished {screening.name!r}: your decisions are final.")
    _print_figures(double_screening.figures(desk, screening))
    return 0


def _conflicts(desk: Desk, args: argparse.Namespace) -> int:
    screening = screenings.named(desk, args.name)
    found = double_screening.conflicts(desk, screening)
    figures = double_screening.figures(desk, screening)
    if args.json:
        print_json(
            {
                "screening": screening.name,
                "conflicts": [_conflict_json(c) for c in found],
                "members": [vars(m) for m in figures.members] if figures else [],
                "agreement": [vars(a) for a in figures.agreements] if figures else [],
            }
        )
        return 0
    _print_figures(figures)
    if not found:
        print("No conflicts to resolve.")
    for conflict in found:
        print(f"\n{conflict.paper_id}  {conflict.title}")
        for vote in conflict.votes:
            reason = f" ({vote.reason})" if vote.reason else ""
            print(f"    {vote.member}: {LABELS[vote.decision]}{reason}")
            for line in vote.note.splitlines():
                print(f"        {line}")
    if found:
        print(
            f"\n`paperdesk screenings resolve {screening.name!r} PAPER keep|maybe|discard` "
            "settles one."
        )
    return 0


def _resolve(desk: Desk, args: argparse.Namespace) -> int:
    screening = screenings.named(desk, args.name)
    if args.agreed:
        if args.paper is not None:
            raise InvalidValueError("resolve: either PAPER DECISION or --agreed, not both")
        changes = double_screening.settle_agreed(desk, screening)
        print(f"{changes.description}: {len(changes.paper_ids):,} papers")
        return 0
    if args.paper is None or args.decision is None:
        raise InvalidValueError("resolve: give PAPER and its decision (keep, maybe, discard)")
    changes = double_screening.resolve(
        desk, screening, args.paper, Decision(args.decision), args.reason
    )
    print(f"{changes.description}: paper {args.paper}")
    return 0


PAIR_ACTIONS = {"finish": _finish, "conflicts": _conflicts, "resolve": _resolve}


def _print_figures(figures: PairFigures | None) -> None:
    for line in figures.lines() if figures else ():
        print(line)


def _conflict_json(conflict: Conflict) -> dict[str, object]:
    return {
        "paper": conflict.paper_id,
        "title": conflict.title,
        "votes": [
            {"member": v.member, "decision": v.decision.value, "reason": v.reason, "note": v.note}
            for v in conflict.votes
        ],
    }

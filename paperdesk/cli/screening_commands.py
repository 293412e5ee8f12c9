"""`paperdesk screenings`: list screenings with their progress; forget one; move its
decisions to and from other screening tools as a labelled dataset; in a team library,
finish a blind screening, list its conflicts and resolve them. `paperdesk stats`: the
library's figures and a screening's progress, stopping estimate and PRISMA counts."""

from __future__ import annotations

import argparse
import textwrap
from pathlib import Path

from paperdesk.cli.output import print_json, width
from paperdesk.core.double_screening import Conflict, PairFigures
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.triage import LABELS, Decision, TriageStats
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import double_screening, labelled, screenings, stats
from paperdesk.services.use_cases.screenings import Prisma


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


def cmd_stats(desk: Desk, args: argparse.Namespace) -> int:
    if args.prisma:  # before anything is printed: a bad path fails alone
        screening = screenings.named(desk, args.screening) if args.screening else None
        screening = screening or screenings.last_used(desk)
        if screening is None:
            raise InvalidValueError("--prisma: no screening yet (`paperdesk triage` starts one)")
        screenings.export_prisma(desk, screening, Path(args.prisma))
    figures = stats.library_stats(desk)
    if args.json:
        triage_figures = screenings.figures(desk, args.screening, args.library_wide)
        print_json(
            {
                "papers": figures.papers,
                "by_status": dict(figures.by_status),
                "by_venue_year": dict(figures.by_venue_year),
                "rated": figures.rated,
                "with_notes": figures.with_notes,
                "tags": figures.tags,
                "shortlists": figures.shortlists,
                "imports": figures.imports,
                "triage": stats_json(
                    *triage_figures, double_screening.figures_of(desk, triage_figures[0])
                ),
            }
        )
        return 0
    print(f"Library   {desk.location}")
    print(f"Papers    {figures.papers}")
    print("Status    " + ", ".join(f"{name} {count}" for name, count in figures.by_status))
    print(f"Rated     {figures.rated}    with notes {figures.with_notes}")
    print(
        f"Tags      {figures.tags}    shortlists {figures.shortlists}    imports {figures.imports}"
    )
    if figures.by_venue_year:
        print(
            "Venues    "
            + textwrap.fill(
                ", ".join(f"{name} ({count})" for name, count in figures.by_venue_year),
                width() - 10,
                subsequent_indent=" " * 10,
            )
        )
    progress, counts = screenings.figures(desk, args.screening, args.library_wide)
    pairs = double_screening.figures_of(desk, progress)
    lines = progress.summary() + (counts.lines() if counts else [])
    lines += pairs.lines() if pairs else []
    for line in lines:  # the statistics view's figures
        print("Triage    " + textwrap.fill(line, width() - 10, subsequent_indent=" " * 10))
    if counts is not None and args.prisma:
        print(f"PRISMA counts written to {args.prisma}")
    return 0


def stats_json(
    figures: TriageStats, counts: Prisma | None, pairs: PairFigures | None = None
) -> dict[str, object]:
    """The triage figures of `paperdesk stats --json` (the statistics view's numbers);
    `pairs`: a team screening's members' progress and agreement."""
    estimate = figures.estimate
    return {
        "screening": figures.screening or None,
        "papers": figures.papers,
        "undecided": figures.undecided,
        "decisions": figures.decisions,
        "read": figures.read,
        "relevant_found": figures.found,
        "pace_per_hour": figures.pace_per_hour,
        "hours_left": figures.hours_left,
        "discards_since_keep": figures.discards_since_keep,
        "relevant_left": estimate.left if estimate else None,
        "relevant_left_interval": [estimate.low, estimate.high] if estimate else None,
        "estimate_method": estimate.method if estimate else None,
        "knee_says_stop": estimate.knee if estimate else False,
        "decisions_per_day": {day.isoformat(): count for day, count in figures.per_day},
        "stopping_hint": figures.stopping_hint(),
        "prisma": dict(counts.rows()) if counts else None,
        "members": [vars(m) for m in pairs.members] if pairs else None,
        "agreement": [vars(a) for a in pairs.agreements] if pairs and not pairs.hidden else None,
        "conflicts": pairs.conflicts if pairs and not pairs.hidden else None,
    }

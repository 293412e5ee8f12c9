"""The verbs that bring papers in and send them out: import, add, export, pin-keys,
cite, and duplicates (which merges what came in twice)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from paperdesk.cli.output import (
    EXIT_ERROR,
    ProgressBar,
    paper_json,
    print_json,
    print_paper_rows,
    report_changes,
)
from paperdesk.core.errors import PaperdeskError
from paperdesk.core.evidence import AUTO_MERGE_CONFIDENCE, SUGGEST_THRESHOLD
from paperdesk.core.scope import Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    citing,
    duplicates,
    exporting,
    identifier_lookup,
    importing,
    reading,
)


def cmd_import(desk: Desk, args: argparse.Namespace) -> int:
    bar = ProgressBar()
    report = importing.import_files(
        desk, [Path(p) for p in args.files], progress=bar, accept_doubtful=args.yes
    )
    bar.finish()
    if args.json:
        print_json([f.as_json() for f in report.files])
    else:
        for file_report in report.files:
            print(file_report.summary())
            for detail in file_report.details():
                print(f"  {detail}")
    for file_report in report.files:
        if file_report.error:
            print(f"paperdesk: {file_report.file}: {file_report.error}", file=sys.stderr)
    return EXIT_ERROR if report.failed else 0


def cmd_add(desk: Desk, args: argparse.Namespace) -> int:
    """Papers by DOI, arXiv id, OpenReview id or URL: one line per identifier that failed."""
    wanted = [i for text in args.identifiers for i in identifier_lookup.split_identifiers(text)]
    bar = ProgressBar()
    fetched = identifier_lookup.fetch_records(wanted, progress=bar)
    bar.finish()
    for failure in fetched.failures:
        print(f"paperdesk: {failure}", file=sys.stderr)
    if fetched.records:
        report, _ = identifier_lookup.add_records(desk, fetched.records)
        print(report.summary())
        for detail in report.details():
            print(f"  {detail}")
    elif fetched.offline:
        print("paperdesk: nothing added: you seem to be offline", file=sys.stderr)
    return EXIT_ERROR if fetched.failures else 0


def cmd_export(desk: Desk, args: argparse.Namespace) -> int:
    scope = _export_scope(args)
    options = exporting.Options(
        flavour=args.flavour, excel_bom=args.excel, key_pattern=args.key_pattern
    )
    result = exporting.export(
        desk, scope, Path(args.output), args.format, options, force=args.force
    )
    noun = "paper" if result.count == 1 else "papers"
    print(f"wrote {result.count} {noun} from {scope.describe()} to {result.path} ({result.format})")
    return 0


def cmd_pin_keys(desk: Desk, args: argparse.Namespace) -> int:
    scope = _export_scope(args)
    changes = exporting.pin_keys(desk, scope, args.key_pattern)
    pinned = len(changes.paper_ids)
    noun = "key" if pinned == 1 else "keys"
    print(
        f"pinned {pinned} citation {noun} of {scope.describe()}"
        if pinned
        else f"every paper of {scope.describe()} has a key of its own already"
    )
    return 0


def _export_scope(args: argparse.Namespace) -> Scope:
    given = [name for name in ("shortlist", "query", "ids") if getattr(args, name) is not None]
    if len(given) > 1:
        raise PaperdeskError("choose one of --shortlist, --query or --ids")
    if args.shortlist is not None:
        return Scope.of_shortlist(args.shortlist)
    if args.query is not None:
        return Scope.of_query(args.query)
    if args.ids is not None:
        try:
            return Scope.of_ids(int(part) for part in args.ids.split(",") if part.strip())
        except ValueError:
            raise PaperdeskError(
                f"--ids takes numbers separated by commas, not {args.ids!r}"
            ) from None
    return Scope()


def cmd_cite(desk: Desk, args: argparse.Namespace) -> int:
    if args.output_file is None:
        print(citing.bibliography(desk, args.ids, args.style, args.output), end="")
    else:
        citing.write_bibliography(desk, args.ids, args.style, args.output, args.output_file)
        print(f"Wrote {len(args.ids)} entries to {args.output_file}")
    return 0


def cmd_duplicates(desk: Desk, args: argparse.Namespace) -> int:
    if args.keep is not None and not args.merge:
        raise PaperdeskError("--keep goes with --merge")
    sure = args.min_confidence
    if args.merge:
        report_changes(duplicates.merge(desk, args.merge, keep=args.keep))
    elif args.merge_all:
        report_changes(duplicates.merge_all(desk, AUTO_MERGE_CONFIDENCE if sure is None else sure))
    elif args.not_duplicates:
        report_changes(duplicates.mark_not_duplicates(desk, args.not_duplicates))
    else:
        _list_duplicates(desk, SUGGEST_THRESHOLD if sure is None else sure, args.json)
    return 0


def _list_duplicates(desk: Desk, min_confidence: float, as_json: bool) -> None:
    clusters = duplicates.find_clusters(desk, min_confidence)
    papers = {p.id: p for p in reading.papers(desk, [i for c in clusters for i in c.paper_ids])}
    if as_json:
        print_json(
            [
                {
                    "ids": list(c.paper_ids),
                    "keep": c.survivor,
                    "confidence": round(c.confidence, 3),
                    "reasons": list(c.reasons),
                    "papers": [paper_json(papers[i]) for i in c.paper_ids],
                }
                for c in clusters
            ]
        )
        return
    for number, cluster in enumerate(clusters, start=1):
        ids = ",".join(str(i) for i in cluster.paper_ids)
        print(f"{number}. confidence {cluster.confidence:.2f}: {'; '.join(cluster.reasons)}")
        print(f"   --merge {ids} keeps {cluster.survivor}")
        print_paper_rows([papers[i] for i in cluster.paper_ids])
    print(f"-- {len(clusters)} group(s) of likely duplicates", file=sys.stderr)

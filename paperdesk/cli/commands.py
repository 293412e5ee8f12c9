"""One function per verb: it calls the services and prints what they answer."""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

from paperdesk.cli.output import (
    ProgressBar,
    paper_json,
    print_json,
    print_paper_detail,
    print_paper_rows,
    print_papers,
    report_changes,
    tell,
    width,
)
from paperdesk.cli.triage_commands import stats_json
from paperdesk.config import resolve_library_dir
from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError, PaperdeskError
from paperdesk.core.models import Status
from paperdesk.core.scope import Scope
from paperdesk.services.runtime import rolling_backups
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    backup,
    citing,
    database_backups,
    desktop,
    double_screening,
    duplicates,
    editing,
    exporting,
    history,
    identifier_lookup,
    importing,
    maintenance,
    notes,
    reading,
    saved,
    screenings,
    searching,
    shortlists,
    stats,
    tagging,
)
from paperdesk.services.use_cases.near_duplicates import SUGGEST_THRESHOLD

EXIT_ERROR = 1


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


def cmd_cite(desk: Desk, args: argparse.Namespace) -> int:
    if args.output_file is None:
        print(citing.bibliography(desk, args.ids, args.style, args.output), end="")
    else:
        citing.write_bibliography(desk, args.ids, args.style, args.output, args.output_file)
        print(f"Wrote {len(args.ids)} entries to {args.output_file}")
    return 0


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


def _show_list(desk: Desk, args: argparse.Namespace, scope: Scope, query: str | None) -> int:
    """The papers of a scope, narrowed by a query, in the order asked for."""
    result = searching.listing(desk, scope, query or "", args.sort, args.reverse)
    ids = result.ids[: args.limit] if args.limit else result.ids
    papers = reading.papers(desk, ids)
    print_papers(papers, args.json)
    if args.json:
        return 0
    shown = (
        f"{len(papers)} of {len(result.ids)}" if len(papers) < len(result.ids) else f"{len(papers)}"
    )
    noun = "paper" if len(result.ids) == 1 else "papers"
    summary = f"{shown} matching {noun}" if query else f"{shown} {noun}"
    print(f"-- {summary} ({result.total_in_library} in the library)", file=sys.stderr)
    if not result.ids and result.suggestion:
        print(f"Did you mean: {result.suggestion}", file=sys.stderr)
    return 0


def cmd_search(desk: Desk, args: argparse.Namespace) -> int:
    return _show_list(desk, args, Scope(), " ".join(args.query))


def cmd_list(desk: Desk, args: argparse.Namespace) -> int:
    scope = Scope.of_shortlist(args.shortlist) if args.shortlist else Scope()
    return _show_list(desk, args, scope, args.query)


def cmd_show(desk: Desk, args: argparse.Namespace) -> int:
    papers = [reading.paper(desk, i) for i in args.ids]
    if args.json:
        print_json([paper_json(p) for p in papers])
        return 0
    for number, paper in enumerate(papers):
        if number:
            print("\n" + "-" * 40)
        print_paper_detail(paper)
    return 0


def cmd_tag(desk: Desk, args: argparse.Namespace) -> int:
    if not args.add and not args.remove:
        raise PaperdeskError("say what to do: --add NAME and/or --remove NAME")
    report_changes(tagging.change_tags(desk, args.ids, args.add, args.remove))
    return 0


def cmd_tags(desk: Desk, args: argparse.Namespace) -> int:
    action = args.tags_action
    if action == "rename":
        report_changes(tagging.rename_tag(desk, args.old, args.new))
    elif action == "merge":
        report_changes(tagging.merge_tags(desk, args.sources, args.target))
    elif action == "delete":
        report_changes(tagging.delete_tag(desk, args.name))
    elif action == "colour":
        report_changes(tagging.set_tag_colour(desk, args.name, args.colour))
    elif action == "create":
        report_changes(tagging.create_tag(desk, args.name, args.colour))
    else:
        tags = tagging.list_tags(desk)
        if args.json:
            print_json([vars(t) for t in tags])
        else:
            for tag in tags:
                colour = f"  {tag.colour}" if tag.colour else ""
                print(f"{tag.count:>6}  {tag.name}{colour}")
    return 0


def cmd_rate(desk: Desk, args: argparse.Namespace) -> int:
    report_changes(editing.set_rating(desk, args.ids, args.rating))
    return 0


def cmd_status(desk: Desk, args: argparse.Namespace) -> int:
    try:
        status = Status.parse(args.status)
    except ValueError as error:
        raise PaperdeskError(str(error)) from error
    report_changes(editing.set_status(desk, args.ids, status))
    return 0


def cmd_title(desk: Desk, args: argparse.Namespace) -> int:
    report_changes(editing.set_title(desk, args.id, args.title))
    return 0


def cmd_edit(desk: Desk, args: argparse.Namespace) -> int:
    report_changes(editing.edit_field(desk, args.id, args.field, args.value))
    return 0


def cmd_delete(desk: Desk, args: argparse.Namespace) -> int:
    report_changes(editing.delete_papers(desk, args.ids))
    return 0


def cmd_duplicates(desk: Desk, args: argparse.Namespace) -> int:
    if args.keep is not None and not args.merge:
        raise PaperdeskError("--keep goes with --merge")
    sure = args.min_confidence
    if args.merge:
        report_changes(duplicates.merge(desk, args.merge, keep=args.keep))
    elif args.merge_all:
        report_changes(
            duplicates.merge_all(desk, duplicates.AUTO_MERGE_CONFIDENCE if sure is None else sure)
        )
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


def cmd_note(desk: Desk, args: argparse.Namespace) -> int:
    if args.set is not None:
        report_changes(notes.set_note(desk, args.id, args.set))
    elif args.append is not None:
        report_changes(notes.append_note(desk, args.id, args.append))
    else:
        note = reading.paper(desk, args.id).note
        if args.json:
            print_json({"id": args.id, "note": note}, indent=None)
        else:
            print(note)
    return 0


def cmd_shortlist(desk: Desk, args: argparse.Namespace) -> int:
    action = args.shortlist_action
    operations: dict[str, Callable[[], Changes]] = {
        "create": lambda: shortlists.create(desk, args.name),
        "rename": lambda: shortlists.rename(desk, args.name, args.new),
        "delete": lambda: shortlists.delete(desk, args.name),
        "add": lambda: shortlists.add(desk, args.name, args.ids),
        "remove": lambda: shortlists.remove(desk, args.name, args.ids),
        "reorder": lambda: shortlists.reorder(desk, args.name, args.ids),
    }
    if action in operations:
        report_changes(operations[action]())
        return 0
    if action == "show":
        return _show_list(desk, args, Scope.of_shortlist(args.name), None)
    lists = shortlists.list_shortlists(desk)
    if args.json:
        print_json(
            [
                {"id": s.id, "name": s.name, "count": s.count, "created": s.created.isoformat()}
                for s in lists
            ]
        )
    else:
        for item in lists:
            print(f"{item.count:>6}  {item.name}")
    return 0


def cmd_saved(desk: Desk, args: argparse.Namespace) -> int:
    if args.saved_action == "save":
        report_changes(saved.save_search(desk, args.name, args.query))
    elif args.saved_action == "delete":
        report_changes(saved.delete_search(desk, args.name))
    else:
        searches = saved.list_searches(desk)
        if args.json:
            print_json([vars(s) for s in searches])
        else:
            for item in searches:
                print(f"{item.name}: {item.query}")
    return 0


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


def cmd_undo(desk: Desk, args: argparse.Namespace) -> int:
    changes = history.undo(desk) if args.command == "undo" else history.redo(desk)
    if changes is None:
        print(f"nothing to {args.command}")
    else:
        report_changes(changes)
    return 0


def cmd_history(desk: Desk, args: argparse.Namespace) -> int:
    entries = history.recent(desk, args.limit)
    if args.json:
        print_json(
            [
                {
                    "id": e.id,
                    "action": e.action,
                    "actor": e.actor,
                    "at": e.at.isoformat(),
                    "undone": e.undone,
                    "undone_by": e.undone_by,
                }
                for e in entries
            ]
        )
        return 0
    for entry in entries:
        undone = f"  (undone by {entry.undone_by or entry.actor})" if entry.undone else ""
        print(f"{entry.at:%Y-%m-%d %H:%M}  {entry.actor:<10}  {entry.action}{undone}")
    return 0


def cmd_reindex(desk: Desk, args: argparse.Namespace) -> int:
    bar = ProgressBar()
    count = maintenance.reindex(desk, progress=lambda done, total: bar(done, total, "indexing"))
    bar.finish()
    print(f"indexed {count} papers")
    return 0


def cmd_check(desk: Desk, args: argparse.Namespace) -> int:
    problems = maintenance.check(desk)
    if args.json:
        print_json({"ok": not problems, "problems": problems})
    elif problems:
        for problem in problems:
            print(f"problem: {problem}")
    else:
        print(f"ok: database and index agree ({reading.count(desk)} papers)")
    return EXIT_ERROR if problems else 0


def cmd_backup(desk: Desk, args: argparse.Namespace) -> int:
    if args.keep is not None:
        pruned = database_backups.set_kept(desk, args.keep)
        print(f"keeping the newest {args.keep} automatic backups ({len(pruned)} deleted)")
        if args.output is None:
            return 0
    target = maintenance.backup(desk, Path(args.output) if args.output else None)
    print(f"backed up to {target}")
    return 0


def cmd_restore(_desk: None, args: argparse.Namespace) -> int:
    """A `.sqlite3` backup replaces the database (even a damaged or missing one); a
    JSON backup fills an empty library."""
    library_dir = resolve_library_dir(args.library)
    source = Path(args.file)
    bar = ProgressBar()

    def progress(done: int, total: int) -> None:
        bar(done, total, "indexing")

    if not source.is_file():
        raise PaperdeskError(f"{source}: no such file")
    if rolling_backups.is_database_file(source):
        restored = database_backups.restore_database(
            library_dir, source, force=args.force, progress=progress, on_wait=tell
        )
        bar.finish()
        print(describe_restore(source, restored))
        return 0
    with Desk.open(library_dir, progress=progress, on_wait=tell) as desk:
        changes = backup.restore_backup(desk, source, progress=progress)
    bar.finish()
    report_changes(changes)
    return 0


def describe_restore(source: Path, restored: database_backups.Restored) -> str:
    noun = "paper" if restored.papers == 1 else "papers"
    line = f"restored {restored.papers} {noun} from {source}"
    if restored.kept_aside is not None:
        line += f"; the database it replaced was kept as {restored.kept_aside}"
    return line


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


def cmd_syntax(_desk: Desk | None, _args: argparse.Namespace) -> int:
    print(searching.SYNTAX_HELP)
    return 0


def cmd_menu_entry(_desk: Desk | None, args: argparse.Namespace) -> int:
    if args.remove:
        removed = desktop.remove_menu_entry()
        print("\n".join(f"removed {path}" for path in removed) or "no menu entry to remove")
        return 0
    for path in desktop.install_menu_entry(_this_program()):
        print(f"wrote {path}")
    return 0


def _this_program() -> list[str]:
    """How to start this installation of paperdesk from a menu, by absolute path."""
    started_as = Path(sys.argv[0])
    if started_as.name == "paperdesk" and started_as.exists():
        return [str(started_as.absolute())]
    return [sys.executable, "-m", "paperdesk"]

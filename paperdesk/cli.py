"""The command line. No subcommand opens the GUI; every verb maps to one service call.

Output for people fits an 80-column terminal; `--json` on read verbs gives a list of
objects for scripts. Errors go to stderr with exit status 1 (2 for a malformed query
or bad usage), never a traceback.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from paperdesk import __version__
from paperdesk.config import BACKUP_DIR, resolve_library_dir
from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError, QueryError
from paperdesk.core.models import Paper, Status
from paperdesk.search.query import CHEAT_SHEET
from paperdesk.services import (
    backup,
    duplicates,
    editing,
    exporting,
    history,
    importing,
    maintenance,
    notes,
    saved,
    searching,
    shortlists,
    stats,
    tagging,
)
from paperdesk.services.desk import Desk
from paperdesk.services.near_duplicates import SUGGEST_THRESHOLD
from paperdesk.text import to_plain

log = logging.getLogger("paperdesk")
EXIT_ERROR = 1
EXIT_USAGE = 2


# ---------------------------------------------------------------------- output helpers


def paper_json(paper: Paper) -> dict[str, Any]:
    return {
        "id": paper.id,
        "title": paper.title,
        "title_is_derived": paper.title_is_derived,
        "authors": list(paper.authors),
        "venue": paper.venue,
        "year": paper.year,
        "status": paper.status.value,
        "rating": paper.rating,
        "tags": list(paper.tags),
        "shortlists": list(paper.shortlists),
        "note": paper.note,
        "abstract": paper.abstract,
        "doi": paper.ids.doi,
        "arxiv": paper.ids.arxiv,
        "openreview": paper.ids.openreview,
        "url": paper.ids.url,
        "citation_key": paper.citation_key,
        "added": paper.added.isoformat(),
    }


def _width() -> int:
    return min(shutil.get_terminal_size((80, 24)).columns, 120)


def _clip(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1].rstrip() + "…"


def print_paper_rows(papers: Sequence[Paper]) -> None:
    """One line per paper: id, stars, status, title (derived titles marked with ~)."""
    width = _width()
    for paper in papers:
        stars = ("★" * paper.rating).ljust(5, "·")
        prefix = f"{paper.id:>6}  {stars}  {paper.status.value:<9} "
        title = ("~" if paper.title_is_derived else "") + to_plain(paper.title)
        print(prefix + _clip(title, width - len(prefix)))


def print_paper_detail(paper: Paper) -> None:
    width = min(_width(), 100)
    derived = "  (derived from the abstract)" if paper.title_is_derived else ""
    print(f"#{paper.id}  {to_plain(paper.title)}{derived}")
    lines = [
        ("Authors", ", ".join(paper.authors) or "(unknown)"),
        ("Venue", " ".join(str(p) for p in (paper.venue, paper.year) if p) or "(unknown)"),
        ("Status", paper.status.value),
        ("Rating", "★" * paper.rating + "☆" * (5 - paper.rating)),
        ("Tags", ", ".join(paper.tags) or "-"),
        ("Lists", ", ".join(paper.shortlists) or "-"),
    ]
    for label, value in (
        ("DOI", paper.ids.doi),
        ("arXiv", paper.ids.arxiv),
        ("OpenReview", paper.ids.openreview),
        ("URL", paper.ids.url),
    ):
        if value:
            lines.append((label, value))
    for label, value in lines:
        print(
            textwrap.fill(value, width, initial_indent=f"{label:<11}", subsequent_indent=" " * 11)
        )
    if paper.abstract:
        print()
        print(textwrap.fill(to_plain(paper.abstract), width))
    if paper.note:
        print("\nNote:")
        print(textwrap.indent(paper.note, "  "))


def report_changes(changes: Changes) -> None:
    count = len(changes.paper_ids)
    suffix = f" ({count} paper{'s' if count != 1 else ''})" if count else ""
    print(f"{changes.description}{suffix}")


class ProgressBar:
    """A one-line progress bar on stderr, only when stderr is a terminal."""

    def __init__(self) -> None:
        self.enabled = sys.stderr.isatty()

    def __call__(self, done: int, total: int, message: str = "") -> None:
        if not self.enabled:
            return
        total = max(total, 1)
        filled = int(30 * min(done, total) / total)
        bar = "█" * filled + "░" * (30 - filled)
        sys.stderr.write(f"\r{bar} {done}/{total} {_clip(message, 30):<30}")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\r" + " " * 78 + "\r")
            sys.stderr.flush()


# ---------------------------------------------------------------------- commands


def cmd_import(desk: Desk, args: argparse.Namespace) -> int:
    bar = ProgressBar()
    report = importing.import_files(desk, [Path(p) for p in args.files], progress=bar)
    bar.finish()
    if args.json:
        print(json.dumps([vars(f) for f in report.files], indent=2, ensure_ascii=False))
    else:
        for file_report in report.files:
            print(file_report.summary())
            for problem in file_report.problems:
                print(f"  skipped {problem}")
    for file_report in report.files:
        if file_report.error:
            print(f"paperdesk: {file_report.file}: {file_report.error}", file=sys.stderr)
    return EXIT_ERROR if report.failed else 0


def _show_list(desk: Desk, args: argparse.Namespace, query: str | None) -> int:
    result = searching.find_ids(desk, query, sort=args.sort, descending=args.reverse)
    ids = result.ids[: args.limit] if args.limit else result.ids
    papers = desk.library.papers(ids)
    if args.json:
        print(json.dumps([paper_json(p) for p in papers], indent=2, ensure_ascii=False))
        return 0
    print_paper_rows(papers)
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
    return _show_list(desk, args, " ".join(args.query))


def cmd_list(desk: Desk, args: argparse.Namespace) -> int:
    if args.shortlist:
        papers = desk.library.papers(searching.shortlist_ids(desk, args.shortlist))
        if args.json:
            print(json.dumps([paper_json(p) for p in papers], indent=2, ensure_ascii=False))
        else:
            print_paper_rows(papers)
        return 0
    return _show_list(desk, args, args.query)


def cmd_show(desk: Desk, args: argparse.Namespace) -> int:
    papers = [desk.library.paper(i) for i in args.ids]
    if args.json:
        print(json.dumps([paper_json(p) for p in papers], indent=2, ensure_ascii=False))
        return 0
    for number, paper in enumerate(papers):
        if number:
            print("\n" + "-" * 40)
        print_paper_detail(paper)
    return 0


def cmd_tag(desk: Desk, args: argparse.Namespace) -> int:
    if not args.add and not args.remove:
        raise PaperdeskError("say what to do: --add NAME and/or --remove NAME")
    if args.add:
        report_changes(tagging.add_tags(desk, args.ids, args.add))
    if args.remove:
        report_changes(tagging.remove_tags(desk, args.ids, args.remove))
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
        tags = desk.library.tags()
        if args.json:
            print(json.dumps([vars(t) for t in tags], indent=2, ensure_ascii=False))
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


def cmd_delete(desk: Desk, args: argparse.Namespace) -> int:
    report_changes(editing.delete_papers(desk, args.ids))
    return 0


def cmd_duplicates(desk: Desk, args: argparse.Namespace) -> int:
    if args.keep is not None and not args.merge:
        raise PaperdeskError("--keep goes with --merge")
    if args.merge:
        report_changes(duplicates.merge(desk, args.merge, keep=args.keep))
    elif args.merge_all:
        sure = args.min_confidence
        report_changes(
            duplicates.merge_all(desk, duplicates.AUTO_MERGE_CONFIDENCE if sure is None else sure)
        )
    elif args.not_duplicates:
        report_changes(duplicates.mark_not_duplicates(desk, args.not_duplicates))
    else:
        sure = args.min_confidence
        clusters = duplicates.find_clusters(desk, SUGGEST_THRESHOLD if sure is None else sure)
        papers = {p.id: p for p in desk.library.papers([i for c in clusters for i in c.paper_ids])}
        if args.json:
            listing = [
                {
                    "ids": list(c.paper_ids),
                    "keep": c.survivor,
                    "confidence": round(c.confidence, 3),
                    "reasons": list(c.reasons),
                    "papers": [paper_json(papers[i]) for i in c.paper_ids],
                }
                for c in clusters
            ]
            print(json.dumps(listing, indent=2, ensure_ascii=False))
            return 0
        for number, cluster in enumerate(clusters, start=1):
            ids = ",".join(str(i) for i in cluster.paper_ids)
            print(f"{number}. confidence {cluster.confidence:.2f}: {'; '.join(cluster.reasons)}")
            print(f"   --merge {ids} keeps {cluster.survivor}")
            print_paper_rows([papers[i] for i in cluster.paper_ids])
        print(f"-- {len(clusters)} group(s) of likely duplicates", file=sys.stderr)
    return 0


def _id_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected paper ids like 12,40, not {text!r}") from None


def cmd_note(desk: Desk, args: argparse.Namespace) -> int:
    if args.set is not None:
        report_changes(notes.set_note(desk, args.id, args.set))
    elif args.append is not None:
        report_changes(notes.append_note(desk, args.id, args.append))
    else:
        note = desk.library.paper(args.id).note
        if args.json:
            print(json.dumps({"id": args.id, "note": note}, ensure_ascii=False))
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
        args.shortlist = args.name
        return cmd_list(desk, args)
    lists = desk.library.shortlists()
    if args.json:
        print(
            json.dumps(
                [
                    {"id": s.id, "name": s.name, "count": s.count, "created": s.created.isoformat()}
                    for s in lists
                ],
                indent=2,
                ensure_ascii=False,
            )
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
        searches = desk.library.saved_searches()
        if args.json:
            print(json.dumps([vars(s) for s in searches], indent=2, ensure_ascii=False))
        else:
            for item in searches:
                print(f"{item.name}: {item.query}")
    return 0


def cmd_stats(desk: Desk, args: argparse.Namespace) -> int:
    figures = stats.library_stats(desk)
    if args.json:
        print(
            json.dumps(
                {
                    "papers": figures.papers,
                    "by_status": dict(figures.by_status),
                    "by_venue_year": dict(figures.by_venue_year),
                    "rated": figures.rated,
                    "with_notes": figures.with_notes,
                    "tags": figures.tags,
                    "shortlists": figures.shortlists,
                    "imports": figures.imports,
                },
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    print(f"Library   {desk.folder}")
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
                _width() - 10,
                subsequent_indent=" " * 10,
            )
        )
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
        print(
            json.dumps(
                [
                    {
                        "id": e.id,
                        "action": e.action,
                        "actor": e.actor,
                        "at": e.at.isoformat(),
                        "undone": e.undone,
                    }
                    for e in entries
                ],
                indent=2,
                ensure_ascii=False,
            )
        )
        return 0
    for entry in entries:
        undone = "  (undone)" if entry.undone else ""
        print(f"{entry.at:%Y-%m-%d %H:%M}  {entry.actor:<10}  {entry.action}{undone}")
    return 0


def cmd_reindex(desk: Desk, args: argparse.Namespace) -> int:
    bar = ProgressBar()
    maintenance.reindex(desk, progress=lambda done, total: bar(done, total, "indexing"))
    bar.finish()
    print(f"indexed {desk.index.doc_count()} papers")
    return 0


def cmd_check(desk: Desk, args: argparse.Namespace) -> int:
    problems = maintenance.check(desk)
    if args.json:
        print(json.dumps({"ok": not problems, "problems": problems}, indent=2))
    elif problems:
        for problem in problems:
            print(f"problem: {problem}")
    else:
        print(f"ok: database and index agree ({desk.library.count()} papers)")
    return EXIT_ERROR if problems else 0


def cmd_backup(desk: Desk, args: argparse.Namespace) -> int:
    target = maintenance.backup(desk, Path(args.output) if args.output else None)
    print(f"backed up to {target}")
    return 0


def cmd_restore(desk: Desk, args: argparse.Namespace) -> int:
    bar = ProgressBar()
    changes = backup.restore_backup(
        desk, Path(args.file), progress=lambda done, total: bar(done, total, "indexing")
    )
    bar.finish()
    report_changes(changes)
    return 0


def cmd_export(desk: Desk, args: argparse.Namespace) -> int:
    given = [name for name in ("shortlist", "query", "ids") if getattr(args, name) is not None]
    if len(given) > 1:
        raise PaperdeskError("choose one of --shortlist, --query or --ids")
    ids = None
    if args.ids is not None:
        try:
            ids = tuple(int(part) for part in args.ids.split(",") if part.strip())
        except ValueError:
            raise PaperdeskError(
                f"--ids takes numbers separated by commas, not {args.ids!r}"
            ) from None
    scope = exporting.Scope(shortlist=args.shortlist, query=args.query, ids=ids)
    options = exporting.Options(
        ascii_only=args.ascii, excel_bom=args.excel, key_pattern=args.key_pattern
    )
    result = exporting.export(desk, scope, Path(args.output), args.format, options)
    noun = "paper" if result.count == 1 else "papers"
    print(f"wrote {result.count} {noun} from {scope.describe()} to {result.path} ({result.format})")
    return 0


def cmd_syntax(_desk: Desk | None, _args: argparse.Namespace) -> int:
    print(CHEAT_SHEET)
    return 0


# ---------------------------------------------------------------------- parser


def _read_options(parser: argparse.ArgumentParser, listing: bool = True) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    if listing:
        parser.add_argument(
            "--sort",
            default="relevance",
            choices=[
                "relevance",
                "title",
                "first_author",
                "venue",
                "year",
                "status",
                "rating",
                "added",
                "tags",
            ],
        )
        parser.add_argument("--reverse", action="store_true", help="reverse the order")
        parser.add_argument("--limit", type=int, default=0, help="show at most N papers")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paperdesk",
        description="Triage conference papers: import, search, tag, rate, annotate, shortlist, "
        "export. Without a command, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"paperdesk {__version__}")
    parser.add_argument(
        "--library",
        metavar="DIR",
        help="library folder (default: $PAPERDESK_LIBRARY or the user data folder)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    gui = parser.add_argument_group("desktop app")
    gui.add_argument("--screenshot", metavar="PNG", help="render the main window to PNG and exit")
    gui.add_argument("--size", default=None, metavar="WxH", help="window size, e.g. 1400x900")
    gui.add_argument("--query", default=None, help="start with this search")
    gui.add_argument("--select", type=int, default=None, metavar="ID", help="select this paper")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, handler: Callable[..., int], help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    sub = command("import", cmd_import, "import files (seed lists, BibTeX, RIS, CSV, JSON)")
    sub.add_argument("files", nargs="+")
    sub.add_argument("--json", action="store_true")

    sub = command("search", cmd_search, "full-text search (see `paperdesk syntax`)")
    sub.add_argument("query", nargs="+")
    _read_options(sub)

    sub = command("list", cmd_list, "list papers, optionally filtered by a query or shortlist")
    sub.add_argument("--query", "-q", default=None)
    sub.add_argument("--shortlist", default=None)
    _read_options(sub)

    sub = command("show", cmd_show, "show papers in full")
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("--json", action="store_true")

    sub = command("tag", cmd_tag, "add or remove tags on papers")
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("--add", action="append", default=[], metavar="TAG")
    sub.add_argument("--remove", action="append", default=[], metavar="TAG")

    sub = command("tags", cmd_tags, "list, create, rename, merge, recolour or delete tags")
    tag_actions = sub.add_subparsers(dest="tags_action", metavar="ACTION")
    _read_options(tag_actions.add_parser("list", help="list tags with counts"), listing=False)
    sub.add_argument("--json", action="store_true")
    create = tag_actions.add_parser("create", help="create a tag")
    create.add_argument("name")
    create.add_argument("--colour", default=None)
    rename = tag_actions.add_parser("rename", help="rename a tag (children follow)")
    rename.add_argument("old")
    rename.add_argument("new")
    merge = tag_actions.add_parser("merge", help="merge tags into one")
    merge.add_argument("sources", nargs="+")
    merge.add_argument("--into", dest="target", required=True)
    delete = tag_actions.add_parser("delete", help="delete a tag")
    delete.add_argument("name")
    colour = tag_actions.add_parser("colour", help="set a tag's colour (#rrggbb, '' clears)")
    colour.add_argument("name")
    colour.add_argument("colour")

    sub = command("rate", cmd_rate, "rate papers 0-5")
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("rating", type=int)

    sub = command("status", cmd_status, "set status: " + ", ".join(s.value for s in Status))
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("status")

    sub = command("title", cmd_title, "replace a paper's title")
    sub.add_argument("id", type=int)
    sub.add_argument("title")

    sub = command("delete", cmd_delete, "delete papers (undo brings them back)")
    sub.add_argument("ids", nargs="+", type=int)

    sub = command("duplicates", cmd_duplicates, "list likely duplicates; merge or keep them apart")
    action = sub.add_mutually_exclusive_group()
    action.add_argument("--merge", type=_id_list, metavar="ID,ID", help="merge into one (undoable)")
    action.add_argument("--merge-all", action="store_true", help="merge every sure group")
    action.add_argument(
        "--not-duplicates", type=_id_list, metavar="ID,ID", help="remember they are different"
    )
    sub.add_argument("--keep", type=int, metavar="ID", help="with --merge: the record to keep")
    sub.add_argument(
        "--min-confidence",
        type=float,
        metavar="X",
        help=f"0-1; default: list from {SUGGEST_THRESHOLD}, "
        f"--merge-all from {duplicates.AUTO_MERGE_CONFIDENCE}",
    )
    sub.add_argument("--json", action="store_true")

    sub = command("note", cmd_note, "show, set or append to a paper's Markdown note")
    sub.add_argument("id", type=int)
    group = sub.add_mutually_exclusive_group()
    group.add_argument("--set", default=None, metavar="TEXT")
    group.add_argument("--append", default=None, metavar="TEXT")
    sub.add_argument("--json", action="store_true")

    sub = command("shortlist", cmd_shortlist, "manage shortlists")
    actions = sub.add_subparsers(dest="shortlist_action", metavar="ACTION")
    listing = actions.add_parser("list", help="list shortlists")
    listing.add_argument("--json", action="store_true")
    for name, help_text in (("create", "create a shortlist"), ("delete", "delete a shortlist")):
        action = actions.add_parser(name, help=help_text)
        action.add_argument("name")
    rename = actions.add_parser("rename", help="rename a shortlist")
    rename.add_argument("name")
    rename.add_argument("new")
    for name, help_text in (
        ("add", "add papers"),
        ("remove", "remove papers"),
        ("reorder", "move these papers to the front, in this order"),
    ):
        action = actions.add_parser(name, help=help_text)
        action.add_argument("name")
        action.add_argument("ids", nargs="+", type=int)
    show = actions.add_parser("show", help="list a shortlist's papers in order")
    show.add_argument("name")
    _read_options(show)
    sub.set_defaults(json=False)

    sub = command("saved", cmd_saved, "saved searches")
    saved_actions = sub.add_subparsers(dest="saved_action", metavar="ACTION")
    save = saved_actions.add_parser("save", help="save a query under a name")
    save.add_argument("name")
    save.add_argument("query")
    remove = saved_actions.add_parser("delete", help="delete a saved search")
    remove.add_argument("name")
    listing = saved_actions.add_parser("list", help="list saved searches")
    listing.add_argument("--json", action="store_true")
    sub.set_defaults(json=False)

    sub = command("stats", cmd_stats, "library statistics")
    sub.add_argument("--json", action="store_true")
    command("undo", cmd_undo, "undo the last change")
    command("redo", cmd_undo, "redo the last undone change")
    sub = command("history", cmd_history, "recent changes (who, when, what)")
    sub.add_argument("--limit", type=int, default=20)
    sub.add_argument("--json", action="store_true")
    command("reindex", cmd_reindex, "rebuild the search index from the database")
    sub = command("check", cmd_check, "check the database and the index")
    sub.add_argument("--json", action="store_true")
    sub = command("backup", cmd_backup, "copy the library database to a backup file")
    sub.add_argument("-o", "--output", default=None, help=f"file (default: LIBRARY/{BACKUP_DIR}/)")
    sub = command("restore", cmd_restore, "restore a JSON backup into an empty library")
    sub.add_argument("file", help="a backup written by `paperdesk export --format json`")
    sub = command(
        "export",
        cmd_export,
        "export papers to BibTeX, CSV, Markdown, RIS, JSON Lines, "
        "or a lossless JSON backup of the whole library",
    )
    sub.add_argument("-o", "--output", required=True, help="the file to write")
    sub.add_argument(
        "--format",
        choices=list(exporting.EXTENSIONS),
        default=None,
        help="default: from the file's extension",
    )
    sub.add_argument("--shortlist", default=None, help="a shortlist, in its order")
    sub.add_argument("--query", "-q", default=None, help="the results of a search")
    sub.add_argument("--ids", default=None, help="papers by id, e.g. 1,2,7")
    sub.add_argument(
        "--ascii",
        action="store_true",
        help="BibTeX: escape non-ASCII as LaTeX, for classic 8-bit BibTeX",
    )
    sub.add_argument("--excel", action="store_true", help="CSV: add a BOM so Excel reads UTF-8")
    sub.add_argument(
        "--key-pattern",
        default=exporting.DEFAULT_PATTERN,
        help="citation keys for papers without one (default %(default)s)",
    )
    sub = command("syntax", cmd_syntax, "print the search syntax cheat-sheet")
    sub.set_defaults(needs_library=False)
    return parser


def _parse_size(text: str | None) -> tuple[int, int] | None:
    if text is None:
        return None
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise PaperdeskError(f"--size must look like 1400x900, not {text!r}") from None
    return width, height


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    library_dir = resolve_library_dir(args.library)
    try:
        if args.command is None:
            from paperdesk.gui.app import run_gui

            return run_gui(
                library_dir,
                Path(args.screenshot) if args.screenshot else None,
                _parse_size(args.size),
                args.query,
                args.select,
            )
        if not getattr(args, "needs_library", True):
            return int(args.handler(None, args))
        bar = ProgressBar()
        desk = Desk.open(library_dir, progress=lambda done, total: bar(done, total, "indexing"))
        bar.finish()
        try:
            return int(args.handler(desk, args))
        finally:
            desk.close()
    except QueryError as error:
        print(f"paperdesk: bad query: {error}", file=sys.stderr)
        return EXIT_USAGE
    except PaperdeskError as error:
        print(f"paperdesk: {error}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("paperdesk: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())

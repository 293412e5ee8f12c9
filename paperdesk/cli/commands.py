"""The verbs that read and annotate papers: one function per verb, its service calls
and then output. Each verb module imports only its own services (see parser.py)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from paperdesk.cli.output import (
    paper_json,
    print_json,
    print_paper_detail,
    print_papers,
    report_changes,
)
from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError
from paperdesk.core.models import Status
from paperdesk.core.scope import Scope
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    editing,
    history,
    notes,
    reading,
    saved,
    searching,
    shortlists,
    tagging,
)


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


def cmd_syntax(_desk: Desk | None, _args: argparse.Namespace) -> int:
    print(searching.SYNTAX_HELP)
    return 0

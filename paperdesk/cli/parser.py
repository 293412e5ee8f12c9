"""The arguments each verb takes, and which function of `paperdesk.cli` runs it.

A verb's handler is named, not imported ("module.function", see `handler_of`): building
the parser, `--help` and a usage error import no service, so none of SQLAlchemy, whoosh
or scikit-learn, and a verb imports only its own module's services (each command is a
process of its own: start-up is paid on every one).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from paperdesk import __version__
from paperdesk.config import BACKUP_DIR
from paperdesk.core import fields
from paperdesk.core.citekeys import DEFAULT_PATTERN
from paperdesk.core.evidence import AUTO_MERGE_CONFIDENCE, SUGGEST_THRESHOLD
from paperdesk.core.fields import EDITABLE_FIELDS, RELEVANCE
from paperdesk.core.models import Status
from paperdesk.core.screening import ORDERS
from paperdesk.core.triage import Decision
from paperdesk.formats import bibtex_writer, citations
from paperdesk.formats.registry import EXPORT_EXTENSIONS
from paperdesk.services.use_cases.simulating import AI_CHOICES

#: `paperdesk triage --scope`: the papers a new screening takes.
SCOPE_HELP = "all, undecided, tag:NAME, shortlist:NAME, saved:NAME or import:ID"


Handler = Callable[[Any, argparse.Namespace], int]


def handler_of(args: argparse.Namespace) -> Handler:
    """The function that runs the parsed verb, imported now."""
    module, function = args.handler.rsplit(".", 1)
    handler: Handler = getattr(import_module(f"paperdesk.cli.{module}"), function)
    return handler


def _id_list(text: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected paper ids like 12,40, not {text!r}") from None


def _read_options(parser: argparse.ArgumentParser, listing: bool = True) -> None:
    parser.add_argument("--json", action="store_true", help="print a JSON list of objects")
    if listing:
        parser.add_argument("--sort", default=RELEVANCE, choices=fields.sort_keys())
        parser.add_argument("--reverse", action="store_true", help="reverse the order")
        parser.add_argument("--limit", type=int, default=0, help="show at most N papers")


def _add_team_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    help_text = "a team library's roles: set them up, let people in"
    sub = commands.add_parser("team", help=help_text, description=help_text)
    sub.set_defaults(handler="team_commands.cmd_team")
    actions = sub.add_subparsers(dest="team_action", metavar="ACTION")
    actions.add_parser(
        "init",
        help="create the library's reader, member and owner roles; you become an owner "
        "(needs PostgreSQL's CREATEROLE)",
    )
    add = actions.add_parser(
        "add-member", help="let a server role in (created if the server has none)"
    )
    add.add_argument("name", help="the role they log in as")
    levels = add.add_mutually_exclusive_group()
    for level, what in (
        ("reader", "reads only"),
        ("member", "writes papers, tags, shortlists and their own notes and ratings (default)"),
        ("owner", "also adds members and upgrades the library"),
    ):
        levels.add_argument(
            f"--{level}", dest="level", action="store_const", const=level, help=what
        )
    add.set_defaults(level="member")
    add.add_argument(
        "--password",
        action="store_true",
        help="set the role's password: asked at the terminal, or one line of stdin",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paperdesk",
        description="Triage conference papers: import, search, tag, rate, annotate, shortlist, "
        "export. Without a command, opens the desktop app.",
    )
    parser.add_argument("--version", action="version", version=f"paperdesk {__version__}")
    parser.add_argument(
        "--library",
        metavar="DIR|URL",
        help="library folder, or a team library's address postgresql://user@host/database "
        "(its password in ~/.pgpass or asked; default: $PAPERDESK_LIBRARY or the user data "
        "folder)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    gui = parser.add_argument_group("desktop app")
    gui.add_argument("--screenshot", metavar="PNG", help="render the main window to PNG and exit")
    gui.add_argument("--size", default=None, metavar="WxH", help="window size, e.g. 1400x900")
    gui.add_argument("--query", default=None, help="start with this search")
    gui.add_argument("--select", type=int, default=None, metavar="ID", help="select this paper")
    gui.add_argument(
        "--import",
        dest="import_files",
        nargs="*",
        default=[],
        metavar="FILE",
        help="import these files once the window is open (the menu entry's files)",
    )
    gui.add_argument(
        "--theme", choices=("light", "dark", "system"), help="colour theme for this run"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    def command(name: str, handler: str, help_text: str) -> argparse.ArgumentParser:
        """A verb run by `handler`, "module.function" of paperdesk.cli."""
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    sub = command(
        "import",
        "transfer_commands.cmd_import",
        "import files (seed lists, BibTeX, RIS, CSV, JSON)",
    )
    sub.add_argument("files", nargs="+")
    sub.add_argument("--json", action="store_true")
    sub.add_argument(
        "--yes",
        action="store_true",
        help="import a file even if it looks like noise (a seed list without sentences)",
    )

    sub = command("search", "commands.cmd_search", "full-text search (see `paperdesk syntax`)")
    sub.add_argument("query", nargs="+")
    _read_options(sub)

    sub = command(
        "list", "commands.cmd_list", "list papers, optionally filtered by a query or shortlist"
    )
    sub.add_argument("--query", "-q", default=None)
    sub.add_argument("--shortlist", default=None)
    _read_options(sub)

    sub = command("show", "commands.cmd_show", "show papers in full")
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("--json", action="store_true")

    sub = command("tag", "commands.cmd_tag", "add or remove tags on papers")
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("--add", action="append", default=[], metavar="TAG")
    sub.add_argument("--remove", action="append", default=[], metavar="TAG")

    sub = command(
        "tags", "commands.cmd_tags", "list, create, rename, merge, recolour or delete tags"
    )
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

    sub = command("rate", "commands.cmd_rate", "rate papers 0-5")
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("rating", type=int)

    sub = command(
        "status", "commands.cmd_status", "set status: " + ", ".join(s.value for s in Status)
    )
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("status")

    sub = command("title", "commands.cmd_title", "replace a paper's title")
    sub.add_argument("id", type=int)
    sub.add_argument("title")

    sub = command(
        "add",
        "transfer_commands.cmd_add",
        "add papers by DOI, arXiv id, OpenReview id or paper URL",
    )
    sub.add_argument("identifiers", nargs="+", metavar="ID", help="one or many, or a pasted list")

    sub = command(
        "cite", "transfer_commands.cmd_cite", "formatted citations (APA, IEEE, ACM, Chicago)"
    )
    sub.add_argument("ids", nargs="+", type=int)
    sub.add_argument("--style", choices=list(citations.STYLES), default=citations.DEFAULT_STYLE)
    sub.add_argument("--format", dest="output", choices=citations.OUTPUTS, default="text")
    sub.add_argument("-o", "--output-file", type=Path, help="write the bibliography here")

    sub = command("edit", "commands.cmd_edit", "set one field of a paper (undo takes it back)")
    sub.add_argument("id", type=int)
    sub.add_argument("field", choices=[f.name for f in EDITABLE_FIELDS])
    sub.add_argument(
        "value", help='the new value, "" to empty it; authors as "Last, First; Last, First"'
    )

    sub = command("delete", "commands.cmd_delete", "delete papers (undo brings them back)")
    sub.add_argument("ids", nargs="+", type=int)

    sub = command(
        "duplicates",
        "transfer_commands.cmd_duplicates",
        "list likely duplicates; merge or keep them apart",
    )
    choice = sub.add_mutually_exclusive_group()
    choice.add_argument("--merge", type=_id_list, metavar="ID,ID", help="merge into one (undoable)")
    choice.add_argument("--merge-all", action="store_true", help="merge every sure group")
    choice.add_argument(
        "--not-duplicates", type=_id_list, metavar="ID,ID", help="remember they are different"
    )
    sub.add_argument("--keep", type=int, metavar="ID", help="with --merge: the record to keep")
    sub.add_argument(
        "--min-confidence",
        type=float,
        metavar="X",
        help=f"0-1; default: list from {SUGGEST_THRESHOLD}, "
        f"--merge-all from {AUTO_MERGE_CONFIDENCE}",
    )
    sub.add_argument("--json", action="store_true")

    sub = command("note", "commands.cmd_note", "show, set or append to a paper's Markdown note")
    sub.add_argument("id", type=int)
    group = sub.add_mutually_exclusive_group()
    group.add_argument("--set", default=None, metavar="TEXT")
    group.add_argument("--append", default=None, metavar="TEXT")
    sub.add_argument("--json", action="store_true")

    sub = command("shortlist", "commands.cmd_shortlist", "manage shortlists")
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

    sub = command("saved", "commands.cmd_saved", "saved searches")
    saved_actions = sub.add_subparsers(dest="saved_action", metavar="ACTION")
    save = saved_actions.add_parser("save", help="save a query under a name")
    save.add_argument("name")
    save.add_argument("query")
    remove = saved_actions.add_parser("delete", help="delete a saved search")
    remove.add_argument("name")
    listing = saved_actions.add_parser("list", help="list saved searches")
    listing.add_argument("--json", action="store_true")
    sub.set_defaults(json=False)

    sub = command(
        "stats",
        "screening_commands.cmd_stats",
        "library statistics; a screening's progress, stopping estimate and PRISMA counts",
    )
    sub.add_argument("--json", action="store_true")
    sub.add_argument("--screening", default=None, help="whose figures (default: used last)")
    sub.add_argument(
        "--library-wide", action="store_true", help="the whole library's decision log instead"
    )
    sub.add_argument("--prisma", metavar="CSV", default=None, help="write the PRISMA counts")
    sub = command(
        "triage",
        "triage_commands.cmd_triage",
        "screen paper by paper in the terminal: one key a paper (? lists them); a named "
        "screening is resumed where it was left",
    )
    sub.add_argument(
        "--screening", default=None, metavar="NAME", help="create or resume this screening"
    )
    sub.add_argument(
        "--query",
        "-q",
        default=None,
        help="a seed: its hits come first and teach the order; the scope stays (see --confine)",
    )
    sub.add_argument(
        "--confine", action="store_true", help="screen only the query's hits (says how many not)"
    )
    sub.add_argument("--scope", default=None, help=f"a new screening's papers: {SCOPE_HELP}")
    sub.add_argument("--reasons", default=None, help="exclusion reasons, commas between (keys 1-9)")
    sub.add_argument("--shortlist", default=None, help="where S puts kept papers (Kept)")
    sub.add_argument("--order", choices=ORDERS, default=None, help="(promise)")
    sub.add_argument("--seed", type=int, default=None, help="for --order random")
    sub.add_argument(
        "--blind",
        action="store_true",
        help="a team library's screening in pairs: each member decides without seeing "
        "the others' decisions until they finish (`screenings finish`)",
    )
    sub = command(
        "screenings", "screening_commands.cmd_screenings", "list screenings with their progress"
    )
    sub.add_argument("--json", action="store_true")
    actions = sub.add_subparsers(dest="screenings_action", metavar="ACTION")
    removal = actions.add_parser("delete", help="forget a screening (its decisions stay)")
    removal.add_argument("name")
    export = actions.add_parser(
        "export", help="its decisions as a labelled dataset (CSV or RIS, label_included)"
    )
    export.add_argument("name")
    export.add_argument("file")
    labelled = actions.add_parser(
        "import", help="decisions from a labelled dataset (label_included 1/0) into it"
    )
    labelled.add_argument("name")
    labelled.add_argument("file")
    finish = actions.add_parser(
        "finish", help="a blind screening: your decisions are final; see the others'"
    )
    finish.add_argument("name")
    conflicts = actions.add_parser(
        "conflicts",
        help="papers the members decided differently, with their reasons and notes; "
        "their progress and agreement (Cohen's kappa)",
    )
    conflicts.add_argument("name")
    conflicts.add_argument("--json", action="store_true")
    resolve = actions.add_parser(
        "resolve",
        help="settle a conflict: record PAPER's decision (keep, maybe or discard), or "
        "--agreed: every paper all members decided alike",
    )
    resolve.add_argument("name")
    resolve.add_argument("paper", nargs="?", type=int, default=None)
    resolve.add_argument("decision", nargs="?", choices=[d.value for d in Decision])
    resolve.add_argument("--reason", default=None, help="a discard's exclusion reason")
    resolve.add_argument("--agreed", action="store_true")
    sub = command(
        "simulate",
        "simulate_commands.cmd_simulate",
        "replay triage on a labelled file (any importable format): recall vs abstracts "
        "read, WSS@95, ours beside the TF-IDF + SVM baseline and random reading; each "
        "replay stops at a recall of 0.95 (all WSS@95 needs), so the --json curves end "
        "there",
    )
    sub.add_argument("file")
    sub.add_argument(
        "--relevant",
        required=True,
        metavar="RULE",
        help="which papers are relevant: FIELD=VALUE on any stored field or column "
        "(venue=CORL, primary_area=RL), FIELD=LOW..HIGH (year=2024..2025), FIELD~WORDS "
        '(title~bandit, title~"graph neural"; title and abstract words are hidden from '
        "the models) or a 0/1 label column (label_included)",
    )
    sub.add_argument(
        "--ai", choices=AI_CHOICES, default="both", help="which models replay (default both)"
    )
    sub.add_argument("--prior", type=int, default=1, help="relevant and irrelevant to start from")
    sub.add_argument("--seed", type=int, default=0)
    sub.add_argument(
        "--json",
        action="store_true",
        help="the figures and the curves (up to a recall of 0.95) as JSON",
    )
    sub.set_defaults(needs_library=False)
    command("undo", "commands.cmd_undo", "undo your last change")
    command("redo", "commands.cmd_undo", "redo your last undone change")
    _add_team_parser(commands)
    sub = command("history", "commands.cmd_history", "recent changes (who, when, what)")
    sub.add_argument("--limit", type=int, default=20)
    sub.add_argument("--json", action="store_true")
    command("reindex", "upkeep_commands.cmd_reindex", "rebuild the search index from the database")
    sub = command("check", "upkeep_commands.cmd_check", "check the database and the index")
    sub.add_argument("--json", action="store_true")
    sub = command(
        "backup", "upkeep_commands.cmd_backup", "copy the library database to a backup file"
    )
    sub.add_argument("-o", "--output", default=None, help=f"file (default: LIBRARY/{BACKUP_DIR}/)")
    sub.add_argument(
        "--keep",
        type=int,
        metavar="N",
        help="from now on keep the newest N automatic backups (daily, before imports)",
    )
    sub = command(
        "restore",
        "upkeep_commands.cmd_restore",
        "put a .sqlite3 backup in place of the library's database (also a damaged or missing "
        "one), or restore a JSON backup into an empty library",
    )
    sub.add_argument(
        "file",
        help=f"a backup from LIBRARY/{BACKUP_DIR}/ or `paperdesk backup`, or a JSON backup "
        "written by `paperdesk export --format json`",
    )
    sub.add_argument(
        "--force",
        action="store_true",
        help="replace a sound library that holds papers (it is backed up first)",
    )
    sub.set_defaults(needs_library=False)
    sub = command(
        "export",
        "transfer_commands.cmd_export",
        "export papers to BibTeX, CSV, Markdown, RIS, JSON Lines, "
        "or a lossless JSON backup of the whole library",
    )
    sub.add_argument("-o", "--output", required=True, help="the file to write")
    sub.add_argument(
        "--force",
        action="store_true",
        help="replace an existing file; also write through a symbolic link or into a "
        "device (-o /dev/stdout); never inside the library folder",
    )
    sub.add_argument(
        "--format",
        choices=list(EXPORT_EXTENSIONS),
        default=None,
        help="default: from the file's extension",
    )
    sub.add_argument("--shortlist", default=None, help="a shortlist, in its order")
    sub.add_argument("--query", "-q", default=None, help="the results of a search")
    sub.add_argument("--ids", default=None, help="papers by id, e.g. 1,2,7")
    sub.add_argument(
        "--flavour",
        choices=bibtex_writer.FLAVOURS,
        default=bibtex_writer.DEFAULT_FLAVOUR,
        help="BibTeX: bibtex (ASCII with LaTeX escapes, for bibtex and pdflatex; the "
        "default) or biblatex (UTF-8, for biber)",
    )
    sub.add_argument("--excel", action="store_true", help="CSV: add a BOM so Excel reads UTF-8")
    sub.add_argument(
        "--key-pattern",
        default=DEFAULT_PATTERN,
        help="citation keys for papers without one (default %(default)s)",
    )
    sub = command(
        "pin-keys",
        "transfer_commands.cmd_pin_keys",
        "store the citation keys exports give papers without one, so later edits of "
        "their titles or authors leave them alone (undo takes them back)",
    )
    sub.add_argument("--shortlist", default=None, help="a shortlist's papers")
    sub.add_argument("--query", "-q", default=None, help="the results of a search")
    sub.add_argument("--ids", default=None, help="papers by id, e.g. 1,2,7")
    sub.add_argument(
        "--key-pattern",
        default=DEFAULT_PATTERN,
        help="the keys to make (default %(default)s)",
    )
    sub = command("syntax", "commands.cmd_syntax", "print the search syntax cheat-sheet")
    sub.set_defaults(needs_library=False)
    sub = command(
        "menu-entry",
        "upkeep_commands.cmd_menu_entry",
        "add the desktop app to your applications menu",
    )
    sub.add_argument("--remove", action="store_true", help="take it out of the menu again")
    sub.set_defaults(needs_library=False)
    return parser

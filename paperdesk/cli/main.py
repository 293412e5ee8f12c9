"""`paperdesk`: parse the arguments, open the library, run the verb, report errors."""

from __future__ import annotations

import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from paperdesk.cli.output import EXIT_ERROR, ProgressBar, tell
from paperdesk.cli.parser import build_parser, handler_of
from paperdesk.config import resolve_library, resolve_library_dir
from paperdesk.core.errors import DamagedLibraryError, PaperdeskError, QueryError

EXIT_USAGE = 2  # a malformed query, like argparse's own usage errors


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
    try:
        location = resolve_library(args.library)
        if args.command is None:
            from paperdesk.gui.app import run_gui

            return run_gui(
                location,
                Path(args.screenshot) if args.screenshot else None,
                _parse_size(args.size),
                args.query,
                args.select,
                args.theme,
                [Path(name) for name in args.import_files],
            )
        handler = handler_of(args)
        if not getattr(args, "needs_library", True):
            return int(handler(None, args))
        # Here, not at the top: `--help` and usage errors end before the store is loaded.
        from paperdesk.cli.opening import open_desk

        bar = ProgressBar()
        desk = open_desk(location, lambda done, total: bar(done, total, "indexing"))
        bar.finish()
        if desk.read_only:
            tell(f"the library at {desk.location} is read-only: it can be read, not changed")
        try:
            return int(handler(desk, args))
        finally:
            desk.close()
    except DamagedLibraryError as error:
        from paperdesk.cli.opening import offer_restore

        tell(str(error))
        return offer_restore(resolve_library_dir(args.library), error)
    except QueryError as error:
        print(f"paperdesk: bad query: {error}", file=sys.stderr)
        return EXIT_USAGE
    except PaperdeskError as error:
        print(f"paperdesk: {error}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return 0
    except OSError as error:
        # What the disk refused outside the store's own translation (an index file...).
        where = f" ({error.filename})" if error.filename else ""
        print(f"paperdesk: {error.strerror or error}{where}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("paperdesk: interrupted", file=sys.stderr)
        return 130

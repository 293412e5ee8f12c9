"""Exporting papers: what (a shortlist, a query, ids, the library) to which format.

Every export writes a temporary file and renames it (formats/atomic.py), so an
unwritable target, a full disk or a cancel leaves no partial file; what it may write
over is decided by services.export_target.

An export changes nothing in the library. A paper without a citation key of its own
gets a generated one, given out over the whole library in id order after every stored
key (`citation_keys`): the same key in every export, preview and copy, whatever else is
exported with it. `pin_keys`, an undo step like any edit, stores them, so that a later
edit of a title or an author leaves a key already cited alone.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TextIO

from paperdesk.core.changes import Changes
from paperdesk.core.citekeys import DEFAULT_PATTERN, assign_keys, check_pattern, is_valid_key
from paperdesk.core.errors import Cancelled, InvalidValueError
from paperdesk.core.models import BibtexDefinitions, Paper
from paperdesk.core.scope import Scope
from paperdesk.formats.registry import BACKUP_FORMAT, WRITERS
from paperdesk.formats.registry import EXPORT_EXTENSIONS as EXTENSIONS
from paperdesk.formats.registry import WriteOptions as Options
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import backup, searching
from paperdesk.services.use_cases._sync import mutation
from paperdesk.services.use_cases.export_target import check_target, open_target


@dataclass(frozen=True)
class ExportResult:
    path: Path
    format: str
    count: int
    changes: Changes


def format_for(path: Path, requested: str | None) -> str:
    """The format asked for, or the one the file's extension names."""
    if requested:
        if requested not in EXTENSIONS:
            raise InvalidValueError(
                f"unknown export format {requested!r}; choose one of: {', '.join(EXTENSIONS)}"
            )
        return requested
    for name, extension in EXTENSIONS.items():
        if path.suffix.lower() == extension:
            return name
    raise InvalidValueError(
        f"cannot tell the format from {path.name!r}; give --format ({', '.join(EXTENSIONS)})"
    )


def export(
    desk: Desk,
    scope: Scope,
    path: Path,
    format: str | None = None,
    options: Options = Options(),
    cancelled: Callable[[], bool] | None = None,
    overwrite: bool = False,
    force: bool = False,
) -> ExportResult:
    """Write the scope's papers to `path`; the file appears whole or not at all.

    An existing file is replaced only with `overwrite` (or `force`); a symbolic link or
    a device only with `force`; the library folder never (see services.export_target).
    """
    path = Path(path)
    chosen = format_for(path, format)
    target = check_target(path, desk.folder, overwrite, force)
    if chosen == BACKUP_FORMAT:
        if not scope.is_whole_library:
            raise InvalidValueError(
                "a JSON backup holds the whole library; leave out the selection, "
                "or export the papers with --format jsonl"
            )
        if target.is_stream:
            raise InvalidValueError("a backup is written to a file, not to a device or a pipe")
        count = backup.write_backup(desk, target.path)
        return ExportResult(path, chosen, count, Changes())
    check_pattern(options.key_pattern)
    ids = searching.scope_ids(desk, scope)
    loaded = with_keys(desk, ids, options.key_pattern)
    papers = _checking_cancel(loaded, cancelled)
    options = replace(
        options,
        heading=_heading(scope),
        tag_colours=_tag_colours(desk),
        definitions=_definitions(desk, chosen, ids),
    )
    with open_target(target, desk.folder, newline=WRITERS[chosen].newline) as stream:
        count = _write(chosen, papers, stream, options)
    return ExportResult(path, chosen, count, Changes())


def preview(
    desk: Desk, scope: Scope, format: str, options: Options = Options(), limit: int = 3
) -> str:
    """The first entries as they would be written (keys shown as they would be made)."""
    if format == BACKUP_FORMAT:
        return "(a JSON backup of the whole library: every paper and all your data)"
    ids = searching.scope_ids(desk, scope)[:limit]
    stream = io.StringIO()
    _write(format, with_keys(desk, ids, options.key_pattern), stream, options)
    return stream.getvalue()


def _heading(scope: Scope) -> str | None:
    return scope.shortlist  # a reading list pasted into a wiki keeps its name


def _definitions(desk: Desk, format: str, ids: Sequence[int]) -> BibtexDefinitions:
    """For BibTeX: the preambles and strings of the files the papers came from."""
    if "definitions" not in WRITERS[format].options:
        return BibtexDefinitions()
    return desk._library.imports.definitions_for(ids)


def _tag_colours(desk: Desk) -> tuple[tuple[str, str], ...]:
    return tuple((tag.name, tag.colour) for tag in desk._library.tags.all() if tag.colour)


def _write(format: str, papers: Iterable[Paper], stream: TextIO, options: Options) -> int:
    if format not in WRITERS:
        raise InvalidValueError(f"unknown export format {format!r}")
    return WRITERS[format].write(papers, stream, options)


def citation_keys(desk: Desk, pattern: str = DEFAULT_PATTERN) -> dict[int, str]:
    """Every paper's citation key (paper id -> key): its own, or the one `pattern`
    generates for it, unique in the library.

    Own keys are claimed first and generated ones given out in id order, over the whole
    library rather than the papers at hand: two exports (or a copy and an export) give a
    paper the same key while the library's papers stay as they are. An imported key
    BibTeX would refuse (`Müller2020`) counts as missing.
    """
    ids, sources = [], []
    for paper_id, key, source in desk._library.papers.key_sources():
        ids.append(paper_id)
        sources.append(replace(source, citation_key=key))
    return dict(zip(ids, assign_keys(sources, pattern), strict=True))


def with_keys(desk: Desk, ids: Sequence[int], pattern: str = DEFAULT_PATTERN) -> list[Paper]:
    """The papers, each with its citation key (`citation_keys`)."""
    papers = desk._library.papers.get_many(ids)
    if all(p.citation_key and is_valid_key(p.citation_key) for p in papers):
        return papers
    keys = citation_keys(desk, pattern)
    return [replace(p, citation_key=keys[p.id]) for p in papers]


@mutation
def pin_keys(desk: Desk, scope: Scope, pattern: str = DEFAULT_PATTERN) -> Changes:
    """Store the generated citation keys of the scope's papers (one undo step), so that
    editing a title, an author or a year later does not change a key already cited."""
    check_pattern(pattern)
    keys = citation_keys(desk, pattern)
    ids = searching.scope_ids(desk, scope)
    papers = desk._library.papers.get_many(ids)
    new = {p.id: keys[p.id] for p in papers if p.citation_key != keys[p.id]}
    if not new:
        return Changes()
    changes = desk._library.papers.set_citation_keys(new)
    # Keys are not searched: the index needs no new documents, only the new generation
    # (the store does not announce this write: store/papers.py set_citation_keys).
    desk._index.mark_current(desk._library.generation())
    return changes


def _checking_cancel(papers: list[Paper], cancelled: Callable[[], bool] | None) -> Iterator[Paper]:
    for paper in papers:
        if cancelled is not None and cancelled():
            raise Cancelled
        yield paper

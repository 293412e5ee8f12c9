"""FullTextIndex: the one interface to the whoosh index (derived, disposable data).

The index folder holds generations of the index, each a whoosh index in a folder of
its own, and a `current` file naming the one searches use. A rebuild writes a new
generation beside the live one and swaps it in by replacing `current` (atomic), under
a lock searches also hold: a search never reads a folder being written or deleted, and
other programs notice the new name at their next search (issue 8, "Threads").

Each generation remembers which database generation it reflects in a stamp file written
after each commit. A missing, corrupt, stale or half-rebuilt index (the `rebuilding`
flag is set before a rebuild and removed after it) is rebuilt from the database on
open, so the index is never the only copy of anything (DESIGN §3, qutebrowser history).
"""

from __future__ import annotations

import errno
import hashlib
import json
import logging
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.codec.base import Segment
from whoosh.index import Index
from whoosh.query import Or, Term

from paperdesk.core.errors import Cancelled, IndexUnusableError, StorageError
from paperdesk.search import segments
from paperdesk.search.live import LiveSearcher
from paperdesk.search.query import highlight_terms, parse_query, with_typed_word
from paperdesk.search.schema import (
    POSITIONAL_FIELD,
    SCHEMA_VERSION,
    IndexDocument,
    build_schema,
)
from paperdesk.search.storage import (
    INDEX_NAME,
    create_index,
    open_index,
    remove_leftover_temporaries,
)

log = logging.getLogger(__name__)

STAMP_FILE = "paperdesk-index.json"
REBUILD_FLAG = "rebuilding"
CURRENT_FILE = "current"
#: An index's size over its papers' text, for an index built from nothing (whoosh's
#: postings, stored ids and field lengths: 1.1x for abstracts, up to 3.3x for a text of
#: random words, which repeats no word; the live index's size is used when there is one).
TEXT_TO_INDEX = 1.5
#: Room kept besides: the stamp, the table of contents, the database's own next write.
SPACE_MARGIN = 2_000_000
#: The words of a paper `similar` asks for: its most telling, by this index's counts.
KEY_TERMS = 12
# How long a writer waits for whoosh's own lock (another thread's commit finishing).
WRITER_WAIT_S = 10.0

#: Lists segments in the index at once (searchable before the build ends).
ListNow = Callable[[Sequence[Segment | None]], None]
#: Builds segments of the (empty or live) index in the folder it is given; returns
#: them, having listed some at once (`ListNow`) if it likes.
SegmentBuilder = Callable[[str, ListNow], Iterable[Segment | None]]


@dataclass(frozen=True)
class Hits:
    """Matching paper ids (best first when ranked), what to highlight, a suggestion."""

    ids: list[int]
    terms: tuple[str, ...]
    suggestion: str | None


class FullTextIndex:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        # Guards the open index and searcher: a search and a swap never overlap.
        self._lock = threading.RLock()
        self._index: Index | None = None
        self._live: LiveSearcher | None = None
        self._opened: str | None = None  # the generation folder _index is of

    # ------------------------------------------------------------------ state

    def live_folder(self) -> Path | None:
        """The folder of the generation searches use; None when there is none."""
        try:
            name = (self.folder / CURRENT_FILE).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError):
            return None
        return self.folder / name if name else None

    def stamp(self) -> dict[str, Any] | None:
        live = self.live_folder()
        return (_stamp_of(live) or None) if live else None

    def why_stale(self, generation: int) -> str | None:
        """Why the index must be rebuilt for this database generation, or None if fine."""
        reason = self.why_unusable()
        if reason is None and (self.stamp() or {}).get("generation") != generation:
            return "the index is older than the library"
        return reason

    def why_unusable(self) -> str | None:
        """Why the index cannot be used at all (missing, damaged, half-built), or None.

        A team library's index is then rebuilt; short of that it catches up from the
        change sequence (services/runtime/team_index.py), whatever generation its stamp names.
        """
        if (self.folder / REBUILD_FLAG).exists():
            return "an earlier rebuild was interrupted"
        live = self.live_folder()
        try:
            if live is None or not windex.exists_in(live, indexname=INDEX_NAME):
                return "the index is missing"
            stamp = self.stamp()
            if stamp is None:
                return "the index stamp is missing or unreadable"
            if stamp.get("schema") != SCHEMA_VERSION:
                return "the index was built by another version"
            with self._lock:
                self._open().doc_count()
        except Exception as error:  # whoosh raises many types for damaged files
            self.close()
            return f"the index is damaged ({type(error).__name__})"
        return None

    def _open(self) -> Index:
        """The live generation's index (the caller holds the lock); reopened when another
        program has swapped in a new one."""
        live = self.live_folder()
        if live is None:
            self.close()
            raise self._unusable("is missing")
        if self._index is None or live.name != self._opened:
            self.close()
            try:
                self._index = open_index(live)
            except Exception as error:  # whoosh raises many types for damaged files
                raise self._unusable(f"cannot be read ({type(error).__name__})") from error
            self._opened = live.name
        return self._index

    def _unusable(self, what: str) -> IndexUnusableError:
        return IndexUnusableError(
            f"the search index in {self.folder} {what}: run `paperdesk reindex` to rebuild it"
        )

    def _searcher(self) -> LiveSearcher:
        index = self._open()
        if self._live is None:
            try:
                self._live = LiveSearcher(index)
            except Exception as error:  # a damaged segment
                self.close()
                raise self._unusable(f"cannot be read ({type(error).__name__})") from error
        return self._live

    def _write_stamp(self, folder: Path, generation: int) -> None:
        """Record the generation, and a checksum of each index file for `damage`."""
        path = folder / STAMP_FILE
        temporary = path.with_suffix(".tmp")
        stamp = {
            "schema": SCHEMA_VERSION,
            "generation": generation,
            "files": checksums(folder, known=_stamp_of(folder).get("files", {})),
        }
        temporary.write_text(json.dumps(stamp), encoding="utf-8")
        temporary.replace(path)

    def damage(self) -> str | None:
        """Which index file no longer holds what was written to it (a disk fault, a
        zeroed block), or None. Reads the whole index: for `check`, not for every open."""
        live = self.live_folder()
        if live is None:
            return None
        for name, digest in _stamp_of(live).get("files", {}).items():
            try:
                if _digest(live / name) != digest:
                    return f"the index file {name} is damaged"
            except FileNotFoundError:
                continue  # merged away by a later commit
            except OSError as error:
                return f"the index file {name} cannot be read ({error.strerror})"
        return None

    def mark_current(self, generation: int) -> None:
        """Record that the index reflects this generation (after a change it need not see)."""
        live = self.live_folder()
        if live is not None:
            self._write_stamp(live, generation)

    def doc_count(self) -> int:
        with self._lock:
            return self._open().doc_count()  # type: ignore[no-any-return]

    def close(self) -> None:
        with self._lock:
            if self._live is not None:
                self._live.close()
                self._live = None
            if self._index is not None:
                self._index.close()
                self._index = None
            self._opened = None

    # ------------------------------------------------------------------ writing

    def rebuild(
        self,
        batches: Iterable[Sequence[IndexDocument]],
        generation: int,
        total: int,
        progress: Callable[[int, int], None] | None = None,
        cancelled: Callable[[], bool] | None = None,
        text_bytes: int = 0,
    ) -> None:
        """Index everything from scratch, in this process (see `rebuild_with`)."""

        def documents() -> Iterator[IndexDocument]:
            done = 0
            for batch in batches:
                if cancelled is not None and cancelled():
                    raise Cancelled
                yield from batch
                done += len(batch)
                if progress is not None:
                    progress(done, total)

        self.rebuild_with(
            lambda folder, _list_now: [segments.write_segment(folder, documents())],
            generation,
            text_bytes,
        )

    def rebuild_with(self, build: SegmentBuilder, generation: int, text_bytes: int = 0) -> None:
        """Index everything from scratch: `build` writes segments of a new, empty index
        beside the live one (in worker processes, or here), which then replaces it.

        The space it needs is checked first (`space_needed`; `text_bytes`: how much text
        the library's papers hold). A rebuild that fails (a full disk, a cancel) leaves
        the live index as it was and in use; one that is killed leaves the `rebuilding`
        flag set besides, so the next open rebuilds again. StorageError for a full disk.
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        self._remove_unused()  # what an interrupted rebuild left behind
        self._check_space(self.space_needed(text_bytes))
        flag = self.folder / REBUILD_FLAG
        flag.write_text("", encoding="utf-8")
        side = self.folder / f"gen-{time.time_ns()}"
        try:
            side.mkdir()
            index = create_index(side, build_schema())
            self._add_segments(index, build)
            count = index.doc_count()
            index.close()
            self._write_stamp(side, generation)
        except BaseException as error:
            shutil.rmtree(side, ignore_errors=True)
            if isinstance(error, Exception):
                flag.unlink(missing_ok=True)  # failed, not killed: the live index stands
            if isinstance(error, OSError) and error.errno == errno.ENOSPC:
                raise self._no_space(self.space_needed(text_bytes)) from error
            raise
        self._swap_in(side)
        flag.unlink()
        log.info("indexed %d papers", count)

    def space_needed(self, text_bytes: int) -> int:
        """Bytes a rebuild needs free: the new generation is written beside the live one,
        and whoosh writes a segment's parts before it joins them into one file (twice the
        index's size at the peak). The new index is judged by the live one, else by the
        text it will hold."""
        live = self.live_folder()
        size = _folder_size(live) if live is not None else 0
        return 2 * (size or int(text_bytes * TEXT_TO_INDEX)) + SPACE_MARGIN

    def _check_space(self, needed: int) -> None:
        if shutil.disk_usage(self.folder).free < needed:
            raise self._no_space(needed)

    def _no_space(self, needed: int) -> StorageError:
        free = shutil.disk_usage(self.folder).free
        kept = "; the index that was there is kept" if self.live_folder() else ""
        return StorageError(
            f"not enough space to rebuild the search index in {self.folder}: it needs "
            f"about {_megabytes(needed)} free, {_megabytes(free)} is{kept}; free some "
            "space, then run `paperdesk reindex`"
        )

    def _swap_in(self, side: Path) -> None:
        """Make `side` the live generation; the old one is deleted once no search uses it."""
        pointer = self.folder / CURRENT_FILE
        temporary = pointer.with_suffix(".tmp")
        temporary.write_text(side.name, encoding="utf-8")
        with self._lock:
            temporary.replace(pointer)
            self.close()
            self._remove_unused()

    def _remove_unused(self) -> None:
        """Delete every entry of the index folder but the live generation and our files
        (older generations; whoosh files of the layout before generations)."""
        live = self.live_folder()
        keep = {CURRENT_FILE, REBUILD_FLAG, live.name if live else ""}
        for entry in self.folder.iterdir():
            if entry.name in keep:
                continue
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)

    def remove_leftovers(self) -> None:
        """Delete what killed writers left: a rebuild's half-built generation, and the
        temporary folders of the live generation's writers (storage.py). Only while no
        writer can be at work: the caller holds the library's write lock."""
        if not self.folder.is_dir():
            return
        self._remove_unused()
        live = self.live_folder()
        if live is not None and live.is_dir():
            remove_leftover_temporaries(live)

    def add_with(self, build: SegmentBuilder, generation: int | None) -> None:
        """Add the segments `build` writes (new papers only) to the live index, those it
        lists at once searchable before the rest."""
        with self._lock:
            index = self._open()
        self._add_segments(index, build)
        self._stamp_if(generation)

    def _add_segments(self, index: Index, build: SegmentBuilder) -> None:
        lock = index.lock("WRITELOCK")
        deadline = time.monotonic() + WRITER_WAIT_S
        while not lock.acquire():
            if time.monotonic() > deadline:
                raise TimeoutError(f"the search index in {self.folder} stays locked")
            time.sleep(0.05)
        try:
            built = build(str(index.storage.folder), partial(segments.list_segments, index))
            segments.list_segments(index, built)
            # Every worker is done: what is left is of workers killed half-way.
            remove_leftover_temporaries(index.storage.folder)
        finally:
            lock.release()

    def _stamp_if(self, generation: int | None) -> None:
        if generation is not None:
            self.mark_current(generation)

    def update(
        self,
        documents: Iterable[IndexDocument],
        deleted_ids: Iterable[int],
        generation: int | None,
    ) -> None:
        """Replace the documents of changed papers and drop deleted ones, in one commit.
        The documents are taken one at a time (a caller may make them as they go), and
        `deleted_ids` is read after them (the caller may learn them on the way).

        `generation` None: other papers still wait to be re-indexed, so the index does
        not yet reflect any generation and its stamp stays as it was.
        """
        with self._lock:
            index = self._open()
        writer = segments.writer(index, timeout=WRITER_WAIT_S, limitmb=segments.UPDATE_POOL_MB)
        try:
            for document in documents:
                writer.update_document(**document.fields())
            for paper_id in deleted_ids:
                writer.delete_by_term("id", str(paper_id))
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        self._stamp_if(generation)

    def add(
        self,
        documents: Iterable[IndexDocument],
        generation: int | None,
        progress: Callable[[int], None] | None = None,
    ) -> None:
        """Add new papers in one commit, in this process (cheaper than update: no old
        version to delete; one writer, or the import would be spent merging segments)."""
        with self._lock:
            index = self._open()
        writer = segments.writer(index, timeout=WRITER_WAIT_S)
        count = 0
        try:
            for count, document in enumerate(documents, start=1):
                writer.add_document(**document.fields())
                if progress is not None and count % 500 == 0:
                    progress(count)
            if progress is not None and count % 500:
                progress(count)  # the last report is the total
            writer.commit()
        except BaseException:
            writer.cancel()
            raise
        self._stamp_if(generation)  # None: see update()

    # ------------------------------------------------------------------ reading

    def search(self, text: str, ranked: bool = True, typed: str = "") -> Hits:
        """The matches, best first (BM25F) when `ranked`, else in no particular order
        (cheaper: nothing is scored, for a caller sorting by a column).
        `typed` is what the user is typing (part of `text`): its last word also matches
        as the start of longer words (query.with_typed_word).
        QueryError for a query the user must fix."""
        parsed = parse_query(text)
        if typed:
            parsed = with_typed_word(parsed, typed)
        with self._lock:
            live = self._searcher()
            matched = live.matches(parsed, ranked)  # first: it may reopen the searcher
            found = [live.ids[docnum] for docnum in matched]
            suggestion = None if found else live.suggest(text)
        return Hits(ids=found, terms=highlight_terms(parsed), suggestion=suggestion)

    def similar(self, text: str, limit: int) -> list[int]:
        """Up to `limit` papers whose words are most like `text`'s, most alike first:
        its KEY_TERMS most telling words (whoosh's Bo1 model over this index's counts),
        each weighted by how telling it is, asked as one OR query. Nothing is trained
        and only those words' postings are read, so it answers at once, where the
        ranking's TF-IDF cosine first reads every abstract (services/runtime/promise)."""
        with self._lock:
            live = self._searcher()
            searcher = live.current()
            key_terms = searcher.key_terms_from_text(POSITIONAL_FIELD, text, numterms=KEY_TERMS)
            if not key_terms:
                return []
            query = Or([Term(POSITIONAL_FIELD, word, boost=weight) for word, weight in key_terms])
            found = searcher.search(query, limit=limit)
            return [live.ids[docnum] for _score, docnum in found.top_n]

    def papers_with_term(self, field: str, term: str, limit: int) -> list[int]:
        """Up to `limit` papers whose `field` holds the index term `term` (a stem): their
        text shows the words of the stem (services/searching.readable_suggestion)."""
        with self._lock:
            live = self._searcher()
            found = live.current().docs_for_query(Term(field, term))
            return [live.ids[docnum] for docnum, _ in zip(found, range(limit), strict=False)]

    def indexed_ids(self) -> set[int]:
        with self._lock:
            live = self._searcher()
            reader = live.current().reader()
            return {live.ids[docnum] for docnum in reader.all_doc_ids()}


def _folder_size(folder: Path) -> int:
    try:
        return sum(path.stat().st_size for path in folder.rglob("*") if path.is_file())
    except OSError:  # a file merged away meanwhile: judge by the text instead
        return 0


def _megabytes(size: int) -> str:
    return f"{size / 1_000_000:,.1f} MB"


def _stamp_of(folder: Path) -> dict[str, Any]:
    try:
        stamp = json.loads((folder / STAMP_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return stamp if isinstance(stamp, dict) else {}


def checksums(folder: Path, known: dict[str, str]) -> dict[str, str]:
    """A digest of each segment and table-of-contents file of an index folder.

    whoosh never rewrites such a file (a commit writes new ones), so a digest already
    `known` is kept and only new files are read: a commit adding a paper reads a few KB.
    """
    found = {}
    for path in folder.iterdir():
        if path.suffix in (".seg", ".toc") and path.is_file():
            found[path.name] = known.get(path.name) or _digest(path)
    return found


def _digest(path: Path) -> str:
    with path.open("rb") as file:
        return hashlib.file_digest(file, "blake2b").hexdigest()

"""Schema variants for the index benchmarks, and the builders that time them.

A Variant says which fields exist, which keep phrase positions, which analyzer runs,
what the combined `text` field holds, and how the writer is driven (limitmb, commits,
merge policy, compression). "current" is paperdesk/search/schema.py version 1 (before
issue 11); every other variant changes one thing from it; "recommended", the chosen
combination, is the app's schema today (version 2).

Builders run in a process of their own (bench_documents.in_fresh_process) and return
their figures: wall and CPU seconds, peak RSS, index size and segment count.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from bench_documents import CACHE, folder_mb, iter_documents, peak_mb
from whoosh import index as windex
from whoosh.analysis import Analyzer, RegexTokenizer, StandardAnalyzer, StemmingAnalyzer
from whoosh.analysis.filters import CharsetFilter, LowercaseFilter
from whoosh.codec.whoosh3 import W3Codec
from whoosh.fields import ID, KEYWORD, NUMERIC, TEXT, Schema
from whoosh.index import TOC
from whoosh.support.charset import accent_map
from whoosh.writing import SegmentWriter

from paperdesk.search.analysis import FoldedStemmingAnalyzer, classic_analyzer
from paperdesk.search.analysis import WordsField as FastTEXT
from paperdesk.search.schema import IndexDocument, build_schema
from paperdesk.search.segments import INDEX_NAME, FastSegmentWriter

SMALL_FIELDS = ("tag", "venue", "year", "status", "rating", "shortlist")
TEXT_PARTS = ("title", "abstract", "authors", "note", "tags", "venue")

ANALYZERS: dict[str, Callable[[], Analyzer]] = {
    "classic": classic_analyzer,
    "fused": FoldedStemmingAnalyzer,  # the app's, with the same terms as "classic"
    "no-stemming": lambda: StandardAnalyzer() | CharsetFilter(accent_map),
    "no-folding": StemmingAnalyzer,
    "bare": lambda: RegexTokenizer() | LowercaseFilter(),
}


@dataclass(frozen=True)
class Variant:
    name: str
    what: str
    positions: frozenset[str] = frozenset({"text", "title", "author", "note"})
    analyzer: str = "classic"
    fields: tuple[str, ...] = ("title", "author", "note", "annotation", *SMALL_FIELDS)
    text_parts: tuple[str, ...] = TEXT_PARTS
    limitmb: int = 256
    commit_every: int | None = None  # None: one writer, one commit
    merge: bool = True  # whoosh's MERGE_SMALL at each commit (its default), else NO_MERGE
    optimize: bool = False  # merge everything into one segment at the end
    compression: int = 3  # zlib level of posting blocks (W3Codec's default)
    fast_writer: bool = False  # search.segments.FastSegmentWriter instead of SegmentWriter
    fast_field: bool = False  # search.analysis.WordsField: postings from term lists, no Tokens
    # NUMERIC's default indexes 8 "tier" terms per number (fast ranges over wide domains);
    # years and ratings have a few dozen values, so one exact term each is enough.
    numeric_tiers: bool = True

    def schema(self) -> Schema:
        def words(name: str) -> TEXT:
            kind = FastTEXT if self.fast_field else TEXT
            return kind(analyzer=ANALYZERS[self.analyzer](), phrase=name in self.positions)

        step = 4 if self.numeric_tiers else 32  # 4 is whoosh's default shift_step
        small = {
            "tag": KEYWORD(commas=True, lowercase=True),
            "venue": KEYWORD(lowercase=True),
            "year": NUMERIC(int, bits=32, shift_step=step),
            "status": ID,
            "rating": NUMERIC(int, bits=32, shift_step=step),
            "shortlist": KEYWORD(commas=True, lowercase=True),
        }
        fields: dict[str, Any] = {"id": ID(stored=True, unique=True), "text": words("text")}
        for name in self.fields:
            fields[name] = small[name] if name in small else words(name)
        return Schema(**fields)

    def document(self, document: IndexDocument) -> dict[str, object]:
        values = document.fields()
        parts = {
            "title": document.title,
            "abstract": document.abstract,
            "authors": values["author"],
            "note": document.note,
            "tags": " ".join(document.tags),
            "venue": document.venue or "",
        }
        values["text"] = "\n".join(parts[p] for p in self.text_parts if parts[p])
        return {k: v for k, v in values.items() if k in ("id", "text", *self.fields)}


CURRENT = Variant("current", "paperdesk/search/schema.py version 1")
_SMALL_ONLY = ("title", "author", "note")

VARIANTS = [
    CURRENT,
    Variant(
        "positions: text only",
        "phrase=False on title, author, note",
        positions=frozenset({"text"}),
    ),
    Variant("positions: none", "phrase=False everywhere", positions=frozenset()),
    Variant("analysis: no stemming", "StandardAnalyzer | accent folding", analyzer="no-stemming"),
    Variant("analysis: no accent folding", "StemmingAnalyzer alone", analyzer="no-folding"),
    Variant("analysis: lowercase only", "no stop words, stems or folding", analyzer="bare"),
    Variant(
        "analysis: fused, same terms", "search.analysis.FoldedStemmingAnalyzer", analyzer="fused"
    ),
    Variant("fields: no title", "title: field dropped", fields=("author", "note", *SMALL_FIELDS)),
    Variant("fields: no author", "author: field dropped", fields=("title", "note", *SMALL_FIELDS)),
    Variant("fields: no note", "note: field dropped", fields=("title", "author", *SMALL_FIELDS)),
    Variant(
        "fields: no small fields", "tag venue year status rating in: dropped", fields=_SMALL_ONLY
    ),
    Variant("fields: text alone", "id and text only", fields=()),
    Variant(
        "text: no duplicates",
        "text = abstract + tags + venue (title/author/note only in their fields)",
        text_parts=("abstract", "tags", "venue"),
    ),
    Variant("limitmb 64", "pool spills to disk 4x sooner", limitmb=64),
    Variant("limitmb 1024", "pool never spills", limitmb=1024),
    Variant("commit every 2,000, merge small", "whoosh default policy", commit_every=2000),
    Variant(
        "commit every 2,000, no merge", "NO_MERGE: a segment each", commit_every=2000, merge=False
    ),
    Variant(
        "commit every 2,000, then optimize",
        "NO_MERGE, one merge at the end",
        commit_every=2000,
        merge=False,
        optimize=True,
    ),
    Variant("posting compression off", "W3Codec(compression=0)", compression=0),
    Variant(
        "numbers: one term each",
        "year, rating: NUMERIC(shift_step=32), not 8 tiers",
        numeric_tiers=False,
    ),
    Variant("writer: lengths read once", "search.segments.FastSegmentWriter", fast_writer=True),
    Variant(
        "field: postings from term lists",
        "fused analyzer + search.analysis.WordsField",
        analyzer="fused",
        fast_field=True,
    ),
]

RECOMMENDED = Variant(
    "recommended",
    "fused analyzer, FastTEXT, positions in text only, one term per number, lengths read once",
    positions=frozenset({"text"}),
    analyzer="fused",
    fast_field=True,
    fast_writer=True,
    numeric_tiers=False,
)
BY_NAME = {v.name: v for v in [*VARIANTS, RECOMMENDED]}


def check_current_matches_app() -> None:
    """The "recommended" variant must be the app's schema, or the comparison means nothing."""
    app = build_schema()
    ours = RECOMMENDED.schema()
    assert app.names() == ours.names(), (app.names(), ours.names())
    for name in app.names():
        assert type(app[name]) is type(ours[name]), name
        assert app[name].format.__class__ is ours[name].format.__class__, name


def check_same_index(documents: Path, scratch: Path, count: int = 1000) -> None:
    """The fused analyzer and the fast writer must give today's index, posting for posting."""
    same = Variant("same", "", analyzer="fused", fast_field=True, fast_writer=True)
    readers = []
    for variant in (CURRENT, same):
        folder = scratch / f"same-{variant.analyzer}"
        build_serial(variant, documents, folder, count)
        readers.append(windex.open_dir(folder, indexname=INDEX_NAME).reader())
    postings = []
    for reader in readers:
        terms = {}
        for fieldname, text in reader.all_terms():
            found = []
            matcher = reader.postings(fieldname, text)
            while matcher.is_active():
                number = matcher.id()
                found.append(
                    (
                        number,
                        matcher.weight(),
                        matcher.value(),
                        reader.doc_field_length(number, fieldname),
                    )
                )
                matcher.next()
            terms[fieldname, text] = found
        postings.append(terms)
        reader.close()
    assert postings[0] == postings[1], "the fused analyzer or fast writer changed the index"


# ---------------------------------------------------------------- building


def _writer(ix: windex.Index, variant: Variant, lock: bool = True) -> SegmentWriter:
    kind = FastSegmentWriter if variant.fast_writer else SegmentWriter
    return kind(
        ix, _lk=lock, limitmb=variant.limitmb, codec=W3Codec(compression=variant.compression)
    )


def build_serial(variant: Variant, documents: Path, folder: Path, count: int) -> dict[str, Any]:
    """One process, the app's way: a writer, add every document, commit (or commit often)."""
    wall, cpu = time.perf_counter(), time.process_time()
    folder.mkdir(parents=True)
    ix = windex.create_in(folder, variant.schema(), indexname=INDEX_NAME)
    writer = _writer(ix, variant)
    for number, document in enumerate(iter_documents(documents, 0, count), start=1):
        writer.add_document(**variant.document(document))
        if variant.commit_every and number % variant.commit_every == 0:
            writer.commit(merge=variant.merge)
            writer = _writer(ix, variant)
    writer.commit(merge=variant.merge)
    added = time.perf_counter() - wall
    if variant.optimize:
        ix.optimize()
    return _figures(ix, folder, wall, cpu, added_s=added)


def build_phases(
    variants: list[Variant], documents: Path, folder: Path, count: int, rounds: int
) -> dict[str, tuple[float, float]]:
    """Fastest CPU seconds of adding the documents and of committing them, per variant.

    All in this one process, each build's documents read into memory before its clock
    starts, the variants built in turn `rounds` times: the steadiest comparison a busy
    machine allows.
    """
    best: dict[str, tuple[float, float]] = {}
    for round_number in range(rounds):
        for variant in variants:
            prepared = [variant.document(d) for d in iter_documents(documents, 0, count)]
            target = folder / f"phases-{round_number}-{variant.name}"
            target.mkdir(parents=True)
            ix = windex.create_in(target, variant.schema(), indexname=INDEX_NAME)
            writer = _writer(ix, variant)
            start = time.process_time()
            for fields in prepared:
                writer.add_document(**fields)
            added = time.process_time()
            writer.commit(merge=False)
            committed = time.process_time()
            ix.close()
            shutil.rmtree(target)
            add_s, commit_s = best.get(variant.name, (float("inf"), float("inf")))
            best[variant.name] = (min(add_s, added - start), min(commit_s, committed - added))
    return best


def _figures(ix: windex.Index, folder: Path, wall: float, cpu: float, **extra: Any) -> dict:
    segments = len(ix._segments())
    docs = ix.doc_count()
    ix.close()
    return {
        "wall_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
        "peak_mb": peak_mb(),
        "index_mb": folder_mb(folder),
        "segments": segments,
        "docs": docs,
        **extra,
    }


# ------------------------------------------------------- one segment per process


def build_segment(
    variant: Variant, documents: Path, folder: Path, start: int, stop: int
) -> dict[str, Any]:
    """A pool worker: write documents [start, stop) as one new segment of the index.

    The parent holds the index's write lock, so the worker writes without it
    (`_lk=False`, as whoosh's own MpWriter sub-writers do). The segment is returned
    to the parent, which lists it in the table of contents; it is not yet searchable.
    """
    # A spawned worker's CPU clock starts with the process: what it has used on entry
    # is its start-up (interpreter, imports), paid once per worker.
    wall, cpu = time.perf_counter(), time.process_time()
    ix = windex.open_dir(folder, indexname=INDEX_NAME)
    writer = _writer(ix, variant, lock=False)
    for document in iter_documents(documents, start, stop):
        writer.add_document(**variant.document(document))
    segment = writer._finalize_segment()
    # Not writer._tempstorage.destroy() (what whoosh's _finish() does): every writer of
    # the folder shares "papers.tmp", and the other workers are still writing in it.
    return {
        "segment": segment,
        "wall_s": time.perf_counter() - wall,
        "cpu_s": time.process_time() - cpu,
        "startup_cpu_s": cpu,
        "peak_mb": peak_mb(),
    }


def _started() -> float:
    return time.perf_counter()


def build_parallel(
    variant: Variant, documents: Path, folder: Path, count: int, procs: int, parts: int = 0
) -> dict[str, Any]:
    """Build with `procs` spawned workers, each writing its own segment(s), then one TOC.

    `parts` (default: procs) splits the documents into that many contiguous ranges; each
    becomes one segment. Returns the wall time, the CPU time of the workers and of this
    process, the workers' largest peak RSS, and what starting the pool cost.
    """
    wall, cpu = time.perf_counter(), time.process_time()
    folder.mkdir(parents=True)
    schema = variant.schema()
    ix = windex.create_in(folder, schema, indexname=INDEX_NAME)
    lock = ix.lock("WRITELOCK")
    assert lock.acquire(), "the index is locked by another writer"
    parts = parts or procs
    bounds = [count * k // parts for k in range(parts + 1)]
    try:
        with ProcessPoolExecutor(procs, mp_context=get_context("spawn")) as pool:
            startup = pool.submit(_started).result() - wall
            jobs = [
                pool.submit(build_segment, variant, documents, folder, lo, hi)
                for lo, hi in zip(bounds, bounds[1:], strict=False)
            ]
            results = [job.result() for job in jobs]
        shutil.rmtree(folder / f"{INDEX_NAME}.tmp", ignore_errors=True)
        generation = ix.latest_generation() + 1
        segments = [r["segment"] for r in results]
        TOC(schema, segments, generation).write(ix.storage, INDEX_NAME)
    finally:
        lock.release()
    ix = windex.open_dir(folder, indexname=INDEX_NAME)
    figures = _figures(ix, folder, wall, cpu, startup_s=startup)
    figures["parent_cpu_s"] = figures["cpu_s"]
    figures["workers"] = [(r["startup_cpu_s"], r["cpu_s"], r["wall_s"]) for r in results]
    figures["cpu_s"] += sum(r["cpu_s"] + r["startup_cpu_s"] for r in results)
    figures["peak_mb"] = max([figures["peak_mb"], *(r["peak_mb"] for r in results)])
    return figures


def optimize_index(folder: Path) -> dict[str, Any]:
    """Merge an index's segments into one, timed (whoosh's OPTIMIZE policy)."""
    wall, cpu = time.perf_counter(), time.process_time()
    ix = windex.open_dir(folder, indexname=INDEX_NAME)
    ix.optimize()
    return _figures(ix, folder, wall, cpu)


# ------------------------------------------------------------------ helpers


def cached_index(variant: Variant, papers: int, segments: int) -> Path:
    """Where bench_search_paths.py keeps (and finds) an index of this build."""
    slug = variant.name.replace(" ", "-").replace(",", "").replace(":", "")
    return CACHE / f"index-{slug}-{papers}-{segments}"


def keep_for_search(folder: Path, variant: Variant, papers: int, segments: int) -> None:
    """Keep a finished build for the search benchmark, unless one is kept already."""
    target = cached_index(variant, papers, segments)
    if not target.exists():
        shutil.move(folder, target)
        (target / "done").write_text("")


def variants_named(names: Iterable[str]) -> list[Variant]:
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}; known: {sorted(BY_NAME)}")
    return [BY_NAME[n] for n in names]

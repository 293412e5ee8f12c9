"""Index segments written beside each other: each writer's temporary files are its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from whoosh.codec.base import Segment

from paperdesk.search import segments
from paperdesk.search.index import FullTextIndex, ListNow
from paperdesk.search.schema import build_schema
from paperdesk.search.storage import INDEX_NAME, create_index, open_index
from tests.search.test_index import DOCS, doc


def test_a_cancelled_writer_leaves_another_writers_spilled_runs(tmp_path: Path) -> None:
    # Two workers of a pool write segments of one index at once (index_pool.py). The
    # first spills sorted runs to disk (a tiny pool); the second is cancelled. With one
    # temporary folder per index, the cancel deleted the first one's runs, and its
    # segment could not be written (FileNotFoundError).
    index = create_index(tmp_path, build_schema())
    first = segments.writer(index, locked=False, limitmb=0.001)
    for document in DOCS:
        first.add_document(**document.fields())
    assert first.pool.runs, "the first writer should have spilled runs to disk"
    second = segments.writer(index, locked=False)
    second.add_document(**doc(9, "Mamba two").fields())
    second.cancel()
    segment = first._finalize_segment()
    first.remove_temporaries()  # as write_segment does
    segments.list_segments(index, [segment])
    with open_index(tmp_path).searcher() as searcher:
        assert searcher.doc_count() == len(DOCS)
    assert not [p for p in tmp_path.iterdir() if p.is_dir()], "temporary folders are left"


def test_write_segment_leaves_no_temporary_folder(tmp_path: Path) -> None:
    index = FullTextIndex(tmp_path / "index")
    index.rebuild_with(
        lambda folder, _list_now: [segments.write_segment(folder, DOCS)], generation=1
    )
    live = index.live_folder()
    assert live is not None
    assert [p.name for p in live.iterdir() if p.is_dir()] == []
    assert index.search("mamba").ids == [3]
    index.close()


def test_leftover_temporary_folders_are_removed_once_every_batch_is_listed(
    tmp_path: Path,
) -> None:
    index = FullTextIndex(tmp_path / "index")
    index.rebuild([DOCS[:1]], generation=1, total=1)
    live = index.live_folder()
    assert live is not None
    leftover = live / f"{INDEX_NAME}-123-killed.tmp"
    leftover.mkdir()
    (leftover / "x.run").write_bytes(b"run")
    seen: list[tuple[bool, list[int]]] = []

    def build(folder: str, list_now: ListNow) -> list[Segment | None]:
        list_now([segments.write_segment(folder, DOCS[1:2])])
        # The first segment is listed and searchable; other workers may still be writing:
        # their temporary folders stay (deleting one lost that worker's runs).
        seen.append((leftover.exists(), index.search("inference").ids))
        return [segments.write_segment(folder, DOCS[2:])]

    index.add_with(build, generation=2)
    assert seen == [(True, [2])]
    assert not leftover.exists() and index.doc_count() == len(DOCS)
    index.close()


def test_updates_of_the_live_index_spill_from_a_small_pool(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A bulk edit's catch-up commits merge small segments, their postings through the
    # writer's pool: in the window's process it spills at 32 MB, not 256.
    index = FullTextIndex(tmp_path / "index")
    index.rebuild([DOCS], generation=1, total=len(DOCS))
    made: list[segments.FastSegmentWriter] = []
    real = segments.writer
    monkeypatch.setattr(segments, "writer", lambda *a, **k: made.append(real(*a, **k)) or made[-1])
    index.update([doc(1, "Learning to learn")], [2], generation=2)
    assert [w.pool.limit for w in made] == [segments.UPDATE_POOL_MB * 1024 * 1024]
    assert index.search("mamba").ids == [3] and index.search("inference").ids == []
    index.close()


def test_commits_and_cancels_leave_no_temporary_folder(tmp_path: Path) -> None:
    index = FullTextIndex(tmp_path / "index")
    index.rebuild([DOCS], generation=1, total=len(DOCS))
    index.update([doc(1, "Learning to learn")], [2], generation=2)
    index.add([doc(5, "Graph networks")], generation=3)
    live = index.live_folder()
    assert live is not None
    cancelled = segments.writer(open_index(live))
    cancelled.add_document(**doc(6, "Never kept").fields())
    cancelled.cancel()
    assert [p.name for p in live.iterdir() if p.is_dir()] == []
    assert index.search("graph").ids == [5]
    index.close()

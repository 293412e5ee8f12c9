"""Benchmark the JSON backup: write and restore the seed library and (with ../shared/data
present) the 13,417-paper corpus. The restore figure includes re-indexing everything.

Prints figures; not a test. Usage:
    python bench/bench_backup.py [--skip-large]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from paperdesk.formats.backup import read_backup_file
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import backup, importing, maintenance, tagging

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "data" / "corpus.jsonl"


def timed(label: str, action):  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    result = action()
    print(f"{label:<48} {time.perf_counter() - start:8.2f} s")
    return result


def round_trip(name: str, files: list[Path], scratch: Path) -> None:
    with Desk.open(scratch / f"{name}-original") as desk:
        report = timed(f"{name}: import", lambda: importing.import_files(desk, files))
        assert not report.failed, report.summary()
        # Some user data, so the backup is not papers alone.
        ids = desk._library.papers.sorted_ids()[:200]
        tagging.add_tags(desk, ids, ["bench/tagged"])
        target = scratch / f"{name}.json"
        timed(f"{name}: read state ({len(ids)} tagged)", lambda: desk._library.backups.read_state())
        count = timed(f"{name}: write backup", lambda: backup.write_backup(desk, target))
    size = target.stat().st_size / 1e6
    print(f"{name}: {count} papers, {size:.1f} MB")
    timed(f"{name}: parse and check the backup", lambda: read_backup_file(target))
    with Desk.open(scratch / f"{name}-restored") as desk:
        timed(
            f"{name}: restore backup (with re-index)", lambda: backup.restore_backup(desk, target)
        )
        assert desk._library.papers.count() == count
        timed(f"{name}: of which re-index (run again)", lambda: maintenance.reindex(desk))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--skip-large", action="store_true", help="seed library only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        round_trip("seeds", sorted((ROOT / "seeds").glob("*.txt")), scratch)
        if not args.skip_large and CORPUS.is_file():
            round_trip("corpus", [CORPUS], scratch)


if __name__ == "__main__":
    main()

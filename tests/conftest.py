"""Shared fixtures: the seeds, the test data in tests/data, and ../shared/data (slow tests).

A plain clone runs every test but the slow ones on tests/data alone: a sample of the
shared corpus and a copy of its bibliographies (tests/data/README.md). The slow tests
that need the whole corpus read ../shared/data and skip where it is absent.
"""

from __future__ import annotations

import gc
import logging
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from paperdesk.gui.main_thread_gc import collect_due_generations

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The tests share the cores with their own xdist workers (and, on a busy machine, with
# everything else): how long hypothesis takes to draw an example, or to run one, says
# nothing about the code under test. What each test asserts is unchanged.
settings.register_profile(
    "shared-cores", suppress_health_check=[HealthCheck.too_slow], deadline=None
)
settings.load_profile("shared-cores")

# The app collects reference cycles on the GUI thread only (paperdesk/gui/main_thread_gc.py):
# a collection on a worker thread destroys a Qt object off its thread and the process
# segfaults. A test process holds Qt objects and worker threads too, so it follows the
# same rule: automatic collection off, the due generations collected between tests.
gc.disable()


@pytest.fixture(autouse=True)
def collect_cycles_on_the_main_thread():
    yield
    collect_due_generations()


# A PostgreSQL server for the team-library tests (skipped where it is not installed).
pytest_plugins = ["tests.postgres_server"]

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SEEDS_DIR = PROJECT_ROOT / "seeds"
SHARED_DATA = PROJECT_ROOT.parent / "shared" / "data"
TEST_DATA = PROJECT_ROOT / "tests" / "data"
#: 607 papers of ../shared/data/corpus.jsonl: every 30th, every 5th of those with LaTeX
#: markup, and the two prefaces that share boilerplate (tests/data/README.md).
CORPUS_SAMPLE = TEST_DATA / "corpus-sample.jsonl"
#: A copy of ../shared/data/bib: other projects' BibTeX and RIS test files.
BIB_FILES = TEST_DATA / "bib"


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS_DIR.glob("*.txt"))


@pytest.fixture
def shared_data() -> Path:
    """The real public data beside the project, for slow tests only (they skip where it
    is absent); every other test reads tests/data."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


@pytest.fixture(params=["sample", pytest.param("whole", marks=pytest.mark.slow)])
def corpus_file(request: pytest.FixtureRequest) -> Path:
    """Real papers as JSON Lines: the sample in tests/data, and (slow) the whole shared
    corpus of 13,417 papers."""
    if request.param == "sample":
        return CORPUS_SAMPLE
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA / "corpus.jsonl"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test reading ../shared/data must be marked slow: the default run (`-m "not
    slow"`) is a plain clone's, where it would skip."""
    unmarked = [
        item.nodeid
        for item in items
        if "shared_data" in getattr(item, "fixturenames", ())
        and item.get_closest_marker("slow") is None
    ]
    if unmarked:
        raise pytest.UsageError(f"mark these slow (they read ../shared/data): {unmarked}")


def lines_of(path: Path) -> int:
    with path.open(encoding="utf-8") as lines:
        return sum(1 for _ in lines)


class _WarningCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def fail_on_logged_warnings(request):
    """A warning or an error logged during a test fails it (qutebrowser's logfail, in small).

    A swallowed exception that only reaches the log is still a bug, and a warning nobody
    expected is one waiting to happen. A test that provokes one on purpose says so with
    `@pytest.mark.logs_warnings` (warnings) or `@pytest.mark.logs_errors` (errors and
    warnings) and checks it with caplog.
    """
    collector = _WarningCollector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield
    finally:
        root.removeHandler(collector)
    if request.node.get_closest_marker("logs_errors") is not None:
        return
    allowed = logging.ERROR if request.node.get_closest_marker("logs_warnings") else logging.WARNING
    unexpected = [r for r in collector.records if r.levelno >= allowed]
    if unexpected:
        lines = "\n".join(f"  {r.name} {r.levelname}: {r.getMessage()}" for r in unexpected[:5])
        pytest.fail(f"warnings or errors were logged during the test:\n{lines}", pytrace=False)

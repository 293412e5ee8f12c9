"""Shared fixtures: paths to the seeds and to ../shared/data, which may be absent."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# A PostgreSQL server for the team-library tests (skipped where it is not installed).
pytest_plugins = ["tests.postgres_server"]

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SEEDS_DIR = PROJECT_ROOT / "seeds"
SHARED_DATA = PROJECT_ROOT.parent / "shared" / "data"


@pytest.fixture
def seed_files() -> list[Path]:
    return sorted(SEEDS_DIR.glob("*.txt"))


@pytest.fixture
def shared_data() -> Path:
    """The real public data beside the project; tests using it skip when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip("../shared/data is not present")
    return SHARED_DATA


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def fail_on_logged_errors(request):
    """An error logged during a test fails it (qutebrowser's logfail, in small).

    A swallowed exception that only reaches the log is still a bug; a test that provokes
    an error on purpose says so with `@pytest.mark.logs_errors` and checks it with caplog.
    """
    collector = _ErrorCollector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield
    finally:
        root.removeHandler(collector)
    if collector.records and request.node.get_closest_marker("logs_errors") is None:
        lines = "\n".join(
            f"  {r.name} {r.levelname}: {r.getMessage()}" for r in collector.records[:5]
        )
        pytest.fail(f"errors were logged during the test:\n{lines}", pytrace=False)

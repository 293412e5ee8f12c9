"""The bundled ICML 2025 seed lists, offered as a demo library on first start."""

from __future__ import annotations

from pathlib import Path

from paperdesk.config import bundled_dir


def seed_files() -> list[Path]:
    return sorted(bundled_dir("seeds").glob("*.txt"))

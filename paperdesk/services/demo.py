"""The bundled ICML 2025 seed lists, offered as a demo library on first start."""

from __future__ import annotations

from pathlib import Path

# In a source checkout or editable install the seeds sit beside the package.
_SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"


def seed_files() -> list[Path]:
    return sorted(_SEEDS.glob("*.txt")) if _SEEDS.is_dir() else []

"""A normal install (`pip install .`, pipx, a wheel) carries the icons, style and seeds.

The README's editable install hides a missing file, because the source tree is beside
the package; these tests build a real wheel and use it from a fresh virtual environment.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def declared_packages() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(config["tool"]["setuptools"]["packages"])


def test_every_package_is_declared_for_the_wheel():
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for init in (ROOT / "paperdesk").rglob("__init__.py")
    }
    missing = sorted(found - declared_packages())
    assert not missing, f"add these to [tool.setuptools] packages in pyproject.toml: {missing}"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("paperdesk-*.whl")
    return built


def test_the_wheel_holds_icons_style_desktop_file_and_seeds(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    icons = {Path(n).name for n in names if n.startswith("paperdesk/resources/icons/")}
    assert icons == {p.name for p in (ROOT / "resources" / "icons").glob("*.svg")}
    for name in ("style.qss", "paperdesk.svg", "paperdesk.desktop", "paperdesk.metainfo.xml"):
        assert f"paperdesk/resources/{name}" in names
    seeds = {Path(n).name for n in names if n.startswith("paperdesk/seeds/")}
    assert seeds == {p.name for p in (ROOT / "seeds").glob("*.txt")}
    assert "paperdesk/store/migrations/versions/0001_initial_schema.py" in names


# Run by the installed app's interpreter, away from the source tree.
_INSTALLED_CHECK = """
import sys
from pathlib import Path
from PySide6.QtGui import QGuiApplication
import paperdesk
from paperdesk.gui import resources
from paperdesk.services.use_cases import demo
app = QGuiApplication([])
venv = Path(sys.argv[1]).resolve()
assert venv in Path(paperdesk.__file__).resolve().parents, paperdesk.__file__
assert not resources.icon("tag").isNull(), "icon missing"
assert not resources.app_icon().isNull(), "app icon missing"
assert resources.style_sheet().strip(), "style sheet missing"
seeds = demo.seed_files()
assert len(seeds) == 2 and all(venv in s.resolve().parents for s in seeds), seeds
print("ok", len(seeds))
"""


@pytest.mark.slow
def test_a_fresh_venv_with_the_wheel_finds_icons_style_and_demo_seeds(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    # The dependencies come from this interpreter's site-packages so that the test does
    # not download Qt; the paperdesk package itself only from the wheel.
    venv.create(env_dir, with_pip=True, system_site_packages=False)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [sys.executable, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    target_site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(target_site) / "deps-from-test-runner.pth").write_text(site + "\n")
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheel)],
        check=True,
        capture_output=True,
    )
    result = subprocess.run(
        [str(python), "-c", _INSTALLED_CHECK, str(env_dir)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={"QT_QPA_PLATFORM": "offscreen", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "ok 2"

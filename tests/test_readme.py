"""The README a user reads first: short, its pictures and links there, its commands true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
MAX_README_LINES = 250


def _targets(markdown: Path) -> list[str]:
    """Every image source and link target of a Markdown file."""
    targets = []
    for token in MarkdownIt().parse(markdown.read_text(encoding="utf-8")):
        for child in token.children or ():
            if child.type == "image":
                targets.append(str(child.attrGet("src")))
            elif child.type == "link_open":
                targets.append(str(child.attrGet("href")))
    return targets


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_README_LINES, f"README.md has {lines} lines; the rest goes in docs/"


@pytest.mark.parametrize("markdown", [README, *DOCS], ids=lambda p: p.name)
def test_every_picture_and_local_link_exists(markdown: Path) -> None:
    local = [t for t in _targets(markdown) if not re.match(r"[a-z]+:", t)]
    if markdown == README:
        assert local, "README.md links to nothing local (is the parser reading it?)"
    missing = [
        t for t in local if t.split("#")[0] and not (markdown.parent / t.split("#")[0]).exists()
    ]
    assert missing == [], f"{markdown.name} points at files that are not there: {missing}"


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(.*?)\n```", text, flags=re.S)
    (command,) = [b for b in blocks if "-m pytest" in b]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert command in ci.splitlines()

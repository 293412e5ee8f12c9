"""A few thousand papers of real words for the search's cost tests, made in memory.

Each paper's title and abstract are words drawn (seeded, so every run is the same) from
the bundled seed abstracts, as often as they occur there: common words in many papers,
rare ones in few, as in a real library; and two made-up words per paper (names,
acronyms: most of a real library's vocabulary is words of one or two papers). Two
commits, one replacing papers, so that the index has two segments and deleted documents.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from paperdesk.search.index import FullTextIndex
from paperdesk.search.schema import IndexDocument

SEEDS = sorted((Path(__file__).resolve().parents[2] / "seeds").glob("*.txt"))
_WORD = re.compile(r"[A-Za-z][A-Za-z-]+")
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_NAMES = ("Yu Sun", "Ann Müller", "Yoshua Bengio", "Chen Li", "Maria Garcia", "Tom Ng")


def seed_words() -> list[str]:
    """Every word of the seed abstracts, in order, repeated as often as it occurs."""
    text = "\n".join(path.read_text(encoding="utf-8") for path in SEEDS)
    return _WORD.findall(text)


def documents(count: int, first_id: int = 1, seed: int = 0) -> list[IndexDocument]:
    words = seed_words()
    draw = random.Random(seed)
    found = []
    for paper_id in range(first_id, first_id + count):
        found.append(
            IndexDocument(
                id=paper_id,
                title=" ".join(draw.choices(words, k=draw.randint(4, 10))),
                abstract=" ".join(
                    [*draw.choices(words, k=draw.randint(60, 160)), *_made_up(draw, 2)]
                ),
                authors=tuple(draw.sample(_NAMES, 2)),
                note="",
                tags=("ml/rnn",) if paper_id % 40 == 0 else (),
                venue="ICML",
                year=2015 + paper_id % 11,
                status="new",
                rating=paper_id % 6,
                shortlists=(),
            )
        )
    return found


def _made_up(draw: random.Random, count: int) -> list[str]:
    return ["".join(draw.choices(_LETTERS, k=draw.randint(5, 9))) for _ in range(count)]


def build(folder: Path, papers: int) -> FullTextIndex:
    """An index of `papers` papers in two segments, with a few replaced (deleted) ones."""
    index = FullTextIndex(folder)
    half = papers // 2
    index.rebuild([documents(half)], generation=1, total=half)
    index.add(documents(papers - half, first_id=half + 1, seed=1), generation=2)
    index.update(documents(20, seed=2), [], generation=3)  # papers 1-20 anew
    return index

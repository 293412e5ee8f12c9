"""Near-duplicate matching on the 13,417-paper corpus: its cost, and the scores the
threshold in paperdesk/services/use_cases/near_duplicates.py was chosen from.

Prints figures; not a test. Usage:
    python bench/bench_near_duplicates.py [--variants 3000]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pylatexenc.latex2text import LatexNodes2Text

from paperdesk.core.evidence import SUGGEST_THRESHOLD
from paperdesk.services.use_cases.near_duplicates import (
    MATCH_THRESHOLD,
    NearDuplicateIndex,
)

CORPUS = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "corpus.jsonl"


def timed(label: str, action: Callable[[], Any]) -> Any:
    """Wall and CPU time: the machine may be shared, CPU time is the steadier figure."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = action()
    print(
        f"{label:<58} {time.perf_counter() - wall:6.2f} s wall"
        f" {time.process_time() - cpu:6.2f} s cpu"
    )
    return result


def import_pass(papers: list[dict[str, Any]]) -> int:
    """What a fresh import of the corpus adds: every record looked up, then indexed."""
    index = NearDuplicateIndex(MATCH_THRESHOLD)
    merged = 0
    for paper_id, paper in enumerate(papers):
        if index.best_match(paper["title"], paper["abstract"]):
            merged += 1
        else:
            index.add(paper_id, paper["title"], paper["abstract"])
    return merged


def library_scan(papers: list[dict[str, Any]]) -> list[tuple[int, int, float]]:
    """What `paperdesk duplicates` does on a library holding the corpus."""
    index = NearDuplicateIndex(SUGGEST_THRESHOLD)
    for paper_id, paper in enumerate(papers):
        index.add(paper_id, paper["title"], paper["abstract"])
    return list(index.similar_pairs())


def transposed(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    i = rng.randrange(len(words))
    if len(words[i]) > 3:
        j = rng.randrange(len(words[i]) - 1)
        w = words[i]
        words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return " ".join(words)


def variant_scores(papers: list[dict[str, Any]], count: int) -> None:
    """Scores of each paper against a spelling variant of itself (what must match)."""
    rng = random.Random(1)
    to_unicode = LatexNodes2Text(math_mode="text")
    kinds: dict[str, list[float]] = {"two transposed letters": [], "LaTeX -> Unicode": []}
    for paper in rng.sample(papers, min(count, len(papers))):
        abstract = paper["abstract"]
        variants = {"two transposed letters": transposed(transposed(abstract, rng), rng)}
        if "$" in abstract or "\\" in abstract:
            try:
                # An unescaped % is text in an abstract but a comment to pylatexenc.
                unicode = to_unicode.latex_to_text(re.sub(r"(?<!\\)%", r"\\%", abstract))
            except IndexError:  # pylatexenc trips over a few malformed macros; skip those
                unicode = None
            if unicode is not None:
                variants["LaTeX -> Unicode"] = unicode
        for kind, variant in variants.items():
            index = NearDuplicateIndex(0.0)
            index.add(1, paper["title"], abstract)
            found = index.best_match(paper["title"], variant)
            kinds[kind].append(found[1] if found else 0.0)
    for kind, scores in kinds.items():
        scores.sort()
        if scores:
            below = sum(s < MATCH_THRESHOLD for s in scores)
            print(
                f"  {kind:<24} n={len(scores):5}  min {scores[0]:.3f}  "
                f"1st pct {scores[len(scores) // 100]:.3f}  median {scores[len(scores) // 2]:.3f}"
                f"  below {MATCH_THRESHOLD}: {below}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--variants", type=int, default=3000)
    args = parser.parse_args()
    papers = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    print(f"{len(papers)} papers from {CORPUS}")
    merged = timed("fresh import pass (look up + add every record)", lambda: import_pass(papers))
    print(f"  {merged} records would merge into an earlier one as near-duplicates")
    pairs = timed("library scan for `paperdesk duplicates`", lambda: library_scan(papers))
    print(f"  {len(pairs)} pairs >= {SUGGEST_THRESHOLD}; the most similar:")
    for first, second, score in sorted(pairs, key=lambda p: -p[2])[:12]:
        print(
            f"    {score:.3f}  {papers[first]['title'][:40]!r:44} {papers[second]['title'][:40]!r}"
        )
    print("scores of papers against spelling variants of themselves:")
    variant_scores(papers, args.variants)


if __name__ == "__main__":
    main()

"""A small made-up library where the relevant papers share a topic the others lack."""

from __future__ import annotations

import random

from paperdesk.core.models import PaperRecord

FILLER = (
    "we propose method results show experiments data model approach paper novel "
    "performance analysis framework study efficient problem evaluate strong baseline"
).split()
TOPICS = {
    "graphs": "graph neural message passing node edge molecule",
    "bandits": "bandit regret arm exploration reward online",
    "vision": "image convolutional pixel segmentation detection camera",
    "language": "token transformer language translation sentence corpus",
    "robots": "robot manipulation grasp locomotion sim2real gripper",
}


def make_records(
    n: int = 200, relevant_topic: str = "graphs", share: float = 0.1, seed: int = 1
) -> tuple[list[PaperRecord], list[bool]]:
    """`n` records, about `share` of them on `relevant_topic`, and which those are."""
    rng = random.Random(seed)
    others = [topic for topic in TOPICS if topic != relevant_topic]
    records: list[PaperRecord] = []
    relevant: list[bool] = []
    for i in range(n):
        is_relevant = rng.random() < share
        topic = relevant_topic if is_relevant else rng.choice(others)
        words = rng.sample(FILLER, 8) + rng.choices(TOPICS[topic].split(), k=6)
        rng.shuffle(words)
        records.append(PaperRecord(title=f"Paper {i}", abstract=" ".join(words).capitalize() + "."))
        relevant.append(is_relevant)
    return records, relevant

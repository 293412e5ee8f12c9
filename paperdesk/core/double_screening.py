"""Screening in pairs: members decide the same papers independently (a blind screening),
then their disagreements are resolved and their agreement is measured.

Cohen's kappa is the agreement beyond chance of two members over the papers both
decided: (p_o - p_e) / (1 - p_e), p_o the share they decided alike, p_e the share two
members deciding at random with the same proportions would. It is undefined when
chance alone explains all agreement (p_e = 1: both gave every paper the same one
decision), and then reported as such rather than as a number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from paperdesk.core.triage import Decision


def cohen_kappa(pairs: Sequence[tuple[Decision, Decision]]) -> float | None:
    """Kappa of two members' decisions on the same papers (None: no papers, or p_e = 1)."""
    if not pairs:
        return None
    count = len(pairs)
    observed = sum(1 for first, second in pairs if first == second) / count
    firsts = Counter(first for first, _ in pairs)
    seconds = Counter(second for _, second in pairs)
    chance = sum(firsts[d] * seconds[d] for d in Decision) / count**2
    if chance == 1:
        return None
    return (observed - chance) / (1 - chance)


@dataclass(frozen=True)
class Agreement:
    """How two members agreed on the papers both decided."""

    first: str
    second: str
    papers: int
    agreed: int
    kappa: float | None

    def text(self) -> str:
        if not self.papers:
            return f"{self.first} and {self.second}: no paper decided by both yet"
        share = f"agreed on {self.agreed:,} of {self.papers:,}"
        kappa = (
            f"Cohen's kappa {self.kappa:.2f}"
            if self.kappa is not None
            else "Cohen's kappa undefined (one decision for every paper)"
        )
        return f"{self.first} and {self.second}: {share}, {kappa}"


def agreement(first: str, second: str, pairs: Sequence[tuple[Decision, Decision]]) -> Agreement:
    agreed = sum(1 for a, b in pairs if a == b)
    return Agreement(first, second, len(pairs), agreed, cohen_kappa(pairs))


@dataclass(frozen=True)
class MemberProgress:
    """How far one member got in a screening, and whether they finished it."""

    member: str
    decided: int
    papers: int
    finished: bool

    def text(self) -> str:
        state = "finished" if self.finished else "screening"
        return f"{self.member}: {self.decided:,} of {self.papers:,} decided, {state}"


@dataclass(frozen=True)
class Vote:
    """One member's decision on a paper, with their exclusion reason and their note."""

    member: str
    decision: Decision
    reason: str | None
    note: str


@dataclass(frozen=True)
class Conflict:
    """A paper the members decided differently, not resolved yet."""

    paper_id: int
    title: str
    votes: tuple[Vote, ...]


@dataclass(frozen=True)
class PairFigures:
    """A team screening's figures per member: progress, agreement, open conflicts.

    `hidden`: a blind screening the reader has not finished, whose agreement and
    conflicts they may not know yet."""

    blind: bool
    members: tuple[MemberProgress, ...]
    agreements: tuple[Agreement, ...]
    conflicts: int
    hidden: bool

    def lines(self) -> list[str]:
        kind = "blind screening" if self.blind else "screening"
        lines = [f"Members of the {kind}: " + "; ".join(m.text() for m in self.members)]
        if self.hidden:
            lines.append("Agreement and conflicts: shown once you finish (blind)")
            return lines
        lines += [a.text() for a in self.agreements]
        lines.append(f"Conflicts to resolve: {self.conflicts:,}")
        return lines

"""Duplicates already in the library: find them, merge them, remember "not duplicates".

Evidence that two papers are one, and how sure it is:
- an exact key they share (DOI, arXiv id, OpenReview id, normalised real title, content
  fingerprint): confidence 1.0; a title or abstract whose papers something contradicts
  (different years, authors, venues... core/evidence.py: what kept them apart on
  import) only SUGGEST_THRESHOLD, so they are offered but never merged by `merge_all`.
  A key shared by more than MAX_BLOCK papers is a data error (a proceedings DOI, the
  title "Preface"), not evidence;
- similar text (services/use_cases/near_duplicates.py): confidence is the similarity.
Pairs join into clusters strongest first; a cluster's confidence is its weakest link. A
pair the user marked "not duplicates" is never offered, nor joined through a third paper.

A merge keeps one record, the survivor, chosen by rule: the one with a DOI, then with
an abstract, then with more metadata filled in, then the oldest. The others' metadata
fills what the survivor lacks by the rules an import follows (merging.merge_updates),
so conflicting values are kept as alternatives. What the user made moves over:
- tags: the union;
- note: the survivor's, then each other note not already in it, a blank line apart;
- rating: the best;
- status: the furthest along, in the order new, skimmed, discarded, to-read, read (a
  decision beats none, and a copy someone means to read beats a discarded one, which
  may well have been discarded for being a duplicate);
- shortlists: every membership, at the earlier place when both were in one list;
- added: the earliest; import provenance: all of it; citation key: the survivor's, or
  the first other's when it has none (a key already cited in a manuscript stays valid).
Each merge is one undoable action; merging every cluster at once is one too.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError
from paperdesk.core.evidence import (
    AUTO_MERGE_CONFIDENCE,
    SUGGEST_THRESHOLD,
    Evidence,
    contradictions,
)
from paperdesk.core.models import Identifiers, Paper, PaperRecord, Status
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases._sync import mutation
from paperdesk.services.use_cases.matching import IDENTIFIER_KINDS, KEY_KINDS, KEY_REASONS
from paperdesk.services.use_cases.merging import merge_updates
from paperdesk.services.use_cases.near_duplicates import (
    MAX_BLOCK,
    NearDuplicateIndex,
    real_title,
)
from paperdesk.store.library import Library
from paperdesk.store.merges import PaperMerge

_STATUS_ORDER = [Status.NEW, Status.SKIMMED, Status.DISCARDED, Status.TO_READ, Status.READ]


@dataclass(frozen=True)
class DuplicateCluster:
    """Papers that look like one; the survivor a merge would keep comes first."""

    paper_ids: tuple[int, ...]
    confidence: float
    reasons: tuple[str, ...]

    @property
    def survivor(self) -> int:
        return self.paper_ids[0]


@dataclass(frozen=True)
class _Edge:
    first: int
    second: int
    confidence: float
    reason: str


def find_clusters(desk: Desk, min_confidence: float = SUGGEST_THRESHOLD) -> list[DuplicateCluster]:
    """Clusters of likely duplicates, most certain first."""
    _check_confidence(min_confidence)
    library = desk._library
    edges = [
        edge
        for edge in [*_exact_edges(library), *_similar_edges(library, min_confidence)]
        if edge.confidence >= min_confidence
    ]
    groups = _cluster(edges, library.merges.not_duplicate_pairs())
    papers = {p.id: p for p in library.papers.get_many([i for ids, _, _ in groups for i in ids])}
    clusters = []
    for ids, confidence, reasons in groups:
        members = _by_preference([papers[i] for i in ids])
        clusters.append(DuplicateCluster(tuple(p.id for p in members), confidence, reasons))
    clusters.sort(key=lambda c: (-c.confidence, min(c.paper_ids)))
    return clusters


@mutation
def merge(desk: Desk, ids: Sequence[int], keep: int | None = None) -> Changes:
    """Merge these papers into one: `keep`, or the survivor the rule picks."""
    wanted = desk._library.papers.require(ids)
    if len(wanted) < 2:
        raise InvalidValueError("name at least two papers to merge")
    if keep is not None and keep not in wanted:
        raise InvalidValueError(f"paper {keep} is not among the papers to merge")
    plan = _merge_plan(desk, wanted, keep)
    description = f"Merge {', '.join(str(i) for i in plan.others)} into {plan.survivor}"
    return desk._library.merges.merge([plan], description)


@mutation
def merge_all(desk: Desk, min_confidence: float = AUTO_MERGE_CONFIDENCE) -> Changes:
    """Merge every cluster at least this sure, each into its survivor, as one action."""
    clusters = find_clusters(desk, min_confidence)
    if not clusters:
        return Changes(f"No duplicates with confidence {min_confidence:.2f} or more")
    plans = [_merge_plan(desk, list(c.paper_ids), c.survivor) for c in clusters]
    merged = sum(len(plan.others) for plan in plans)
    description = f"Merge {len(plans)} duplicate group{'s' if len(plans) != 1 else ''}"
    description += f" ({merged} paper{'s' if merged != 1 else ''} folded in)"
    return desk._library.merges.merge(plans, description)


@mutation
def mark_not_duplicates(desk: Desk, ids: Sequence[int]) -> Changes:
    """Remember that these papers are different; they are never offered together again."""
    return desk._library.merges.mark_not_duplicates(ids)


# ---------------------------------------------------------------------- finding


def _check_confidence(value: float) -> None:
    if not 0.0 <= value <= 1.0:
        raise InvalidValueError(f"a confidence is between 0 and 1, not {value}")


def _exact_edges(library: Library) -> list[_Edge]:
    """Papers sharing an exact key; a title or abstract whose papers something
    contradicts (core/evidence.py) is offered, less sure, and never merged by merge_all."""
    holders: dict[tuple[str, str], list[int]] = defaultdict(list)
    for paper_id, fingerprint, doi, arxiv, openreview, title_key in library.papers.match_keys():
        keys = {
            "doi": (doi or "").lower(),
            "arxiv": arxiv or "",
            "openreview": openreview or "",
            "title": title_key or "",
            "fingerprint": fingerprint,
        }
        for kind in KEY_KINDS:
            if keys[kind]:
                holders[(kind, keys[kind])].append(paper_id)
    shared = {key: ids for key, ids in holders.items() if 2 <= len(ids) <= MAX_BLOCK}
    weak = {i for (kind, _), ids in shared.items() if kind not in IDENTIFIER_KINDS for i in ids}
    known = library.papers.evidence(weak)
    edges: list[_Edge] = []
    for (kind, _value), ids in shared.items():
        first = min(ids)
        for other in ids:
            if other == first:
                continue
            reason = KEY_REASONS[kind]
            contrary = () if kind in IDENTIFIER_KINDS else _contrary(known[first], known[other])
            if contrary:
                edges.append(
                    _Edge(first, other, SUGGEST_THRESHOLD, f"{reason}, contradicted: {contrary}")
                )
            else:
                edges.append(_Edge(first, other, 1.0, reason))
    return edges


def _contrary(first: tuple[Evidence, str], second: tuple[Evidence, str]) -> str:
    reasons = list(contradictions(first[0], second[0]))
    if first[1] and second[1] and first[1] != second[1]:
        reasons.append("different titles")
    return ", ".join(reasons)


def _similar_edges(library: Library, min_confidence: float) -> list[_Edge]:
    index = NearDuplicateIndex(min_confidence)
    for paper_id, title, derived, abstract in library.papers.match_texts():
        index.add(paper_id, real_title(title, derived), abstract)
    return [
        _Edge(first, second, score, f"similar text ({score:.2f})")
        for first, second, score in index.similar_pairs()
    ]


def _cluster(
    edges: Sequence[_Edge], apart: set[tuple[int, int]]
) -> list[tuple[list[int], float, tuple[str, ...]]]:
    """Join papers strongest edge first, never putting two papers marked apart together."""
    group_of: dict[int, int] = {}
    members: dict[int, list[int]] = {}
    confidence: dict[int, float] = {}
    reasons: dict[int, list[str]] = {}
    for edge in sorted(edges, key=lambda e: (-e.confidence, e.first, e.second)):
        if (edge.first, edge.second) in apart:
            continue
        for paper_id in (edge.first, edge.second):
            if paper_id not in group_of:
                group_of[paper_id] = paper_id
                members[paper_id], reasons[paper_id] = [paper_id], []
                confidence[paper_id] = 1.0
        a, b = group_of[edge.first], group_of[edge.second]
        if a != b:  # an edge inside a group adds nothing: the first, strongest, reason stays
            if any((min(x, y), max(x, y)) in apart for x in members[a] for y in members[b]):
                continue
            if len(members[a]) < len(members[b]):
                a, b = b, a
            for paper_id in members.pop(b):
                group_of[paper_id] = a
                members[a].append(paper_id)
            confidence[a] = min(confidence[a], confidence.pop(b), edge.confidence)
            reasons[a].extend(r for r in reasons.pop(b) if r not in reasons[a])
            if edge.reason not in reasons[a]:
                reasons[a].append(edge.reason)
    return [(sorted(ids), confidence[root], tuple(reasons[root])) for root, ids in members.items()]


# ---------------------------------------------------------------------- merging


def _preference(paper: Paper) -> tuple[bool, bool, int, int]:
    filled = sum(
        1
        for value in (
            not paper.title_is_derived,
            paper.authors,
            paper.venue,
            paper.year,
            paper.abstract,
            paper.ids.doi,
            paper.ids.arxiv,
            paper.ids.openreview,
            paper.ids.url,
        )
        if value
    )
    return (bool(paper.ids.doi), bool(paper.abstract), filled, -paper.id)


def _by_preference(papers: Sequence[Paper]) -> list[Paper]:
    return sorted(papers, key=_preference, reverse=True)


def _merge_plan(desk: Desk, ids: Sequence[int], keep: int | None) -> PaperMerge:
    papers = _by_preference(desk._library.papers.get_many(ids))
    if keep is not None:
        papers.sort(key=lambda p: p.id != keep)  # stable: the rest keep their preference order
    survivor, others = papers[0], papers[1:]
    rows = desk._library.papers.stored_values([p.id for p in papers])
    values: dict[str, Any] = {}
    for other in others:
        values.update(merge_updates({**rows[survivor.id], **values}, _record(rows[other.id])))
    values["status"] = max((p.status for p in papers), key=_STATUS_ORDER.index).value
    values["rating"] = max(p.rating for p in papers)
    values["added"] = min(p.added for p in papers)
    inherited_key = next((p.citation_key for p in others if p.citation_key), None)
    if not survivor.citation_key and inherited_key:
        values["citation_key"] = inherited_key
    return PaperMerge(survivor.id, tuple(p.id for p in others), values, _merged_note(papers))


def _record(row: dict[str, Any]) -> PaperRecord:
    """A stored paper seen as an incoming record, so merging follows the import rules."""
    return PaperRecord(
        title=row["title"],
        abstract=row["abstract"] or "",
        authors=tuple(row["authors"]),
        venue=row["venue"],
        year=row["year"],
        title_is_derived=bool(row["title_is_derived"]),
        ids=Identifiers(row["doi"], row["arxiv"], row["openreview"], row["url"]),
        entry_type=row["entry_type"],
        raw_fields=tuple(tuple(pair) for pair in json.loads(row["raw_fields"] or "[]")),
    )


def _merged_note(papers: Sequence[Paper]) -> str:
    """The survivor's note as it is, then each other note it does not already hold."""
    note = papers[0].note
    for paper in papers[1:]:
        body = paper.note.strip()
        if body and body not in note:
            note = f"{note.rstrip()}\n\n{body}" if note.strip() else body
    return note

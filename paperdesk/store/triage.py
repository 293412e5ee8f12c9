"""Triage: a decision as one action, the decision log, and what the ranking reads.

A decision sets the paper's status, puts a kept paper on the target shortlist and logs
the decision with its time, all in one journaled action: one undo step takes back all
three. The ranking reads the papers' text and their labels in bulk from here.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import delete, insert, or_, select, true

from paperdesk.core.changes import Changes
from paperdesk.core.models import PaperRecord, Status
from paperdesk.core.triage import LABELS, STATUS_OF, Decision, LoggedDecision
from paperdesk.store.database import SubStore
from paperdesk.store.member_values import own_rating
from paperdesk.store.papers import set_state
from paperdesk.store.shortlists import append_entries, ensure_shortlist
from paperdesk.store.tables import (
    chunked,
    decisions_t,
    highlight_words_t,
    now,
    papers_t,
    screenings_t,
    state_t,
)

#: A rating from which a paper counts for the ranking whatever its status.
_RATED_FROM = 1


class TriageStore(SubStore):
    def decide(
        self,
        paper_id: int,
        decision: Decision,
        shortlist: str | None = None,
        screening_id: int | None = None,
        reason: str | None = None,
        *,
        blind: bool = False,
        resolves: bool = False,
    ) -> Changes:
        """Keep, maybe or discard one paper in a screening (None: in none); a keep also
        joins `shortlist` (created if new); a discard may carry an exclusion reason.

        `blind`: a member's decision in a blind screening is only logged: the paper's
        status and shortlists, which every member sees, wait for the resolution.
        `resolves`: the decision settles the members' disagreement on the paper."""
        keeps_to = shortlist if decision == Decision.KEEP and shortlist and not blind else None
        reason = reason if decision == Decision.DISCARD else None
        label = ("Resolve: " if resolves else "") + LABELS[decision]
        label += f" to {keeps_to}" if keeps_to else ""
        label += f" ({reason})" if reason else ""
        return self.decide_many(
            label,
            [(paper_id, decision, reason)],
            keeps_to,
            screening_id,
            blind=blind,
            resolves=resolves,
        )

    def decide_many(
        self,
        label: str,
        decisions: Sequence[tuple[int, Decision, str | None]],
        shortlist: str | None = None,
        screening_id: int | None = None,
        *,
        blind: bool = False,
        resolves: bool = False,
    ) -> Changes:
        """(paper, decision, exclusion reason) for many papers in one undo step (a
        labelled dataset read into a screening); keeps join `shortlist`; `blind` and
        `resolves` as for `decide`."""
        stamp = now()
        with self._db.action(label) as w:
            for status in {STATUS_OF[d] for _, d, _ in decisions} if not blind else ():
                ids = [i for i, d, _ in decisions if STATUS_OF[d] == status]
                set_state(w, ids, "status", status.value)
            kept = [i for i, d, _ in decisions if d == Decision.KEEP]
            if shortlist and kept and not blind:
                append_entries(w, ensure_shortlist(w, shortlist), kept)
            ids = sorted({i for i, _, _ in decisions})
            for chunk in chunked(ids):
                with w.journal.tracked(decisions_t, decisions_t.c.paper_id.in_(chunk)):
                    wanted = set(chunk)
                    rows = [
                        {
                            "paper_id": i,
                            "decision": d,
                            "at": stamp,
                            "screening_id": screening_id,
                            "reason": r if d == Decision.DISCARD else None,
                            # The server stamps its own (migration 0009).
                            "member": self._db.member,
                            "resolves": resolves,
                        }
                        for i, d, r in decisions
                        if i in wanted
                    ]
                    w.connection.execute(insert(decisions_t), rows)
        return w.changes

    def log(self) -> list[LoggedDecision]:
        """Every decision, oldest first."""
        query = select(decisions_t).order_by(decisions_t.c.at, decisions_t.c.id)
        with self._db.read() as connection:
            return [
                LoggedDecision(row.paper_id, Decision(row.decision), row.at, row.reason)
                for row in connection.execute(query)
            ]

    def statuses(self, ids: Sequence[int]) -> dict[int, Status]:
        """The status of each of these papers (unknown ids are left out)."""
        found: dict[int, Status] = {}
        with self._db.read() as connection:
            for chunk in chunked(list(ids)):
                query = select(state_t.c.paper_id, state_t.c.status).where(
                    state_t.c.paper_id.in_(chunk)
                )
                found.update((i, Status(s)) for i, s in connection.execute(query))
        return found

    def judged(self, ids: Sequence[int] | None = None) -> Iterator[tuple[int, Status, int]]:
        """(id, status, rating) of papers the user has judged: a status other than new,
        or a rating. All of them, or those among `ids`.

        In a team library the rating is the member's own, and so is the judgement of a
        paper they decided in a blind screening not yet resolved: its shared status
        says nothing of it (the decision stays hidden), and the ranking learns from
        what this member decided."""
        own = self._own_blind_decisions(ids)
        for paper_id, status, rating in self._judged_rows(ids):
            decision = own.pop(paper_id, None)
            yield paper_id, STATUS_OF[decision] if decision else status, rating
        for paper_id, decision in own.items():  # judged only by this member's blind decision
            yield paper_id, STATUS_OF[decision], 0

    def _judged_rows(self, ids: Sequence[int] | None) -> Iterator[tuple[int, Status, int]]:
        rating: Any = state_t.c.rating
        if self._db.member is not None:  # a team library: the member's own ratings
            rating = own_rating(self._db.member, state_t.c.paper_id).label("rating")
        judged = or_(state_t.c.status != Status.NEW.value, rating >= _RATED_FROM)
        columns = (state_t.c.paper_id, state_t.c.status, rating)
        with self._db.read() as connection:
            if ids is None:
                for row in connection.execute(select(*columns).where(judged)):
                    yield row.paper_id, Status(row.status), row.rating
                return
            for chunk in chunked(list(ids)):
                query = select(*columns).where(state_t.c.paper_id.in_(chunk))
                for row in connection.execute(query):
                    yield row.paper_id, Status(row.status), row.rating

    def _own_blind_decisions(self, ids: Sequence[int] | None) -> dict[int, Decision]:
        """The member's latest decision on each paper they decided in a blind screening
        and nobody resolved yet (none in a personal library)."""
        if self._db.member is None:
            return {}
        d, r = decisions_t, decisions_t.alias("resolutions")
        resolved = select(r.c.paper_id).where(
            r.c.resolves.is_(True), r.c.screening_id == screenings_t.c.id
        )
        query = (
            select(d.c.paper_id, d.c.decision)
            .join(screenings_t, screenings_t.c.id == d.c.screening_id)
            .where(
                screenings_t.c.blind.is_(True),
                d.c.member == self._db.member,
                d.c.resolves.is_(False),
                d.c.paper_id.not_in(resolved),
            )
            .order_by(d.c.at, d.c.id)
        )
        found: dict[int, Decision] = {}
        with self._db.read() as connection:
            if ids is None:
                found.update((i, Decision(v)) for i, v in connection.execute(query))
            for chunk in chunked(list(ids or ())):
                rows = connection.execute(query.where(d.c.paper_id.in_(chunk)))
                found.update((i, Decision(v)) for i, v in rows)
        return found

    def text_keys(self, ids: Sequence[int] | None = None) -> Iterator[tuple[int, str]]:
        """(id, key) of every paper (or of those among `ids`), the key changing whenever
        the text the ranking reads does (a new abstract changes the fingerprint, a title
        its text or derivation)."""
        query = select(
            papers_t.c.id, papers_t.c.fingerprint, papers_t.c.title_is_derived, papers_t.c.title
        ).order_by(papers_t.c.id)
        queries = (
            [query]
            if ids is None
            else [query.where(papers_t.c.id.in_(chunk)) for chunk in chunked(sorted(ids))]
        )
        with self._db.read() as connection:
            for each in queries:
                for row in connection.execute(each):
                    key = f"{row.fingerprint}|{int(bool(row.title_is_derived))}|{row.title}"
                    yield row.id, key

    def texts(self, ids: Sequence[int]) -> Iterator[tuple[int, PaperRecord]]:
        """(id, title and abstract) of these papers in id order, for the ranking."""
        columns = (
            papers_t.c.id,
            papers_t.c.title,
            papers_t.c.title_is_derived,
            papers_t.c.abstract,
        )
        with self._db.read() as connection:
            for chunk in chunked(sorted(ids)):
                query = select(*columns).where(papers_t.c.id.in_(chunk)).order_by(papers_t.c.id)
                for row in connection.execute(query):
                    record = PaperRecord(
                        title=row.title,
                        abstract=row.abstract or "",
                        title_is_derived=bool(row.title_is_derived),
                    )
                    yield row.id, record

    # ------------------------------------------------------------------ highlight words

    def highlight_words(self) -> list[str]:
        """The words this library always highlights in abstracts, by name."""
        query = select(highlight_words_t.c.word).order_by(highlight_words_t.c.word)
        with self._db.read() as connection:
            return list(connection.scalars(query))

    def set_highlight_words(self, words: Sequence[str]) -> Changes:
        """Replace the list (blank entries dropped, repeats ignored whatever their case)."""
        cleaned = list({w.strip().casefold(): w.strip() for w in words if w.strip()}.values())
        with self._db.action("Set highlight words") as w:
            with w.journal.tracked(highlight_words_t, true()):
                w.connection.execute(delete(highlight_words_t))
                if cleaned:
                    w.connection.execute(
                        insert(highlight_words_t), [{"word": word} for word in cleaned]
                    )
        return w.changes

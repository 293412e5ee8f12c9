"""Each member's own note and rating of a paper, in a team library.

A team library is shared by several people, and a note or a rating is one person's
view of a paper: every member keeps their own (a row per paper and member), and the
paper's `note` and `rating` read by a client are its member's. Tags, shortlists and
statuses stay shared. The personal library has one user and keeps the note and rating
on the paper (notes, paper_state): there `member` is None and nothing here is used.

A row with no rating and no note is removed, so a member's row says they said something.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    and_,
    bindparam,
    delete,
    func,
    insert,
    select,
    text,
    update,
)

from paperdesk.core.models import UserData
from paperdesk.core.team_values import MemberNote, TeamValues
from paperdesk.store.database import SubStore, Write
from paperdesk.store.tables import chunked, insert_missing, member_values_t, now, papers_t

_t = member_values_t
#: (paper, member) -> the rating, note and note's time an import gives them.
Given = dict[tuple[int, str], tuple[int, str, datetime | None]]


class MemberValueStore(SubStore):
    """Everyone's values (the library's `members` sub-store); a paper read from a team
    library carries them too (`Paper.team`), and its note and rating are the reader's."""

    def of(self, paper_id: int) -> TeamValues:
        """Every member's rating and note of one paper (empty in a personal library)."""
        with self._db.read() as connection:
            found = team_values(connection, [paper_id], self._db.member or "")
        return found.get(paper_id, TeamValues(reader=self._db.member or ""))


def team_values(connection: Connection, ids: list[int], reader: str) -> dict[int, TeamValues]:
    """Everyone's values of these papers as `reader` sees them (papers nobody rated or
    noted left out)."""
    ratings: dict[int, list[tuple[str, int]]] = defaultdict(list)
    notes: dict[int, list[MemberNote]] = defaultdict(list)
    query = select(_t).where(_t.c.paper_id.in_(ids)).order_by(_t.c.member)
    for row in connection.execute(query):
        if row.rating:
            ratings[row.paper_id].append((row.member, row.rating))
        if row.note:
            notes[row.paper_id].append(MemberNote(row.member, row.note, row.noted))
    return {
        paper_id: TeamValues(tuple(ratings[paper_id]), tuple(notes[paper_id]), reader)
        for paper_id in {*ratings, *notes}
    }


def own_values(connection: Connection, ids: list[int], member: str) -> dict[int, tuple[int, str]]:
    """(rating, note) of these papers by one member; papers they left alone are missing."""
    query = select(_t.c.paper_id, _t.c.rating, _t.c.note).where(
        _t.c.paper_id.in_(ids), _t.c.member == member
    )
    return {paper_id: (rating, note) for paper_id, rating, note in connection.execute(query)}


def own_rating(member: str, paper_id: Any = papers_t.c.id) -> Any:
    """A member's rating of the row's paper (`paper_id`), as SQL (0 when unrated)."""
    found = (
        select(_t.c.rating)
        .where(_t.c.paper_id == paper_id, _t.c.member == member)
        .scalar_subquery()
    )
    return func.coalesce(found, 0)


def own_note(connection: Connection, paper_id: int, member: str) -> str:
    query = select(_t.c.note).where(_t.c.paper_id == paper_id, _t.c.member == member)
    return connection.scalar(query) or ""


def set_own_ratings(w: Write, ids: Sequence[int], member: str, rating: int) -> list[int]:
    """Set a member's rating of these (existing) papers; the ids whose rating changed."""
    changed: list[int] = []
    for chunk in chunked(list(ids)):
        before = own_values(w.connection, chunk, member)
        changing = [i for i in chunk if before.get(i, (0, ""))[0] != rating]
        if changing:
            _write(w, changing, member, rating=rating, rated=now())
        changed += changing
    return changed


def set_own_note(w: Write, paper_id: int, member: str, body: str) -> None:
    """Set a member's note of a paper (a blank body removes it)."""
    if not body.strip():
        _write(w, [paper_id], member, note="", noted=None)
    elif own_note(w.connection, paper_id, member) != body:
        _write(w, [paper_id], member, note=body, noted=now())


def import_member_values(w: Write, user: Mapping[int, UserData], member: str) -> None:
    """The notes and ratings an imported file gives papers, as members' own: everyone's
    from a team library's export (`UserData.team`), else the importing member's. As an
    import does for the personal library, a member's rating or note is filled only
    where they had none."""
    given: Given = {}
    for paper_id, data in user.items():
        if data.team is not None:
            for name, rating in data.team.ratings:
                given[paper_id, name] = (rating, "", None)
            for note in data.team.notes:
                rating = given.get((paper_id, note.member), (0, "", None))[0]
                given[paper_id, note.member] = (rating, note.body, note.when)
        elif data.rating or data.note:
            given[paper_id, member] = (data.rating or 0, data.note, None)
    if not _may_write_others(w.connection):
        # The server lets only an owner write others' values (migration 0007): a
        # member's import keeps their own.
        given = {key: value for key, value in given.items() if key[1] == member}
    ids = sorted({paper_id for paper_id, _ in given})
    for chunk in chunked(ids):
        wanted = set(chunk)
        with w.journal.tracked(_t, _t.c.paper_id.in_(chunk)):
            _fill(w.connection, {key: v for key, v in given.items() if key[0] in wanted})


def _fill(connection: Connection, given: Given) -> None:
    """Each (paper, member)'s rating and note where they have none: one executemany."""
    columns = (_t.c.paper_id, _t.c.member, _t.c.rating, _t.c.rated, _t.c.note, _t.c.noted)
    ids = list({paper_id for paper_id, _ in given})
    present = {
        (row.paper_id, row.member): row
        for row in connection.execute(select(*columns).where(_t.c.paper_id.in_(ids)))
    }
    stamp = now()
    rows = []
    for (paper_id, member), (rating, note, noted) in given.items():
        had = present.get((paper_id, member))
        row = {"key_paper": paper_id, "key_member": member, "rating": rating, "rated": stamp}
        row |= {"note": note, "noted": (noted or stamp) if note else None}
        if had is not None and had.rating:
            row |= {"rating": had.rating, "rated": had.rated}
        if had is not None and had.note:
            row |= {"note": had.note, "noted": had.noted}
        if had is None or (row["rating"], row["note"]) != (had.rating, had.note):
            rows.append(row)
    empty = {"rating": 0, "note": ""}
    news = [{"paper_id": r["key_paper"], "member": r["key_member"], **empty} for r in rows]
    insert_missing(connection, _t, news)
    if rows:
        where = and_(
            _t.c.paper_id == bindparam("key_paper"), _t.c.member == bindparam("key_member")
        )
        names = ("rating", "rated", "note", "noted")
        connection.execute(update(_t).where(where).values({n: bindparam(n) for n in names}), rows)


def fold_member_values(connection: Connection, survivor: int, others: list[int]) -> None:
    """Merging duplicates in a team library: each member keeps one rating and note of
    the survivor, their own (the best rating; the notes joined, the survivor's first).
    Values a blind screening hides from this member are not theirs to fold: the server
    refuses the merge (migration 0012)."""
    if connection.dialect.name == "postgresql":
        connection.execute(
            text("SELECT paperdesk_refuse_hidden_values(CAST(:papers AS integer[]))"),
            {"papers": [survivor, *others]},
        )
    rows = connection.execute(select(_t).where(_t.c.paper_id.in_([survivor, *others])))
    by_member: dict[str, list[Any]] = defaultdict(list)
    for row in rows:
        by_member[row.member].append(row)
    connection.execute(delete(_t).where(_t.c.paper_id.in_([survivor, *others])))
    folded = []
    for member, found in by_member.items():
        found.sort(key=lambda row: row.paper_id != survivor)  # the survivor's first
        best = max(found, key=lambda row: row.rating)
        notes = [row for row in found if row.note]
        folded.append(
            {
                "paper_id": survivor,
                "member": member,
                "rating": best.rating,
                "rated": best.rated,
                "note": "\n\n".join(dict.fromkeys(row.note for row in notes)),
                "noted": max((row.noted for row in notes if row.noted), default=None),
            }
        )
    if folded:
        connection.execute(insert(_t), folded)


def _write(w: Write, ids: list[int], member: str, **values: object) -> None:
    """Set columns of a member's rows of these papers, creating and dropping rows as
    needed, journaled so the action is undone like any other (and the change log sees
    whose values changed)."""
    with w.journal.tracked(_t, _mine(ids, member)):
        empty = {"rating": 0, "rated": None, "note": "", "noted": None}
        insert_missing(w.connection, _t, [{"paper_id": i, "member": member, **empty} for i in ids])
        w.connection.execute(update(_t).where(_mine(ids, member)).values(values))
        w.connection.execute(
            delete(_t).where(_mine(ids, member), _t.c.rating == 0, _t.c.note == "")
        )


def _may_write_others(connection: Connection) -> bool:
    """Whether the server lets this role write other members' notes and ratings."""
    return bool(
        connection.scalar(
            text(
                "SELECT paperdesk_is_owner() OR (SELECT rolsuper OR rolbypassrls "
                "FROM pg_roles WHERE rolname = session_user)"
            )
        )
    )


def _mine(ids: list[int], member: str) -> ColumnElement[bool]:
    return and_(_t.c.paper_id.in_(ids), _t.c.member == member)

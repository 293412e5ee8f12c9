"""The user's data an imported file carries, written in the import's transaction.

An export of one library imported into another brings its tags (with their colours),
notes and shortlists along (a paper's status and rating are columns, written with the
paper: see imports.py). A new paper takes all of it. A paper already in the library
keeps what it has and gains what the file adds: tags and shortlist places it lacks,
a note where it had none. Tags and shortlists the file names are created (a created
tag takes the file's colour; an existing one keeps its own).

In a team library the notes and ratings are the members' own (store/member_values.py):
a team library's export gives back every member's, any other file the importer's.

Undo of the import removes what it created: the new tags and shortlists are
journaled, and so are the rows it added to papers already there; the new papers'
rows go with them (see journal.Step.added_ids).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence

from sqlalchemy import Table, func, insert, select

from paperdesk.core.models import UserData
from paperdesk.store.database import Write
from paperdesk.store.member_values import import_member_values
from paperdesk.store.tables import (
    chunked,
    entries_t,
    notes_t,
    now,
    paper_tags_t,
    shortlists_t,
    tags_t,
)


def write_user_data(
    w: Write, user: Mapping[int, UserData], existing: Sequence[int], member: str | None = None
) -> None:
    """Give each paper (by id) the tags, note and shortlist places of its UserData.

    `existing` are the ids of papers that were there before the import; their rows are
    journaled (a new paper's go with it). `member`: who imports into a team library.
    """
    connection = w.connection
    wanted = [data for data in user.values() if not data.is_empty]
    if not wanted:
        return
    colours = {name: colour for data in wanted for name, colour in data.tag_colours}
    last_tag = connection.scalar(select(func.coalesce(func.max(tags_t.c.id), 0)))
    last_list = connection.scalar(select(func.coalesce(func.max(shortlists_t.c.id), 0)))
    with (
        w.journal.tracked(tags_t, tags_t.c.id > last_tag),
        w.journal.tracked(shortlists_t, shortlists_t.c.id > last_list),
    ):
        tag_ids = _ensure(tags_t, [t for d in wanted for t in d.tags], colours, w)
        list_ids = _ensure(shortlists_t, [s for d in wanted for s in d.shortlists], {}, w)
    with (
        w.journal.tracked_ids(paper_tags_t, "paper_id", existing),
        w.journal.tracked_ids(notes_t, "paper_id", existing),
        w.journal.tracked_ids(entries_t, "paper_id", existing),
    ):
        _link_tags(w, user, tag_ids)
        if member is None:
            _write_notes(w, user)
        _append_to_shortlists(w, user, list_ids)
    if member is not None:
        import_member_values(w, user, member)


def _ensure(table: Table, names: list[str], colours: Mapping[str, str], w: Write) -> dict[str, int]:
    """Name (casefolded) -> id, creating the tags or shortlists that do not exist."""
    ids: dict[str, int] = {}
    for name in dict.fromkeys(names):
        if name.casefold() in ids:
            continue
        found = w.connection.scalar(select(table.c.id).where(table.c.name == name))
        if found is None:
            values = (
                {"name": name, "colour": colours.get(name)}
                if table is tags_t
                else {"name": name, "created": now()}
            )
            result = w.connection.execute(insert(table).values(**values))
            found = result.inserted_primary_key[0]  # type: ignore[index]
        ids[name.casefold()] = int(found)
    return ids


def _link_tags(w: Write, user: Mapping[int, UserData], tag_ids: Mapping[str, int]) -> None:
    ids = [paper_id for paper_id, data in user.items() if data.tags]
    present: set[tuple[int, int]] = set()
    for chunk in chunked(ids):
        query = select(paper_tags_t.c.paper_id, paper_tags_t.c.tag_id)
        rows = w.connection.execute(query.where(paper_tags_t.c.paper_id.in_(chunk)))
        present.update((paper_id, tag_id) for paper_id, tag_id in rows)
    links = [
        {"paper_id": paper_id, "tag_id": tag_id}
        for paper_id, data in user.items()
        for tag_id in dict.fromkeys(tag_ids[name.casefold()] for name in data.tags)
        if (paper_id, tag_id) not in present
    ]
    if links:
        w.connection.execute(insert(paper_tags_t), links)


def _write_notes(w: Write, user: Mapping[int, UserData]) -> None:
    ids = [paper_id for paper_id, data in user.items() if data.note]
    has_note: set[int] = set()
    for chunk in chunked(ids):
        query = select(notes_t.c.paper_id).where(notes_t.c.paper_id.in_(chunk))
        has_note.update(w.connection.scalars(query))
    stamp = now()
    rows = [
        {"paper_id": paper_id, "body": user[paper_id].note, "created": stamp, "updated": stamp}
        for paper_id in ids
        if paper_id not in has_note
    ]
    if rows:
        w.connection.execute(insert(notes_t), rows)


def _append_to_shortlists(
    w: Write, user: Mapping[int, UserData], list_ids: Mapping[str, int]
) -> None:
    """Each paper at the end of its shortlists: in the places the file gives (an
    export's), else in the file's order."""
    members: dict[int, list[tuple[int, int]]] = {}
    for paper_id, data in user.items():
        places = {name.casefold(): place for name, place in data.shortlist_places}
        for name in data.shortlists:
            place = places.get(name.casefold(), sys.maxsize)  # placeless ones after
            members.setdefault(list_ids[name.casefold()], []).append((place, paper_id))
    for shortlist_id, placed in members.items():
        ids = [paper_id for _, paper_id in sorted(placed, key=lambda pair: pair[0])]
        present = set(
            w.connection.scalars(
                select(entries_t.c.paper_id).where(entries_t.c.shortlist_id == shortlist_id)
            )
        )
        last = w.connection.scalar(
            select(func.max(entries_t.c.position)).where(entries_t.c.shortlist_id == shortlist_id)
        )
        new = [p for p in dict.fromkeys(ids) if p not in present]
        rows = [
            {"shortlist_id": shortlist_id, "paper_id": p, "position": (last or 0.0) + 1.0 + i}
            for i, p in enumerate(new)
        ]
        if rows:
            w.connection.execute(insert(entries_t), rows)

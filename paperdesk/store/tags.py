"""Tags: case-insensitive names, an optional colour, `a/b` names making a hierarchy."""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import Connection, delete, func, insert, select, update

from paperdesk.core.changes import Changes
from paperdesk.core.errors import InvalidValueError, NotFoundError
from paperdesk.core.models import TagInfo
from paperdesk.core.rules import TAG, clean_colour, clean_name, clean_names
from paperdesk.store.database import SubStore, Write
from paperdesk.store.journal_changes import papers_with_tags
from paperdesk.store.papers import require_ids
from paperdesk.store.tables import chunked, insert_missing, paper_tags_t, tags_t


class TagStore(SubStore):
    def all(self) -> list[TagInfo]:
        """Every tag with how many papers carry it, by name."""
        with self._db.read() as connection:
            return list_tags(connection)

    def add(self, ids: Sequence[int], names: Sequence[str]) -> Changes:
        return self.change(ids, add=names)

    def remove(self, ids: Sequence[int], names: Sequence[str]) -> Changes:
        return self.change(ids, remove=names)

    def change(
        self, ids: Sequence[int], add: Sequence[str] = (), remove: Sequence[str] = ()
    ) -> Changes:
        """Give papers the tags `add` and take `remove` off them: one action."""
        if not add and not remove:
            raise InvalidValueError("no tag name given")
        add = clean_names(add, TAG) if add else []
        remove = clean_names(remove, TAG) if remove else []
        said = [f"Add tag {', '.join(add)}"] if add else []
        said += [f"{'r' if add else 'R'}emove tag {', '.join(remove)}"] if remove else []
        description = "; ".join(said)  # "Add tag a; remove tag b"
        with self._db.action(description) as w:
            ids = require_ids(w.connection, ids)
            added = [_ensure_tag(w, name) for name in add]
            removed = [
                t for t in (_tag_id_or_none(w.connection, n) for n in remove) if t is not None
            ]
            with w.journal.tracked_ids(paper_tags_t, "paper_id", ids):
                for chunk in chunked(sorted(ids)):
                    if removed:
                        w.connection.execute(
                            delete(paper_tags_t).where(
                                paper_tags_t.c.paper_id.in_(chunk),
                                paper_tags_t.c.tag_id.in_(removed),
                            )
                        )
                    for tag_id in added:
                        rows = [{"paper_id": p, "tag_id": tag_id} for p in chunk]
                        insert_missing(w.connection, paper_tags_t, rows)
        return w.changes

    def create(self, name: str, colour: str | None = None) -> Changes:
        name = clean_name(name, TAG)
        colour = clean_colour(colour)
        with self._db.action(f"Create tag {name}") as w:
            if _tag_id_or_none(w.connection, name) is not None:
                raise InvalidValueError(f"a tag named {name!r} already exists")
            with w.journal.tracked(tags_t, tags_t.c.name == name):
                w.connection.execute(insert(tags_t).values(name=name, colour=colour))
        return w.changes

    def rename(self, old: str, new: str) -> Changes:
        new = clean_name(new, TAG)
        with self._db.action(f"Rename tag {old} to {new}") as w:
            # Children of a hierarchical tag move with it: "ml" -> "learning" renames "ml/rnn"
            # (and "ml" may be only a branch of the tree, with no tag of its own).
            affected = _tag_family(w.connection, old)
            clash = _tag_id_or_none(w.connection, new)
            if clash is not None and clash not in {t for t, _ in affected}:
                raise InvalidValueError(f"a tag named {new!r} already exists; merge instead")
            with w.journal.tracked(tags_t, tags_t.c.id.in_([t for t, _ in affected])):
                for family_id, family_name in affected:
                    renamed = new + family_name[len(old) :]
                    w.connection.execute(
                        update(tags_t).where(tags_t.c.id == family_id).values(name=renamed)
                    )
        return w.changes

    def merge(self, sources: Sequence[str], target: str) -> Changes:
        target = clean_name(target, TAG)
        description = f"Merge {', '.join(sources)} into {target}"
        with self._db.action(description) as w:
            source_ids = [_tag_id(w.connection, s) for s in sources]
            target_id = _ensure_tag(w, target)
            source_ids = [s for s in source_ids if s != target_id]
            paper_ids = papers_with_tags(w.connection, source_ids)
            with (
                w.journal.tracked_ids(tags_t, "id", [*source_ids, target_id]),
                w.journal.tracked_ids(paper_tags_t, "paper_id", paper_ids),
            ):
                already = set(
                    w.connection.scalars(
                        select(paper_tags_t.c.paper_id).where(paper_tags_t.c.tag_id == target_id)
                    )
                )
                rows = [{"paper_id": p, "tag_id": target_id} for p in paper_ids if p not in already]
                if rows:
                    w.connection.execute(insert(paper_tags_t), rows)
                w.connection.execute(
                    delete(paper_tags_t).where(paper_tags_t.c.tag_id.in_(source_ids))
                )
                w.connection.execute(delete(tags_t).where(tags_t.c.id.in_(source_ids)))
        return w.changes

    def delete(self, name: str) -> Changes:
        with self._db.action(f"Delete tag {name}") as w:
            tag_id = _tag_id(w.connection, name)
            with (
                w.journal.tracked_ids(tags_t, "id", [tag_id]),
                w.journal.tracked(paper_tags_t, paper_tags_t.c.tag_id == tag_id),
            ):
                w.connection.execute(delete(paper_tags_t).where(paper_tags_t.c.tag_id == tag_id))
                w.connection.execute(delete(tags_t).where(tags_t.c.id == tag_id))
        return w.changes

    def set_colour(self, name: str, colour: str | None) -> Changes:
        colour = clean_colour(colour)
        with self._db.action(f"Recolour tag {name}") as w:
            tag_id = _tag_id(w.connection, name)
            with w.journal.tracked_ids(tags_t, "id", [tag_id]):
                w.connection.execute(
                    update(tags_t).where(tags_t.c.id == tag_id).values(colour=colour)
                )
        return w.changes


def list_tags(connection: Connection) -> list[TagInfo]:
    query = (
        select(tags_t.c.id, tags_t.c.name, tags_t.c.colour, func.count(paper_tags_t.c.paper_id))
        .outerjoin(paper_tags_t, paper_tags_t.c.tag_id == tags_t.c.id)
        .group_by(tags_t.c.id)
        .order_by(func.lower(tags_t.c.name))
    )
    return [TagInfo(r[0], r[1], r[2], r[3]) for r in connection.execute(query)]


def _tag_id_or_none(connection: Connection, name: str) -> int | None:
    return connection.scalar(select(tags_t.c.id).where(tags_t.c.name == name))


def _tag_id(connection: Connection, name: str) -> int:
    tag_id = _tag_id_or_none(connection, name)
    if tag_id is None:
        raise NotFoundError(f"no tag named {name!r}")
    return tag_id


def _ensure_tag(w: Write, name: str) -> int:
    existing = _tag_id_or_none(w.connection, name)
    if existing is not None:
        return existing
    with w.journal.tracked(tags_t, tags_t.c.name == name):
        # Another client may create the same tag at the same moment: both get it.
        insert_missing(w.connection, tags_t, [{"name": name, "colour": None}])
    return int(_tag_id(w.connection, name))


def _tag_family(connection: Connection, name: str) -> list[tuple[int, str]]:
    """The tag and its `name/...` descendants.

    Names compare with the column's NOCASE collation, the same rule as the unique
    constraint (SQL lower() and Python lower() disagree on non-ASCII capitals).
    """
    escaped = name.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    rows = connection.execute(
        select(tags_t.c.id, tags_t.c.name).where(
            (tags_t.c.name == name) | tags_t.c.name.like(escaped + "/%", escape="\\")
        )
    )
    family = [(r.id, r.name) for r in rows]
    if not family:
        raise NotFoundError(f"no tag named {name!r}")
    return family

"""The new papers of an import plan, kept in a temporary file until they are written.

A plan is made before it is written (services/use_cases/import_plan.py), and 100,000 new papers
held as objects until then were most of an import's 1.4 GB. Here they go to a
temporary file a chunk at a time, as `marshal`led tuples of plain values in the order
of their dataclasses' fields (about 10x faster than pickling the dataclasses), and
come back a chunk at a time for the commit.
Looking one up by its place (an entry merging into an earlier entry of the file) reads
its chunk back; that is rare, and the last chunk read is kept.
"""

from __future__ import annotations

import marshal
import tempfile
import weakref
from collections.abc import Iterator
from dataclasses import fields
from datetime import datetime
from operator import attrgetter
from typing import IO, Any

from paperdesk.core.models import Identifiers, PaperRecord, Status, UserData
from paperdesk.core.team_values import MemberNote, TeamValues
from paperdesk.store.imports import NewPaper

#: Papers per chunk written to (and read from) the file.
CHUNK = 2000


class NewPaperSpool:
    """A list of NewPaper, in order, that keeps at most two chunks in memory."""

    def __init__(self, chunk: int | None = None, file: IO[bytes] | None = None) -> None:
        self._chunk = chunk or CHUNK
        # Made when the first chunk is written, unless given (a planning process's
        # plan file, services/use_cases/plan_process.py: it is closed by whoever gave it).
        self._file: IO[bytes] | None = file
        self._written: list[tuple[int, int]] = []  # each chunk's offset and size in the file
        self._tail: list[NewPaper] = []  # the papers after the last chunk written
        self._cached: tuple[int, list[NewPaper]] | None = None
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def append(self, paper: NewPaper) -> None:
        self._tail.append(paper)
        self._count += 1
        if len(self._tail) == self._chunk:
            # marshal.load on a file reads it a few bytes at a time: whole chunks are read
            # and written as bytes instead.
            data = marshal.dumps([_packed(p) for p in self._tail])
            file = self._opened()
            self._written.append((file.seek(0, 2), len(data)))
            file.write(data)
            self._tail = []

    def __getitem__(self, position: int) -> NewPaper:
        if position < 0:
            position += self._count
        if not 0 <= position < self._count:
            raise IndexError(position)
        number, offset = divmod(position, self._chunk)
        if number == len(self._written):
            return self._tail[offset]
        if self._cached is None or self._cached[0] != number:
            self._cached = (number, self._read(number))
        return self._cached[1][offset]

    def finish(self) -> tuple[list[tuple[int, int]], int, int]:
        """Write the papers still in memory to the file; returns what `adopted` needs
        to read them back (each chunk's place, the count, the chunk size). Nothing may
        be appended after this."""
        if self._tail:
            data = marshal.dumps([_packed(p) for p in self._tail])
            file = self._opened()
            self._written.append((file.seek(0, 2), len(data)))
            file.write(data)
            self._tail = []
        return list(self._written), self._count, self._chunk

    @classmethod
    def adopted(
        cls, file: IO[bytes], written: list[tuple[int, int]], count: int, chunk: int
    ) -> NewPaperSpool:
        """The papers another process spooled into `file` (`finish` said where): this
        spool reads them from it, and closes it when it goes."""
        spool = cls(chunk, file)
        spool._written, spool._count = list(written), count
        weakref.finalize(spool, file.close)
        return spool

    def chunks(self) -> Iterator[list[NewPaper]]:
        """The papers in order, a chunk at a time."""
        for number in range(len(self._written)):
            yield self._read(number)
        if self._tail:
            yield list(self._tail)

    def _opened(self) -> IO[bytes]:
        if self._file is None:
            self._file = tempfile.TemporaryFile(prefix="paperdesk-import-")
            # A plan is dropped, not closed (written, cancelled, made again): the file
            # goes with it.
            weakref.finalize(self, self._file.close)
        return self._file

    def _read(self, number: int) -> list[NewPaper]:
        offset, size = self._written[number]
        file = self._opened()
        file.seek(offset)
        return [_unpacked(values) for values in marshal.loads(file.read(size))]


# What is spooled of a paper, named by its dataclasses' own fields: a field added to
# PaperRecord or UserData is spooled with no list here to keep (marshal refuses a value
# it cannot write, so a new kind of value fails loudly). The values are read by
# attrgetters and the dataclasses made again from positional values: building a dict of
# the user data per field was a third of an import's planning at 13,417 papers.
_RECORD = tuple(f.name for f in fields(PaperRecord))
_IDS = tuple(f.name for f in fields(Identifiers))
_USER = tuple(f.name for f in fields(UserData))
_IDS_AT, _USER_AT = _RECORD.index("ids"), _RECORD.index("user")
_STATUS_AT, _TEAM_AT = _USER.index("status"), _USER.index("team")
_record_values = attrgetter(*_RECORD)
_ids_values = attrgetter(*_IDS)
_user_values = attrgetter(*_USER)
_NO_USER = UserData()


def _packed(paper: NewPaper) -> tuple[Any, ...]:
    record = paper.record
    values = list(_record_values(record))
    values[_IDS_AT] = _ids_values(record.ids)
    # Most records carry no user data: None stands for it.
    values[_USER_AT] = None if record.user == _NO_USER else _packed_user(record.user)
    return dict(paper.keys), paper.citation_key, tuple(values)


def _packed_user(user: UserData) -> tuple[Any, ...]:
    values = list(_user_values(user))
    values[_STATUS_AT] = None if user.status is None else user.status.value
    team = user.team
    values[_TEAM_AT] = (
        None
        if team is None
        else (
            team.ratings,
            tuple((n.member, n.body, n.when.isoformat() if n.when else None) for n in team.notes),
            team.reader,
        )
    )
    return tuple(values)


def _unpacked(values: tuple[Any, ...]) -> NewPaper:
    keys, key, packed = values
    record = list(packed)
    record[_IDS_AT] = Identifiers(*record[_IDS_AT])
    user = record[_USER_AT]
    record[_USER_AT] = _NO_USER if user is None else _unpacked_user(user)
    return NewPaper(PaperRecord(*record), keys, key)


def _unpacked_user(packed: tuple[Any, ...]) -> UserData:
    user = list(packed)
    status, team = user[_STATUS_AT], user[_TEAM_AT]
    user[_STATUS_AT] = None if status is None else Status(status)
    if team is not None:
        ratings, notes, reader = team
        user[_TEAM_AT] = TeamValues(
            ratings,
            tuple(
                MemberNote(member, body, datetime.fromisoformat(when) if when else None)
                for member, body, when in notes
            ),
            reader,
        )
    return UserData(*user)

"""Team library addresses: told apart from folders, their passwords never shown."""

from __future__ import annotations

import pytest

from paperdesk.core.errors import LibraryError
from paperdesk.core.team_url import TeamAddress, is_team_url, mask


@pytest.mark.parametrize(
    ("text", "team"),
    [
        ("postgresql://alice@db.lab.org/icml", True),
        ("postgres://alice@db.lab.org/icml", True),
        ("POSTGRESQL://alice@host/icml", True),
        ("postgresql+psycopg://alice@host/icml", True),
        ("  postgresql://host/icml", True),
        ("postgresql:", False),  # the folder the bug of issue 14 made: still a folder name
        ("/home/alice/postgresql://x", False),
        ("library", False),
        ("sqlite:///library.sqlite3", False),
    ],
)
def test_a_postgresql_scheme_makes_an_address_anything_else_a_folder(text: str, team: bool) -> None:
    assert is_team_url(text) is team


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("postgresql://alice:s3cret@host/icml", "postgresql://alice:***@host/icml"),
        ("postgresql://alice:p%40ss@host:5433/icml", "postgresql://alice:***@host:5433/icml"),
        ("postgresql://alice@host/icml", "postgresql://alice@host/icml"),
        ("postgresql://host/icml", "postgresql://host/icml"),
    ],
)
def test_the_password_is_masked(url: str, shown: str) -> None:
    assert mask(url) == shown
    assert TeamAddress.parse(url).masked == shown


def test_the_parts_of_an_address() -> None:
    address = TeamAddress.parse("postgresql://al%20ice:p%40ss@db.lab.org:5433/icml-2025")
    assert address.user == "al ice"
    assert address.password == "p@ss"
    assert address.database == "icml-2025"
    # The local state's folder name: no password (changing it keeps the index), no
    # characters a file system could choke on.
    assert address.key == "db.lab.org_5433_icml-2025_al-ice"
    assert "p@ss" not in address.key


def test_a_password_typed_at_a_prompt_joins_the_address() -> None:
    address = TeamAddress.parse("postgresql://alice@[::1]:5433/icml")
    with_password = address.with_password("a:b@c/d")
    assert with_password.password == "a:b@c/d"
    assert with_password.user == "alice"
    assert with_password.database == "icml"
    assert "a:b@c/d" not in with_password.masked
    assert with_password.key == address.key


def test_an_address_without_a_database_is_refused_in_one_line() -> None:
    with pytest.raises(LibraryError, match=r"names no database") as caught:
        TeamAddress.parse("postgresql://alice:s3cret@host")
    assert "s3cret" not in str(caught.value)


def test_the_connect_dialogs_fields_make_an_address_each_part_quoted() -> None:
    address = TeamAddress.build("db.lab.org", 5433, "icml 2025", "al ice", "p@ss/w:rd")
    assert (address.host, address.port, address.database) == ("db.lab.org", 5433, "icml 2025")
    assert (address.user, address.password) == ("al ice", "p@ss/w:rd")
    assert address.masked == "postgresql://al%20ice:***@db.lab.org:5433/icml%202025"
    assert TeamAddress.build("", None, "icml", "").url == "postgresql://localhost/icml"
    with pytest.raises(LibraryError, match=r"names no database"):
        TeamAddress.build("localhost", 5432, " ", "alice", "s3cret")


def test_an_address_without_its_password_is_what_settings_keep() -> None:
    typed = TeamAddress.parse("postgresql://al%20ice:s3cret@[::1]:5433/icml")
    kept = typed.with_password(None)
    assert kept.url == "postgresql://al%20ice@[::1]:5433/icml"
    assert kept.user == "al ice" and kept.password is None and kept.key == typed.key


SECRET = "p@ss/w:rd"


@pytest.mark.parametrize(
    "typed",
    [
        f"postgresql://pat:{SECRET}@db.lab.org:5433/icml",  # raw @, / and :
        "postgresql://pat:p%40ss%2Fw%3Ard@db.lab.org:5433/icml",  # quoted
        "postgresql://pat@db.lab.org:5433/icml?password=p%40ss%2Fw%3Ard",
        f"postgresql://pat@db.lab.org:5433/icml?password={SECRET}",
        f"postgresql://pat@db.lab.org:5433/icml?sslmode=prefer&password={SECRET}",
    ],
)
def test_every_form_of_a_password_is_read_and_never_shown(typed: str) -> None:
    address = TeamAddress.parse(typed)
    assert (address.user, address.password, address.database) == ("pat", SECRET, "icml")
    assert (address.host, address.port) == ("db.lab.org", 5433)
    for shown in (address.masked, mask(typed), address.with_password(None).url, address.key):
        assert "p@ss" not in shown and "w:rd" not in shown and "p%40ss" not in shown
    assert address.masked.startswith("postgresql://pat:***@db.lab.org:5433/icml")
    assert mask(typed).startswith("postgresql://pat")
    assert address.with_password(None).url.startswith("postgresql://pat@db.lab.org:5433/icml")


def test_a_raw_slash_in_a_password_without_a_database_is_one_line_without_it() -> None:
    with pytest.raises(LibraryError) as caught:
        TeamAddress.parse("postgresql://pat:se/cret@db.lab.org:x5")
    assert "se/cret" not in str(caught.value) and "cret" not in str(caught.value)

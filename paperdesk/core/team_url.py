"""A team library's address: a `postgresql://user@host/db` URL, told apart from a folder.

`--library postgresql://...` once made a local folder named `postgresql:`; anything with
a PostgreSQL scheme is an address now. The password never leaves this object except
into the driver: messages, logs and settings show `masked`.

People type passwords into addresses as they are, unquoted: `bob:p@ss/w@host/db`.
`parse` reads the login up to the last `@` (a `/` before it belongs to the password
when a `:` precedes it), takes a `?password=` parameter as the password too, and keeps
the address in one canonical form, every part quoted, the password in the login part
only, so that `mask` and `with_password(None)` always find it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import SplitResult, parse_qsl, quote, unquote, urlencode, urlsplit

from paperdesk.core.errors import LibraryError

SCHEMES = ("postgresql", "postgres", "postgresql+psycopg")
_SCHEME = re.compile(r"^(postgresql\+psycopg|postgresql|postgres)://", re.IGNORECASE)


def is_team_url(text: str) -> bool:
    return bool(_SCHEME.match(text.strip()))


@dataclass(frozen=True)
class TeamAddress:
    """Where a team library lives. `url` holds the password (if one was given)."""

    url: str

    @classmethod
    def parse(cls, text: str) -> TeamAddress:
        text = text.strip()
        if not is_team_url(text):
            raise LibraryError(f"not a PostgreSQL address: {mask(text)}")
        url = _canonical(text)
        try:
            _parts(url).port  # noqa: B018 (urlsplit checks the port only when asked)
        except ValueError:
            raise LibraryError(f"{mask(text)} has a port that is not a number") from None
        if not _parts(url).path.strip("/"):
            raise LibraryError(f"{mask(text)} names no database (postgresql://user@host/DATABASE)")
        return cls(url)

    @property
    def masked(self) -> str:
        return mask(self.url)

    @property
    def user(self) -> str | None:
        name = _parts(self.url).username
        return unquote(name) if name else None

    @property
    def password(self) -> str | None:
        secret = _parts(self.url).password
        return unquote(secret) if secret is not None else None

    @property
    def database(self) -> str:
        return unquote(_parts(self.url).path.strip("/"))

    @property
    def key(self) -> str:
        """A folder name for this library's local state: host, port, database, user.

        Not the password: changing it must not lose the local index."""
        parts = _parts(self.url)
        fields = [
            parts.hostname or "local",
            str(parts.port or 5432),
            self.database,
            self.user or "",
        ]
        return "_".join(re.sub(r"[^A-Za-z0-9.-]+", "-", f) for f in fields if f)

    def with_password(self, password: str | None) -> TeamAddress:
        """The same address with `password` (typed at a prompt) in it; None: without one
        (what Recent Libraries keeps, so the server, PGPASSWORD or a prompt supply it)."""
        parts = _parts(self.url)
        user = quote(self.user or "", safe="")  # username is still quoted in parts
        host = parts.hostname or ""
        if ":" in host:  # an IPv6 address keeps its brackets
            host = f"[{host}]"
        port = f":{parts.port}" if parts.port else ""
        secret = f":{quote(password, safe='')}" if password is not None else ""
        login = f"{user}{secret}@" if user or secret else ""
        return TeamAddress(parts._replace(netloc=f"{login}{host}{port}").geturl())

    @classmethod
    def build(
        cls, host: str, port: int | None, database: str, user: str, password: str = ""
    ) -> TeamAddress:
        """The address the Connect dialog's fields name (each quoted as a URL needs)."""
        host = host.strip() or "localhost"
        if ":" in host:  # an IPv6 address
            host = f"[{host}]"
        login = f"{quote(user.strip(), safe='')}@" if user.strip() else ""
        where = f"{host}:{port}" if port else host
        address = cls.parse(f"postgresql://{login}{where}/{quote(database.strip(), safe='')}")
        return address.with_password(password) if password else address

    @property
    def host(self) -> str:
        return _parts(self.url).hostname or "localhost"

    @property
    def port(self) -> int | None:
        return _parts(self.url).port


def mask(url: str) -> str:
    """`url` with its password replaced by `***` (for every message and setting),
    whatever its form: quoted or not, in the login part or a `password=` parameter."""
    scheme, login, rest = _split(url)
    rest = _PASSWORD_PARAMETER.sub(r"\1***", rest)
    if login is None:
        return f"{scheme}://{rest}"
    user, colon, _password = login.partition(":")
    return f"{scheme}://{user}{':***' if colon else ''}@{rest}"


_PASSWORD_PARAMETER = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)


def _split(text: str) -> tuple[str, str | None, str]:
    """(scheme, login or None, host-port-path-query) of an address as typed.

    The login ends at the last `@` (before a `password=` parameter); what comes before
    it is a login unless it holds a `/` with no `:` before it (then the `@` is in the
    database name or a parameter).
    """
    scheme, _, rest = text.partition("://")
    # A `password=` parameter may hold a raw `@`: the login is before the parameters.
    parameters = _PASSWORD_PARAMETER.search(rest)
    at = rest.rfind("@", 0, parameters.start() if parameters else len(rest))
    if at >= 0:
        login = rest[:at]
        slash = login.find("/")
        if slash < 0 or ":" in login[:slash]:
            return scheme, login, rest[at + 1 :]
    return scheme, None, rest


def _canonical(text: str) -> str:
    """The address with its user and password quoted in the login part, and a
    `password=` parameter moved there (the login's own password wins)."""
    scheme, login, rest = _split(text)
    where, question, query = rest.partition("?")
    parameters = parse_qsl(query, keep_blank_values=True)
    given = [value for key, value in parameters if key.lower() == "password"]
    kept = [(key, value) for key, value in parameters if key.lower() != "password"]
    user, colon, password = (login or "").partition(":")
    secret = unquote(password) if colon else (given[-1] if given else None)
    name = quote(unquote(user), safe="")
    login_part = (
        f"{name}:{quote(secret, safe='')}@" if secret is not None else (f"{name}@" if name else "")
    )
    query_part = f"?{urlencode(kept)}" if kept else ""
    return f"{scheme}://{login_part}{where}{query_part}"


def _parts(url: str) -> SplitResult:
    return urlsplit(url)

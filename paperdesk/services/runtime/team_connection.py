"""Whether a team library's server answers: the Connect dialog's "Test connection"."""

from __future__ import annotations

from paperdesk.core.team_url import TeamAddress


def check_connection(address: TeamAddress) -> None:
    """Log in to the server and out again (within a few seconds, creating nothing).

    PasswordNeeded when the server wants a password it was not given, ServerUnreachable
    when it cannot be reached, LibraryError for other refusals; each names the masked
    address, never the password.
    """
    # psycopg loads when a server is tried, not with the window (store/team_server.py).
    from paperdesk.store.team_server import check_server

    check_server(address.url, address.masked)

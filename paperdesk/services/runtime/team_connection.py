"""Whether a team library's server answers: the Connect dialog's "Test connection"."""

from __future__ import annotations

from paperdesk.core.team_url import TeamAddress
from paperdesk.store.team_server import check_server


def check_connection(address: TeamAddress) -> None:
    """Log in to the server and out again (within a few seconds, creating nothing).

    PasswordNeeded when the server wants a password it was not given, ServerUnreachable
    when it cannot be reached, LibraryError for other refusals; each names the masked
    address, never the password.
    """
    check_server(address.url, address.masked)

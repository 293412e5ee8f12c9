"""Add papers by identifier: DOIs, arXiv ids, OpenReview ids and paper URLs (issue 24).

Each identifier is looked up at the service that knows it: doi.org by content
negotiation (CSL-JSON, which Crossref, DataCite and mEDRA all answer), the arXiv API's
Atom feed, the OpenReview API, or the `citation_*` meta tags of a paper's page (PMLR,
the ACL Anthology and most publishers write them). The records fetched are then matched
and merged exactly as a file's entries are (services/use_cases/import_plan.py), so a paper
already in the library gains what it lacked instead of coming twice.

Fetching (`fetch_records`) needs no library and runs on any thread; adding
(`add_records`) is the one write. Every request has a timeout. The services' addresses
come from `Sources`, which the environment may override (tests point them at a local
server; nothing in the test suite reaches the network).
"""

from __future__ import annotations

import os
import re
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urlencode, urlsplit

from paperdesk import __version__
from paperdesk.core.changes import Changes
from paperdesk.core.errors import PaperdeskError
from paperdesk.core.identifiers import normalise_arxiv, normalise_doi, normalise_openreview
from paperdesk.core.links import safe_url
from paperdesk.core.models import PaperRecord
from paperdesk.formats import remote_metadata
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import importing
from paperdesk.services.use_cases._sync import mutation
from paperdesk.services.use_cases.import_plan import plan_records
from paperdesk.services.use_cases.import_report import FileReport

Progress = Callable[[int, int, str], None]
#: The name an addition by identifier has in the history and the import list.
SOURCE_NAME = "identifiers"
_USER_AGENT = f"paperdesk/{__version__} (reference manager; add by identifier)"
_CSL_JSON = "application/vnd.citationstyles.csl+json"
_SEPARATORS = re.compile(r"[\s,;]+")
_MAX_BYTES = 5_000_000  # a metadata answer is kilobytes; a larger one is not metadata


class LookupFailed(PaperdeskError):
    """One identifier that gave no paper; the message names it and says why."""


class Offline(LookupFailed):
    """The service could not be reached at all (no network, no DNS, refused)."""


@dataclass(frozen=True)
class Sources:
    """Where each kind of identifier is looked up, and how long to wait for an answer."""

    doi: str = "https://doi.org"
    arxiv: str = "https://export.arxiv.org/api/query"
    openreview: str = "https://api2.openreview.net"
    timeout: float = 15.0

    @classmethod
    def from_environment(cls) -> Sources:
        """The defaults, or `PAPERDESK_DOI_URL`, `PAPERDESK_ARXIV_URL`,
        `PAPERDESK_OPENREVIEW_URL` and `PAPERDESK_LOOKUP_TIMEOUT` where set."""
        env = os.environ
        default = cls()
        return cls(
            doi=env.get("PAPERDESK_DOI_URL", default.doi),
            arxiv=env.get("PAPERDESK_ARXIV_URL", default.arxiv),
            openreview=env.get("PAPERDESK_OPENREVIEW_URL", default.openreview),
            timeout=float(env.get("PAPERDESK_LOOKUP_TIMEOUT", default.timeout)),
        )


@dataclass
class Fetched:
    """What a lookup of several identifiers found, and one line per identifier that failed."""

    records: list[PaperRecord] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    offline: bool = False


def split_identifiers(text: str) -> list[str]:
    """Identifiers pasted or typed: separated by blanks, new lines, commas or semicolons."""
    return [part for part in _SEPARATORS.split(text.strip()) if part]


def fetch_records(
    identifiers: Iterable[str],
    sources: Sources | None = None,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> Fetched:
    """Look each identifier up, one request or two each, on this thread."""
    sources = sources or Sources.from_environment()
    wanted = list(dict.fromkeys(identifiers))
    fetched = Fetched()
    for done, identifier in enumerate(wanted):
        if cancelled is not None and cancelled():
            break
        if progress is not None:
            progress(done, len(wanted), f"Looking up {identifier}")
        try:
            fetched.records.append(fetch_record(identifier, sources))
        except Offline as error:
            fetched.offline = True
            fetched.failures.append(f"{identifier}: {error}")
        except LookupFailed as error:
            fetched.failures.append(f"{identifier}: {error}")
    if progress is not None:
        progress(len(wanted), len(wanted), "Looked up")
    return fetched


def fetch_record(identifier: str, sources: Sources) -> PaperRecord:
    """The paper an identifier names; LookupFailed (Offline) saying why not."""
    text = identifier.strip()
    is_url = text.lower().startswith(("http://", "https://"))
    host = urlsplit(text).netloc.lower() if is_url else ""
    if doi := _doi_of(text, host):
        answer = _get(f"{sources.doi}/{quote(doi, safe='/')}", sources, "doi.org", _CSL_JSON)
        if answer is None:
            raise LookupFailed(f"no DOI {doi} at doi.org")
        try:
            return remote_metadata.from_csl_json(answer)
        except (ValueError, KeyError, TypeError, AttributeError) as error:
            raise LookupFailed(f"doi.org answered something unreadable for {doi}") from error
    if (not is_url or "arxiv.org" in host) and (arxiv := normalise_arxiv(text)):
        query = urlencode({"id_list": arxiv, "max_results": 1})
        answer = _get(f"{sources.arxiv}?{query}", sources, "arXiv", "application/atom+xml")
        record = _read(remote_metadata.from_arxiv_atom, answer, "arXiv")
        if record is None:
            raise LookupFailed(f"no arXiv paper {arxiv}")
        return record
    if (not is_url or "openreview.net" in host) and (forum := normalise_openreview(text)):
        query = urlencode({"id": forum})
        answer = _get(f"{sources.openreview}/notes?{query}", sources, "OpenReview")
        record = _read(remote_metadata.from_openreview_note, answer, "OpenReview")
        if record is None:
            raise LookupFailed(f"no OpenReview paper {forum}")
        return record
    if url := safe_url(text) if is_url else None:
        answer = _get(url, sources, host, "text/html")
        record = remote_metadata.from_landing_page(answer or "", url)
        if record is None:
            raise LookupFailed("the page names no paper (it has no citation_title meta tag)")
        return record
    raise LookupFailed("not a DOI, an arXiv or OpenReview id, or an http(s) address")


def _doi_of(text: str, host: str) -> str | None:
    if host and host not in ("doi.org", "dx.doi.org", "www.doi.org"):
        return None
    return normalise_doi(text) if text.lower().startswith(("10.", "doi:", "http")) else None


def _read(
    reader: Callable[[str], PaperRecord | None], answer: str | None, service: str
) -> PaperRecord | None:
    if answer is None:
        return None
    try:
        return reader(answer)
    except (ValueError, KeyError, TypeError, AttributeError, SyntaxError) as error:
        raise LookupFailed(f"{service} answered something unreadable") from error


def _get(url: str, sources: Sources, service: str, accept: str = "application/json") -> str | None:
    """The answer's text; None for 404 (nothing by that id); Offline when unreachable."""
    request = urllib.request.Request(url, headers={"Accept": accept, "User-Agent": _USER_AGENT})
    try:
        with urllib.request.urlopen(request, timeout=sources.timeout) as response:
            body: bytes = response.read(_MAX_BYTES)
            charset = response.headers.get_content_charset() or "utf-8"
            return body.decode(charset, errors="replace")
    except urllib.error.HTTPError as error:
        if error.code in (404, 410):
            return None
        raise LookupFailed(f"{service} answered {error.code} {error.reason}") from error
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise Offline(
            f"cannot reach {service} ({reason}); check the network connection and try again"
        ) from error


@mutation
def add_records(desk: Desk, records: Sequence[PaperRecord]) -> tuple[FileReport, Changes]:
    """Add what was fetched: matched and merged by the import's evidence rules, one undo
    step, indexed."""
    plan = plan_records(desk._library, records, Path(SOURCE_NAME))
    return importing.commit(desk, plan)

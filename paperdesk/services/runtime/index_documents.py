"""Papers as the search index sees them: plain text, markup removed by paperdesk.text.

`$O(d \\log n)$` is indexed as "O(d log n)". Used in this process (services/indexing)
and in index-building worker processes (services/index_pool).
"""

from __future__ import annotations

from collections.abc import Iterable

from paperdesk.core.models import Paper
from paperdesk.search.schema import IndexDocument
from paperdesk.text import to_plain


def document_for(paper: Paper) -> IndexDocument:
    return IndexDocument(
        id=paper.id,
        title=to_plain(paper.title),
        abstract=to_plain(paper.abstract),
        authors=paper.authors,
        note=paper.note,
        tags=paper.tags,
        venue=paper.venue,
        year=paper.year,
        status=paper.status.value,
        rating=paper.rating,
        shortlists=paper.shortlists,
        annotations="\n".join(f"{a.quote} {a.comment}".strip() for a in paper.annotations),
    )


def documents_for(papers: Iterable[Paper]) -> list[IndexDocument]:
    return [document_for(p) for p in papers]

"""Rules for values users type: names, colours, ratings, titles.

The store applies them before it writes; a service or a view may apply them earlier to
answer at once. Each returns the cleaned value or raises InvalidValueError with a
message fit to show as it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import MAX_RATING
from paperdesk.core.text import collapse_whitespace

#: Kinds of named things; a tag name may not hold a comma (tag lists are comma-separated).
TAG = "tag"
SHORTLIST = "shortlist"
SAVED_SEARCH = "saved search"
_HEX_DIGITS = frozenset("0123456789abcdef")


def clean_names(names: Iterable[str], kind: str) -> list[str]:
    """Names with blanks trimmed around each `/` level, deduplicated, in order.

    `a/b` names make a hierarchy, so an empty level (`a//b`, `/a`, `a/`) is refused.
    """
    cleaned = []
    for name in names:
        text = "/".join(part.strip() for part in str(name).strip().split("/"))
        if not text or "//" in text or text.startswith("/") or text.endswith("/"):
            raise InvalidValueError(f"{name!r} is not a valid {kind} name")
        if "," in text and kind == TAG:
            raise InvalidValueError(f"a tag name cannot contain a comma: {name!r}")
        cleaned.append(text)
    if not cleaned:
        raise InvalidValueError(f"no {kind} name given")
    return list(dict.fromkeys(cleaned))


def clean_name(name: str, kind: str) -> str:
    (cleaned,) = clean_names([name], kind)
    return cleaned


def clean_colour(colour: str | None) -> str | None:
    """`#rrggbb` in lower case; None (no colour) for None or ""."""
    if colour is None or colour == "":
        return None
    text = colour.strip().lower()
    if len(text) == 7 and text.startswith("#") and set(text[1:]) <= _HEX_DIGITS:
        return text
    raise InvalidValueError(f"colour must look like #rrggbb, not {colour!r}")


def check_rating(rating: int) -> int:
    if not 0 <= rating <= MAX_RATING:
        raise InvalidValueError(f"rating must be between 0 and {MAX_RATING}, not {rating}")
    return rating


def rating_label(rating: int) -> str:
    """How a rating action is named in the Edit menu and the history."""
    return f"Rate {rating} star{'s' if rating != 1 else ''}" if rating else "Clear rating"


def clean_title(title: str) -> str:
    """A title on one line with single spaces; an empty title is refused."""
    cleaned = collapse_whitespace(title)
    if not cleaned:
        raise InvalidValueError("a title cannot be empty")
    return cleaned

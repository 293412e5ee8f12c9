"""Text as the value of a BibTeX field: the text engine's LaTeX (text/latex_escape.py),
made so that parsers find where the value ends; URLs and ids as written.
"""

from __future__ import annotations

import re
from urllib.parse import quote

from paperdesk.text.latex_escape import Dialect, Token, clean, latex_of, tokens_of

# An even run of backslashes before a brace (or the value's closing brace): `\\{` is a
# line break and a group, but bibtexparser takes the brace for an escaped one, so a
# space goes between them.
_LINE_BREAK_BEFORE_BRACE = re.compile(r"(?<!\\)((?:\\\\)+)(?=[{}]|\Z)")
# bibtexparser ends an entry at any line starting with `@word{`, even inside a value.
_AT_LINE_START = re.compile(r"^([^\S\n]*)@", re.MULTILINE)


def escape(text: str, dialect: Dialect, ascii_only: bool = False) -> str:
    """`text` as a balanced, safe field value, ready to write between braces."""
    return render(tokens_of(text, dialect), ascii_only)


def render(tokens: list[Token], ascii_only: bool) -> str:
    """The tokens as a field value, ready to write between braces."""
    return finish(latex_of(tokens, ascii_only))


def finish(value: str) -> str:
    """What every value needs whatever made it: parsers must find its end."""
    if "\\" in value:
        value = _LINE_BREAK_BEFORE_BRACE.sub(r"\1 ", value)
    if "@" in value:
        value = _AT_LINE_START.sub(r"\1{@}", value)
    return value


def verbatim(text: str) -> str:
    """A URL or id as written, minus what no BibTeX value may hold (braces, blanks) and
    the `^^` that TeX would read as another character (a backslash: `^^5c`)."""
    return quote(clean(text), safe="!#$%&'()*+,/:;=?@[]`|~<>\"")

"""Plain Unicode text as a reader should see it, and text escaped to read as itself."""

from __future__ import annotations

import logging
import re
import unicodedata

from paperdesk.core.text import collapse_whitespace
from paperdesk.text.lexer import ACCENT
from paperdesk.text.macros import PRINTED_CHARACTERS
from paperdesk.text.render import styled_runs

logger = logging.getLogger(__name__)


def to_plain(text: str) -> str:
    """Readable Unicode plain text: for the search index, table cells, CSV, citation keys."""
    try:
        return "".join(run_text for run_text, _ in styled_runs(text, html_mode=False))
    except Exception:
        # A bug in the renderer must not take the indexer or a view down: the reader
        # gets the source text. It is logged as an error, so a test that meets it fails.
        logger.exception("could not render %.60r as plain text", text)
        return collapse_whitespace(text)


def protect_markup(text: str) -> str:
    """Text that `to_plain` shows as `text` (whitespace collapsed): for writers.

    Titles and names in JSON, RIS and CSV files are read as markup (the sources write
    `$K^2$-GNN` there), so a display text such as `A *B* c` or `strings {and` must be
    written escaped to come back as it was. Text that already reads as itself, nearly
    every title, is returned unchanged, so other tools see no backslashes.
    """
    shown = collapse_whitespace(text)
    if to_plain(shown) == shown:
        return shown
    return _MARKUP_CHARACTER.sub(lambda m: _PROTECTED[m.group()], shown)


_PROTECTED = {
    **{char: PRINTED_CHARACTERS[char] for char in "\\~`"},
    "-": "-{}",  # `--` is a dash, `-{}-` two hyphens
    "'": "'{}",  # `''` is a closing quote
    **{char: "\\" + char for char in "{}$&_*<"},
}
_MARKUP_CHARACTER = re.compile(r"[\\{}$&_*<~`]|-(?=-)|'(?=')")


# An accent with its letter, a command with its arguments (braces nested three deep:
# `\llap{\raise 0.5ex\hbox{\'{}}}`), a control symbol (`\&`).
BRACE_GROUP = r"\{(?:[^{}]|\{(?:[^{}]|\{[^{}]*\})*\})*\}"
_COMMAND = re.compile(
    rf"{ACCENT}|\\[a-zA-Z]+\*?(?:\[[^\[\]{{}}]*\])*(?:\s*{BRACE_GROUP})*|\\[^a-zA-Z]"
)


def decode_commands(latex: str) -> str:
    """LaTeX with its commands replaced by the text they stand for; braces, blanks,
    commas and `and` kept where they are.

    For BibTeX name lists, which must be split into people and name parts before they
    are read, with a splitter that does not know commands: `Jo\\~{a}o` would part at
    the accent, `\\rlap{Lutz Birkhahn}` lose its `\\r`. A command standing for several
    words stays one unit (`{Lutz Birkhahn}`), as its braces made it.
    """
    if "\\" not in latex:
        return latex

    lone_accents = False

    def readable(command: re.Match[str]) -> str:
        nonlocal lone_accents
        text = protect_markup(to_plain(command.group()))
        if not text:  # `\relax`, `\ `: nothing to read, but still a word break
            return " "
        if unicodedata.combining(text[0]):  # `\llap{\raise 0.5ex\hbox{\'{}}}`
            lone_accents = True
            return text
        return "{" + text + "}" if " " in text or "," in text else text

    decoded = _COMMAND.sub(readable, latex)
    # An accent set apart from its letter joins it: `Th\^e\llap{...}` is "Thế".
    return _APART_ACCENT.sub(_joined, decoded) if lone_accents else decoded


_APART_ACCENT = re.compile(r"([^\W\d_])(\}*)([\u0300-\u036f]+)")  # `{\^e}` then `\llap`


def _joined(apart: re.Match[str]) -> str:
    letter, braces, accents = apart.groups()
    return unicodedata.normalize("NFC", letter + accents) + braces

"""The one text engine: raw titles and abstracts (inline LaTeX, Markdown, a little HTML)
as a reader should see them, as plain text or Qt rich text, and titles derived from them.

lexer -> events -> render (runs) -> plain | html; latex and latex_tree read the LaTeX
pieces the lexer cuts out (through pylatexenc), scripts turns ^ and _ into ² and ₂;
titles derives a title from the plain text of an abstract. Written the other way:
latex_escape makes text LaTeX that is balanced and safe (commands on tex_allow_list),
latex_ascii writes non-ASCII characters as LaTeX (formats/bibtex_values.py adds what
a BibTeX file needs). No index, store or Qt here: which words a search marks comes
from paperdesk.search.highlight.
"""

from paperdesk.text.html import Mark, shown_text, to_html
from paperdesk.text.plain import decode_commands, protect_markup, to_plain
from paperdesk.text.titles import MAX_TITLE_CHARS, UNTITLED, derive_title

__all__ = [
    "MAX_TITLE_CHARS",
    "UNTITLED",
    "Mark",
    "decode_commands",
    "derive_title",
    "protect_markup",
    "shown_text",
    "to_html",
    "to_plain",
]

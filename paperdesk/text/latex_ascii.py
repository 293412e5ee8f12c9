"""Non-ASCII characters as LaTeX, for classic BibTeX (the `bibtex` flavour), and back.

Letters get accent commands (`{\\'e}`), math symbols math (`{$\\ell_p$}`,
`{$\\alpha$}`, `√` as `{$\\surd$}`), and characters LaTeX has no command for
pylatexenc's visible `⟨U+4E2D⟩` placeholder, which `decode_placeholders` reads back as
the character.
"""

from __future__ import annotations

import re
from functools import lru_cache

from pylatexenc.latexencode import UnicodeToLatexEncoder

from paperdesk.text.macros import CONTROL_WORD
from paperdesk.text.plain import to_plain

_NON_ASCII = re.compile(r"[^\x00-\x7f]+")
_MATH_WRAPPER = ("{\\ensuremath{", "}}")
_encoder = UnicodeToLatexEncoder(
    non_ascii_only=True,
    replacement_latex_protection="braces-all",
    unknown_char_policy="unihex",
    unknown_char_warning=False,
)
# pylatexenc writes √ as `\sqrt{}`, a root of nothing; `\surd` is the sign itself.
_OWN_MATH = {"√": "\\surd"}


@lru_cache(maxsize=4096)
def _latex_for(char: str) -> tuple[str, bool]:
    """(LaTeX, whether it is math) for one non-ASCII character.

    Where pylatexenc's command only looks like the character (`Ħ` as `\\=H`, an H with
    a macron), or reads back as something else, the placeholder is written instead: a
    paper must come back from its export as it was.
    """
    if char in _OWN_MATH:
        return _OWN_MATH[char], True
    latex = _encoder.unicode_to_latex(char)
    opening, closing = _MATH_WRAPPER
    if latex.startswith(opening) and latex.endswith(closing) and latex.count("\\ensuremath") == 1:
        math = latex[len(opening) : -len(closing)]
        known = not _NOT_IN_LATEX.intersection(CONTROL_WORD.findall(math))
        if known and to_plain("$" + math + "$") == char:
            return math, True
    elif latex.startswith("{") and to_plain(latex) == char:
        return latex, False
    return "{" + _PLACEHOLDER_FORMAT.format(ord(char)) + "}", False


# Math commands pylatexenc writes that neither LaTeX nor amssymb defines (from a
# pdflatex run with `\ifdefined` over every command it writes; the 164 amssymb ones,
# `\mathbb` among them, are named in docs/formats.md): such a character gets the
# placeholder, or its export would not compile.
_NOT_IN_LATEX = frozenset(
    """DownArrowUpArrow VDash allequal approxnotequal arrowwaveleft arrowwaveright
    clockoint clwintegral dblarrowupdown estimates forcesextra hermitconjmatrix homothetic
    iiint iint image lazysinv notgreaterless notlessgreater original precedesnotsimilar
    recorder rightangle rightanglearc sqrint starequal surfintegral tildetrpl truestate udots
    varperspcorrespond verymuchgreater verymuchless volintegral""".split()
)
# pylatexenc's placeholder for a character LaTeX has no command for, as to_ascii writes it.
_PLACEHOLDER_FORMAT = "\\ensuremath{{\\langle}}\\texttt{{U+{:04X}}}\\ensuremath{{\\rangle}}"
_PLACEHOLDER = re.compile(
    r"(\{)?\\ensuremath\{\\langle\}\\texttt\{U\+([0-9A-F]{4,6})\}\\ensuremath\{\\rangle\}(?(1)\})"
)


def decode_placeholders(value: str) -> str:
    """The characters `⟨U+4E2D⟩` placeholders stand for (to_ascii's, or pylatexenc's)."""
    if "U+" not in value:
        return value
    return _PLACEHOLDER.sub(lambda m: _character(int(m.group(2), 16)), value)


def _character(code: int) -> str:
    return chr(code) if code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"


def to_ascii(text: str, math: bool = False) -> str:
    """Every non-ASCII run of `text` as LaTeX; `math` when the text is a math segment."""
    return _NON_ASCII.sub(lambda run: _run_to_ascii(run.group(), math), text)


def _run_to_ascii(run: str, in_math: bool) -> str:
    pieces: list[str] = []
    formula: list[str] = []  # math pieces waiting to be set in one `{$...$}`

    def close_formula() -> None:
        if formula:
            pieces.append("{$" + "".join(formula) + "$}")
            formula.clear()

    for char in run:
        latex, is_math = _latex_for(char)
        if in_math:
            pieces.append("{" + latex + "}" if is_math else "\\mbox{" + latex + "}")
        elif is_math:
            if formula and formula[-1][-1:].isalpha() and latex[:1].isalpha():
                formula.append(" ")
            formula.append(latex)
        else:
            close_formula()
            pieces.append(latex)
    close_formula()
    return "".join(pieces)

"""The control words a BibTeX export writes as commands: formatting, accents, symbols.

Every other control word (`\\input`, `\\pdffiledump`, `\\openin`, `\\write18`, `\\csname`,
a macro a paper defined for itself...) is written as text (`\\textbackslash{}input`) by
text.latex_escape: an allow-list rather than a list of the dangerous ones, because
TeX has hundreds of primitives that read files, write them or run programs (pdfTeX
alone: `\\pdffiledump`, `\\pdfmdfivesum`, `\\pdffilesize`, `\\pdffilemoddate`,
`\\pdfximage`, `\\pdfobj file`...), and engines add more.

The names come from three sources, none of which can touch a file: the symbols and
accents pylatexenc writes for Unicode characters (the export's own `ascii_only`
conversions) or reads as a fixed text; the styles, quotes, fractions and symbols
paperdesk's text engine reads (paperdesk.text.macros); the structure of math (`\\frac`,
`\\left`, `\\log`...).
"""

from __future__ import annotations

from pylatexenc import latex2text
from pylatexenc.latexencode import _uni2latexmap

from paperdesk.text import macros

# What math is made of besides symbols: sizes, functions, accents, dots and spacing.
_MATH_STRUCTURE = """
    frac dfrac tfrac binom sqrt left right middle big Big bigg Bigg bigl bigr Bigl Bigr
    biggl biggr Biggl Biggr bigm Bigm limits nolimits displaystyle textstyle scriptstyle
    scriptscriptstyle over choose atop underbrace overbrace overrightarrow overleftarrow
    underline mathring acute grave hat tilde bar vec dot ddot check breve widehat
    widetilde overline log ln lg exp sin cos tan sec csc cot arcsin arccos arctan sinh
    cosh tanh coth max min sup inf lim liminf limsup arg det dim ker deg gcd hom Pr mod
    bmod pmod ldots cdots dots vdots ddots dotsc dotsb prime infty quad qquad lvert rvert
    lVert rVert vert Vert lbrace rbrace backslash mathbb mathds mathbbm mathcal
""".split()
# Text that is no command of a package's own: logos, line breaks, dashes, spacing.
_TEXT = """
    TeX LaTeX LaTeXe BibTeX url href footnote textbackslash newline linebreak
    nobreakspace space thinspace enspace negthinspace S P dag ddag copyright pounds aa AA
    i j l L o O ss ae AE oe OE b d t c k r u v H textemdash textendash textellipsis
""".split()


def _pylatexenc_symbols() -> set[str]:
    """The control words pylatexenc writes for some Unicode character, and those it
    reads as a fixed text (`\\le` as ≤): symbols. (Its macros read by a function of
    their own are left out: `\\input` and `\\include` are among them.)"""
    names: set[str] = set()
    for latex in _uni2latexmap.uni2latex.values():
        names.update(macros.CONTROL_WORD.findall(latex))
    context = latex2text.get_default_latex_context_db()
    for spec in context.iter_macro_specs(["latex-base", "advanced-symbols"]):
        if isinstance(spec.simplify_repl, str) and spec.macroname.isalpha():
            names.add(spec.macroname)
    return names


SAFE_COMMANDS: frozenset[str] = frozenset(
    {
        *_pylatexenc_symbols(),
        *macros.STYLE_MACROS,
        *macros.DECLARATIONS,
        *macros.QUOTE_MACROS,
        *macros.FRACTIONS,
        *macros.COMBINING_ACCENTS,
        *macros.OWN_SYMBOLS,
        *macros.INVISIBLE_MACROS,
        *(name for name in macros.OWN_ARGUMENTS if not macros.CITATIONS.fullmatch(name)),
        *_MATH_STRUCTURE,
        *_TEXT,
    }
)


def is_safe(name: str) -> bool:
    """Whether the control word `\\name` may be written as a command."""
    return name in SAFE_COMMANDS

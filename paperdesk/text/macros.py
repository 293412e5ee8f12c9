"""What paperdesk knows about LaTeX macros beyond pylatexenc's tables.

Shared by the lexer (which opens a style macro's argument as a scope, so Markdown and
HTML inside still work) and the LaTeX walker (which meets the same macros inside math
and fragments).
"""

from __future__ import annotations

import re

from paperdesk.text.events import BOLD, CODE, ITALIC, SUB, SUP

# Text-mode macros whose braced argument the lexer opens as a scope, and the style they
# give it; None keeps the text plain.
STYLE_MACROS: dict[str, str | None] = {
    "textit": ITALIC,
    "emph": ITALIC,
    "textsl": ITALIC,
    "mathit": ITALIC,
    "textbf": BOLD,
    "mathbf": BOLD,
    "boldsymbol": BOLD,
    "bm": BOLD,
    "pmb": BOLD,
    "texttt": CODE,
    "mathtt": CODE,
    "textsuperscript": SUP,
    "textsubscript": SUB,
    "text": None,
    "textrm": None,
    "textsf": None,
    "textsc": None,
    "textnormal": None,
    "textup": None,
    "textmd": None,
    "mbox": None,
    "hbox": None,
    "underline": None,
    "uline": None,
    # Math alphabets show as plain letters: the Unicode math letters (𝒪, 𝐱) lie outside
    # the BMP, are often missing from UI fonts, and would stop a search for "O(n)".
    "mathrm": None,
    "mathsf": None,
    "mathcal": None,
    "mathscr": None,
    "mathfrak": None,
    "mathnormal": None,
    "operatorname": None,
    "ensuremath": None,
    "smash": None,
}
# Old-style declarations (`{\em x}`, `{\bf x}`) style the rest of the enclosing group.
DECLARATIONS: dict[str, str | None] = {
    "em": ITALIC,
    "it": ITALIC,
    "itshape": ITALIC,
    "sl": ITALIC,
    "slshape": ITALIC,
    "bf": BOLD,
    "bfseries": BOLD,
    "tt": CODE,
    "ttfamily": CODE,
    "rm": None,
    "sf": None,
    "sc": None,
    "scshape": None,
    "normalfont": None,
    "upshape": None,
    "cal": None,
    "mit": None,
}
MATH_ENVIRONMENTS = "equation|align|gather|multline|eqnarray|displaymath|math"
# biblatex and csquotes quote their argument: `\mkbibquote{De Motu}` shows “De Motu”.
QUOTE_MACROS = ("mkbibquote", "enquote", "textquote")
OPEN_QUOTE, CLOSE_QUOTE = "\u201c", "\u201d"
# Macros that only steer TeX (`{\relax Yu}` keeps BibTeX from abbreviating "Yu").
INVISIBLE_MACROS = ("relax", "protect", "nobreak", "noindent", "ignorespaces", "xspace")

FRACTIONS = frozenset({"frac", "dfrac", "tfrac", "cfrac", "nicefrac", "sfrac", "textfrac", "binom"})
CITATIONS = re.compile(r"(?:no)?cite[a-z]*|(?:paren|text|auto|foot)cite")
COMBINING_ACCENTS = {
    "tilde": "\u0303",
    "Tilde": "\u0303",
    "widetilde": "\u0303",
    "hat": "\u0302",
    "widehat": "\u0302",
    "check": "\u030c",
    "breve": "\u0306",
    "bar": "\u0304",
    "overline": "\u0305",
    "vec": "\u20d7",
    "dot": "\u0307",
    "ddot": "\u0308",
}
# Macros whose arguments we read ourselves, with how many.
OWN_ARGUMENTS = {
    **dict.fromkeys(STYLE_MACROS, 1),
    **dict.fromkeys(COMBINING_ACCENTS, 1),
    **dict.fromkeys(FRACTIONS, 2),
    **dict.fromkeys(QUOTE_MACROS, 1),
    "sqrt": 1,
    "nth": 1,
    "mkbibordinal": 1,
    "mathbb": 1,
    "mathds": 1,
    "mathbbm": 1,
    "url": 1,
    "footnote": 1,
    "href": 2,
    "textcolor": 2,
}
# Macros pylatexenc has no (or another) text for: `\|`, ones papers often define for
# themselves, the logos and spacing of TeX-world bibliographies (TUGboat's `\Dash` is
# an em dash), and the escapes BibTeX writers put in text (`\textbraceleft{}`).
#
# The logos join the word they are written in, as TeX typesets them: `Lua\TeX` is
# "LuaTeX", `Ars\TeX nica` "ArsTeXnica" (a control word ends at the blank after it).
LOGOS = {
    "TeX": "TeX",
    "LaTeX": "LaTeX",
    "LaTeXe": "LaTeX2e",
    "BibTeX": "BibTeX",
    "AmSTeX": "AMS-TeX",
    "AmSLaTeX": "AMS-LaTeX",
    "eTeX": "e-TeX",
    "pdfTeX": "pdfTeX",
    "pdfLaTeX": "pdfLaTeX",
    "XeTeX": "XeTeX",
    "XeLaTeX": "XeLaTeX",
    "LuaTeX": "LuaTeX",
    "LuaLaTeX": "LuaLaTeX",
    "ConTeXt": "ConTeXt",
    "SliTeX": "SliTeX",
    "PiCTeX": "PiCTeX",
    "MF": "METAFONT",
    "MP": "METAPOST",
    "METAFONT": "METAFONT",
    "METAPOST": "METAPOST",
}
OWN_SYMBOLS = {
    **LOGOS,
    "Dash": "—",
    "hyphen": "-",
    "bs": "\\",  # TUGboat's (and many a manual's) backslash: `{\bs}strut` is "\strut"
    # authors' shorthands for the abbreviations they would otherwise type
    "eg": "e.g.",
    "ie": "i.e.",
    "etal": "et al.",
    "etc": "etc.",
    "cf": "cf.",
    "wrt": "w.r.t.",
    "vs": "vs.",
    "thinspace": " ",
    "enspace": " ",
    "negthinspace": "",
    "eps": "ε",
    "R": "ℝ",
    "N": "ℕ",
    "Z": "ℤ",
    "|": "‖",
    "textbraceleft": "{",
    "textbraceright": "}",
    "textasciicircum": "^",
    "textunderscore": "_",
    "textless": "<",
    "textgreater": ">",
    "textbar": "|",
    "textquotedbl": '"',
}
# The commands that print a character LaTeX keeps for itself: what the text engine
# writes for it (text/latex_escape.py, plain.protect_markup) and reads back as it.
PRINTED_CHARACTERS = {
    "\\": "\\textbackslash{}",
    "~": "\\textasciitilde{}",
    "^": "\\textasciicircum{}",
    "`": "\\textasciigrave{}",
    "{": "\\textbraceleft{}",
    "}": "\\textbraceright{}",
}
# A control word, `\\emph`: its name is group 1.
CONTROL_WORD = re.compile(r"\\([A-Za-z]+)")
DELIMITER_SIZES = re.compile(r"m?left|m?right|middle|[bB]igg?[lrm]?|limits|nolimits")
CALLIGRAPHIC_SHORTHAND = re.compile(r"c[A-Z]")  # \cO, \cA: \mathcal{O}, \mathcal{A}

"""The macros a @preamble defines, as the entries using them print (issue 24)."""

from __future__ import annotations

import pytest

from paperdesk.text import to_plain
from paperdesk.text.preamble_macros import MAX_GROWTH, expand, preamble_macros

PREAMBLE = r"""\providecommand{\TUB}{TUGboat}\newcommand\acro[1]{\textsc{#1}}
\renewcommand*{\tubissue}[2][x]{#1(#2)}\def\pair#1#2{#2, #1}\def\MF{{\sc Metafont}}
\newcommand{\broken}{no end"""

CASES = [
    (r"{\TUB} \tubissue{11}{4}", "TUGboat 11(4)"),
    (r"\TUB{} and \acro{TUG} and \acro T", "TUGboat and TUG and T"),
    (r"\pair{Knuth}{Donald}", "Donald, Knuth"),
    (r"The \MF book", "The Metafont book"),
    (r"\broken and \unknown{x}", "and x"),
]


@pytest.mark.parametrize(("source", "shown"), CASES)
def test_a_preambles_macros_show_what_the_document_prints(source: str, shown: str) -> None:
    assert to_plain(expand(source, preamble_macros(PREAMBLE))) == shown


def test_a_macro_that_calls_itself_stops_growing() -> None:
    macros = preamble_macros(r"\def\a{\a\a}\def\b#1{#1\b{#1}}")
    assert len(expand(r"\a \b{x}", macros)) <= len(r"\a \b{x}") + 2 * MAX_GROWTH


def test_text_without_those_macros_is_left_alone() -> None:
    assert expand(r"Lua\TeX{} at $\alpha$", preamble_macros(PREAMBLE)) == r"Lua\TeX{} at $\alpha$"

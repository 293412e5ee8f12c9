"""Titles for papers that arrive without one.

Seed lists carry abstracts only, yet every table row, search hit and export needs a
title a person recognises at a glance. A paper that introduces a named method is best
known by that name ("SGSI: Soft-Gated Structural Inference"); other papers by what they
set out to do ("Scaling trends governing sampling-based search"); failing both, by the
opening clause of the abstract. These are heuristics tuned on the ICML seed lists:
tests/text/test_titles.py holds the cases that define "good enough".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from paperdesk.core.text import collapse_whitespace
from paperdesk.text.plain import to_plain

MAX_TITLE_CHARS = 90
UNTITLED = "Untitled abstract"

# --- the abstract as a reader sees it ------------------------------------------------

# A title never cites: LaTeX citations, numbered ones (never `[0, 1]`, an interval)
# and author-year ones are dropped from the source before it is read.
_CITATION = re.compile(
    r"\\(?:cite[a-z]*|ref|eqref|label|footnote)\*?(?:\[[^\]]*\])*\{[^{}]*\}"
    r"|\[[1-9]\d*(?:\s*[,–-]\s*\d+)*\]"
    r"|\((?:[A-Z][\w'-]+(?:\s+(?:and|&)\s+[A-Z][\w'-]+|\s+et\s+al\.?)?,?\s+\d{4}[a-z]?;?\s*)+\)"
)
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+(?=[.,;:!?])")
# What still looks like markup once rendered (a `$` of money, a lone `\`, `2**10`) would
# only puzzle a reader of a title.
_MARKUP_CHARACTERS = re.compile(r"[$\\]")
_BOLD_MARKERS = re.compile(r"(?:\*\*)+")


def _plain_text(abstract: str) -> str:
    """The abstract as paperdesk.text shows it, without citations or markup characters."""
    text = to_plain(_CITATION.sub("", abstract))
    text = _SPACE_BEFORE_PUNCTUATION.sub("", text)
    text = _BOLD_MARKERS.sub("", _MARKUP_CHARACTERS.sub("", text))
    return collapse_whitespace(text)


# --- sentences ----------------------------------------------------------------------

# Punctuation first, so the scan skips quickly over ordinary characters.
_SENTENCE_BREAK = re.compile(r"[.!?](\s+)(?=[\"'“(\[]?[A-Z0-9])|[。！？]")
_ABBREVIATIONS = frozenset(
    "e.g. i.e. etc. vs. al. fig. figs. eq. eqs. sec. cf. approx. resp. no. ref. refs.".split()
)


def _sentences(text: str) -> list[str]:
    sentences: list[str] = []
    start = 0
    for gap in _SENTENCE_BREAK.finditer(text):
        end = gap.start(1) if gap.group(1) else gap.end()
        last_word = text[start:end].rsplit(" ", 1)[-1].lower()
        if last_word in _ABBREVIATIONS:
            continue
        sentences.append(text[start:end].strip())
        start = gap.end()
    sentences.append(text[start:].strip())
    return [sentence for sentence in sentences if sentence]


# --- acronym definitions: "Soft-Gated Structural Inference (SGSI)" ------------------

_PARENTHESISED_SHORT_FORM = re.compile(r"\(([A-Za-z0-9][\w-]{0,11})\)")


@dataclass(frozen=True)
class _Definition:
    short: str
    long: str
    start: int  # where the long form starts in its sentence
    end: int  # just after the closing parenthesis


_SKIPPABLE_WORDS = frozenset("a an and for in of on the to with".split())


def _initials_start(short: str, candidate: str) -> int | None:
    """Where the long form starts when the short form spells its words' initials.

    Right to left, each letter must begin a word or a hyphenated part; small words and
    the inner parts of a hyphenated word may be skipped ("Myopic Optimization with
    Non-myopic Approval"). Stricter than Schwartz & Hearst, so preferred when it works:
    "expectation-propagation expectation-maximization (EP-EM)" keeps both halves.
    """
    parts = [
        (match.start(), match.group(), match.start() > 0 and candidate[match.start() - 1] == "-")
        for match in re.finditer(r"[^\s-]+", candidate)
    ]
    letters = [ch.lower() for ch in short if ch.isalnum()]
    while letters and parts:
        start, word, after_hyphen = parts.pop()
        if word[0].lower() == letters[-1]:
            letters.pop()
            if not letters:
                return start
        elif not (after_hyphen or word.lower() in _SKIPPABLE_WORDS):
            return None
    return None


def _long_form_start(short: str, candidate: str) -> int | None:
    """Where the long form of `short` starts in `candidate`, by Schwartz & Hearst (2003).

    Match the short form's characters right to left; its first character must begin a
    word. An upper-case letter inside a word also counts as a beginning, because
    authors spell acronyms out that way ("HIerarchical GrapH Tokenization (HIGHT)").
    """
    s = len(short) - 1
    c = len(candidate) - 1
    while s >= 0:
        wanted = short[s].lower()
        if not wanted.isalnum():
            s -= 1
            continue
        while c >= 0:
            here = candidate[c]
            if here.lower() == wanted:
                if s > 0:
                    break
                begins_word = c == 0 or not candidate[c - 1].isalnum()
                if begins_word or (here.isupper() and short[0].isupper()):
                    break
            c -= 1
        if c < 0:
            return None
        s -= 1
        c -= 1
    start = c + 1
    while start > 0 and candidate[start - 1].isalnum():
        start -= 1
    return start


def _definitions(sentence: str) -> list[_Definition]:
    found: list[_Definition] = []
    for paren in _PARENTHESISED_SHORT_FORM.finditer(sentence):
        short = paren.group(1)
        if not any(ch.isupper() for ch in short) or not any(ch.isalpha() for ch in short):
            continue
        before = sentence[: paren.start()].rstrip()
        window = min(len(short) + 5, 2 * len(short))
        candidate = " ".join(before.split(" ")[-window:])
        start = _initials_start(short, candidate)
        if start is None:
            start = _long_form_start(short, candidate)
        if start is None:  # "expected utility of the best option (qEUBO)": try "EUBO"
            capitals = "".join(ch for ch in short if ch.isupper() or ch.isdigit())
            start = _long_form_start(capitals, candidate) if len(capitals) >= 2 else None
        if start is None or len(candidate) - start <= len(short):
            continue
        offset = len(before) - len(candidate)
        found.append(_Definition(short, candidate[start:], offset + start, paren.end()))
    return found


# Emphasis capitals used to spell an acronym, not part of the words' spelling.
_SPELLING_CAPITALS = re.compile(
    r"^[a-z]+[A-Z][a-zA-Z]*$|^[A-Za-z]*[a-z]+[A-Z]$|^[A-Z]{2,}[a-z]{3,}$"
)


def _readable_long_form(long: str) -> str:
    """'conTextualized equivariAnt Position Encoding' -> 'Contextualized Equivariant ...'."""

    def fix(part: str) -> str:
        return part.lower().capitalize() if _SPELLING_CAPITALS.match(part) else part

    return " ".join("-".join(fix(part) for part in word.split("-")) for word in long.split(" "))


# --- a named contribution: "we propose X", "called X", "The method, X" ---------------

_GENERIC_NOUNS = (
    r"(?:framework|method|approach|system|model|architecture|algorithm|technique|paradigm"
    r"|toolkit|tool|pipeline|strategy|module|estimator|network|layer|scheme|benchmark"
    r"|dataset|library|agent|policy|procedure|solver|optimizer|loss|metric)s?"
)
# Cues before a name. A naming cue ("called X", "Our method, X") is followed by the
# name itself; a proposing cue may have a few words between ("we propose a novel
# neural operator, HEAP"), so it counts only when no naming cue does. Only a calling
# cue is sure enough to name something that qualifies a noun ("called TTT layers").
_NAME_CUE = re.compile(
    r"\b(?:"
    r"(?P<naming>(?P<calling>(?:called|named|dubbed|termed|coined)\s+"
    r"|we\s+(?:call|name|term|dub)\s+(?:(?:it|this|them|(?:this|our)\s+[\w-]+)\s+)?"
    r"|refer\s+to\s+(?:[\w-]+\s+){0,3}?as\s+)"
    rf"|(?:[Tt]he|[Oo]ur|[Tt]his)\s+(?:proposed\s+|resulting\s+)?{_GENERIC_NOUNS},\s+"
    r"|(?:[Tt]he|[Oo]ur)\s+proposed\s+)"
    r"|(?P<proposing>(?:propose|introduce|present|develop|design)s?\s+"
    r"|by\s+(?:proposing|introducing|presenting|developing|designing)\s+)"
    r")"
)
_MOST_WORDS_AFTER_PROPOSING = 6
# What may stand between a cue and the name: "a novel neural operator, ", "a paradigm called ".
_FILLER = re.compile(r"^(?:[\w-]+[,:]?\s+)*$")
_FILLER_STOPS = frozenset(
    "of for to with on in from by that which where and or as via through into using".split()
)
_TOKEN = re.compile(r"(?<![\w-])[A-Za-z0-9][\w.]*(?:-[\w.]+)*(?<!\.)")
_CAPITALISED_APPOSITION = re.compile(
    r"(?<![\w-])[A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,4}(?=,\s+(?:a|an|the)\s)"
)
# What ends a name: punctuation or a function word. A noun instead means the name only
# qualifies it ("a novel MoE architecture", "(FCI)-based augmentation"), and "SE(3)" is
# notation, not a name followed by its definition.
_AFTER_NAME = re.compile(
    r"\s*(?:[,.;:]|$)|\s+\(|\s+(?:which|that|to|for|with|on|in|as|and|via|by|is|are)\b"
)
# A defined acronym may also head-label its kind: "a Rank-Aware FM (RaFM) model".
_AFTER_DEFINITION = re.compile(rf"{_AFTER_NAME.pattern}|\s+(?:[a-z-]+\s+)?{_GENERIC_NOUNS}\b")


_COINED = re.compile(r"[A-Z].*[A-Z]|[a-z].*[A-Z]")
_PLURAL_ACRONYM = re.compile(r"[A-Z]{2,}s")  # "LLMs", "PCs": a kind of thing, not a name


def _is_coined(token: str) -> bool:
    """'LCRON', 'cDPO', 'MathConstruct', 'WildChat-50M' - not 'Cavia', 'Graph' or 'LLMs'."""
    return _COINED.search(token) is not None and _PLURAL_ACRONYM.fullmatch(token) is None


@dataclass(frozen=True)
class _Name:
    start: int
    end: int
    title: str
    # Followed by a noun it qualifies ("a novel MoE architecture"); such a name counts
    # only right after a calling cue ("named ShakeDrop regularization").
    qualifies_noun: bool


def _name_candidates(sentence: str, definitions: list[_Definition]) -> list[_Name]:
    candidates = [
        _Name(
            d.start,
            d.end,
            f"{d.short}: {_readable_long_form(d.long)}",
            qualifies_noun=_AFTER_DEFINITION.match(sentence, d.end) is None,
        )
        for d in definitions
        if not sentence.startswith("-", d.end)
    ]
    for token in _TOKEN.finditer(sentence):
        if _is_coined(token.group()):
            qualifies = _AFTER_NAME.match(sentence, token.end()) is None
            candidates.append(_Name(token.start(), token.end(), token.group(), qualifies))
    for name in _CAPITALISED_APPOSITION.finditer(sentence):
        candidates.append(_Name(name.start(), name.end(), name.group(), False))
    return sorted(candidates, key=lambda name: (name.start, -name.end))


def _named_contribution(sentences: list[str]) -> str | None:
    for sentence in sentences:
        cues = sorted(_NAME_CUE.finditer(sentence), key=lambda cue: cue.group("naming") is None)
        if not cues:
            continue
        candidates = _name_candidates(sentence, _definitions(sentence))
        for cue in cues:
            name = _name_after(sentence, cue, candidates)
            if name is not None:
                description = None if ":" in name.title else _apposition(sentence[name.end :])
                if description and len(name.title) + 2 + len(description) <= MAX_TITLE_CHARS:
                    return f"{name.title}: {description}"
                return name.title
    return None


def _name_after(sentence: str, cue: re.Match[str], candidates: list[_Name]) -> _Name | None:
    naming = cue.group("naming") is not None
    cue_end = cue.end()
    most_words_between = 0 if naming else _MOST_WORDS_AFTER_PROPOSING
    for name in candidates:
        if name.start < cue_end:
            continue
        between = sentence[cue_end : name.start]
        words = between.lower().split()
        if len(words) > most_words_between or not _FILLER.match(between):
            return None
        if _FILLER_STOPS.intersection(words):
            return None
        if not name.qualifies_noun or (cue.group("calling") and not words):
            return name
    return None


_GENERIC_HEAD = re.compile(
    r"^(?:a|an|the)\s+(?:(?:novel|new|simple|general|unified)\s+)*(?:[\w-]+\s+)?"
    rf"{_GENERIC_NOUNS}\s+(?:for\s+|with\s+(?=[A-Z]))",
)


_UNTELLING_WORDS = frozenset(
    "a an the novel new first simple general unified framework method approach system model"
    " architecture algorithm technique tool".split()
)


def _apposition(after_name: str) -> str | None:
    """', a novel framework for X, where ...' -> 'X'; ', the largest ... to date.' as is."""
    apposition = re.match(r",\s+((?:a|an|the)\s.*)", after_name)
    if apposition is None:
        return None
    phrase = _first_clause(apposition.group(1), stop_at_that=True)
    phrase = _GENERIC_HEAD.sub("", phrase)
    # "a model", "the first tool": a description must say more than the kind of thing.
    telling = [w for w in phrase.split() if w.lower() not in _UNTELLING_WORDS]
    return phrase if len(telling) >= 2 else None


# --- a described contribution: "we study X", "this paper addresses the problem of X" -

_CLAUSE_END = re.compile(
    r",\s+(?:which|where|while|whereas|and|but|so|thus|allowing|enabling|leading|making"
    r"|yielding|resulting|capable|as)\b"
    r"|\s*[;:]\s|[.!?。！？]$|\s+[-–—]{1,3}\s+|\s+which\b"
    r"|\s+(?:by|through|via)\s+\w+ing\b"
    r"|\s+and\s+(?:then\s+)?(?:integrate|provide|demonstrate|show|evaluate|apply|extend|derive"
    r"|prove|develop|test|use|introduce|propose|present|achieve|conduct|establish|analy[sz]e"
    r"|study|design|train|validate|verify|release|obtain|compare|find|identify|construct"
    r"|implement)s?\b"
)


# An apposition also ends where a relative clause or a participle phrase begins.
_APPOSITION_END = re.compile(
    r"\s+(?:that|sourced|drawn|collected|built|derived|based|designed|obtained|taken)\s"
)


def _first_clause(text: str, *, stop_at_that: bool = False) -> str:
    end = _CLAUSE_END.search(text)
    clause = text[: end.start()] if end else text
    if stop_at_that:
        clause = _APPOSITION_END.split(clause, maxsplit=1)[0]
    return clause.strip()


def _gerund(verb: str) -> str:
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith("ee"):
        return verb[:-1] + "ing"
    return verb + "ing"


_ADVERBS = r"(?:\w+ly\s+|first\s+|also\s+|further\s+|then\s+)*"
_DESCRIPTION_CUES: tuple[tuple[re.Pattern[str], bool], ...] = (
    # (pattern, whether its captured verb leads the title as a gerund)
    (
        re.compile(
            r"\b(?:address(?:es)?|stud(?:y|ies)|considers?|tackles?|investigates?)"
            r"\s+the\s+(?:problem|challenge|task|question)\s+of\s+",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        re.compile(
            rf"\b(?:we|paper|work|study)\s+{_ADVERBS}(?:stud(?:y|ies)|investigates?|examines?"
            r"|explores?|dissects?|analy[sz]es?|characteri[sz]es?)\s+",
            re.IGNORECASE,
        ),
        False,
    ),
    (
        re.compile(
            rf"\b(?:we\s+{_ADVERBS}|and\s+|by\s+|(?:paper|work|study)\s+{_ADVERBS})"
            r"(?:propos(?:e|es|ing)|introduc(?:e|es|ing)|present(?:s|ing)?|develop(?:s|ing)?)"
            r"\s+(?!to\s)",
            re.IGNORECASE,
        ),
        False,
    ),
    (re.compile(rf"\bwe\s+{_ADVERBS}propose\s+to\s+(\w+)\s+", re.IGNORECASE), True),
    (re.compile(rf"\bwe\s+{_ADVERBS}(extend|apply|adapt)\s+", re.IGNORECASE), True),
    (re.compile(r"\bwe\s+argue\s+that\s+", re.IGNORECASE), False),
    (re.compile(rf"\bwe\s+{_ADVERBS}(?:establish|derive|provide)\s+(?!that\s)", re.I), False),
)
# Words that add nothing at the head of a title: "the novel", "the problem of".
_EMPTY_HEAD = re.compile(
    r"^(?:(?:the|a|an)\s+)?(?:(?:novel|new)\s+)?"
    r"(?:(?:problem|concept|notion|task|question)\s+of\s+(?:the\s+)?)?",
    re.IGNORECASE,
)
# An object that points back ("their properties", "this problem") names nothing.
_ANAPHORIC = re.compile(r"(?:their|its|this|these|those|such|it|them)\b", re.IGNORECASE)


def _described_contribution(sentences: list[str]) -> str | None:
    for sentence in sentences:
        for cue, leads_with_verb in _DESCRIPTION_CUES:
            match = cue.search(sentence)
            if match is None:
                continue
            subject = _first_clause(sentence[match.end() :])
            if _ANAPHORIC.match(subject):
                continue
            if leads_with_verb:
                subject = f"{_gerund(match.group(1).lower())} {subject}"
            else:
                subject = _EMPTY_HEAD.sub("", subject, count=1)
            if len(subject.split()) >= 3:
                return _capitalise(subject)
    return None


# --- fallback: the opening clause ----------------------------------------------------

_LEAD_IN = re.compile(
    r"^(?:(?:Despite|While|Although|Though|Whereas|Since|Because|Given)\b[^,]{0,120}"
    r"|In recent years|Recently|Nowadays|Currently|Today),\s+"
)


def _opening_clause(sentences: list[str]) -> str:
    first = sentences[0]
    without_lead_in = _LEAD_IN.sub("", first, count=1)
    if len(without_lead_in.split()) >= 3:
        first = without_lead_in
    clause = re.split(r",\s+but\s|\s+but\s", _first_clause(first), maxsplit=1)[0]
    return _capitalise(clause)


def _capitalise(text: str) -> str:
    """Upper-case a leading English word, but leave math ("k-means", "x^2") as written."""
    return text[:1].upper() + text[1:] if re.match(r"[a-z]{2,}\b", text) else text


# --- length --------------------------------------------------------------------------

_DANGLING = frozenset(
    "and or of the a an to for with in on by from as at via its their our that which is are".split()
)
_TRAILING_PUNCTUATION = " \t,.;:!?。，；：！？-–—"


def _clip(title: str) -> str:
    title = title.strip().rstrip(_TRAILING_PUNCTUATION)
    if len(title) <= MAX_TITLE_CHARS:
        return title
    cut = title[: MAX_TITLE_CHARS - 1]
    if " " in cut and not title[len(cut)].isspace():
        cut = cut.rsplit(" ", 1)[0]  # drop the word the cut went through
    words = cut.split(" ")
    while len(words) > 1 and words[-1].lower() in _DANGLING:
        words.pop()
    return " ".join(words).rstrip(_TRAILING_PUNCTUATION) + "…"


def derive_title(abstract: str) -> str:
    """A title for a paper known only by its abstract; never empty.

    The named method (with its expansion or a short description when the abstract
    gives one), else what the paper sets out to do, else its opening clause; at most
    MAX_TITLE_CHARS characters, cut at a word and marked with "…" when clipped.
    """
    text = _plain_text(abstract)
    if not any(ch.isalnum() for ch in text):
        return UNTITLED
    sentences = _sentences(text)
    title = (
        _named_contribution(sentences)
        or _described_contribution(sentences)
        or _opening_clause(sentences)
    )
    return _clip(title) or UNTITLED

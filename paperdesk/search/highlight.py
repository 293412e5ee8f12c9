"""Which words of a text a search marks: beside the schema, because it follows the index.

The index stems words (schema.py's analyzer uses whoosh's Porter stemmer), so a search
for "training" finds "trained"; the detail pane should then mark "trained" too. The
text engine (paperdesk.text) renders the marks; this module decides where they go.
"""

from __future__ import annotations

import os.path
import re
from collections.abc import Iterable

from whoosh.lang.porter import stem  # StemmingAnalyzer's default stemmer


def hit_pattern(terms: Iterable[str]) -> re.Pattern[str] | None:
    """What a list of search terms marks, for `paperdesk.text.to_html`; None marks nothing.

    A word is marked when its lower case starts with a term's stem: "training" marks
    "train", "trains" and "training"; "policy" marks "policies". The stem is the longest
    common prefix of the term and its Porter stem, since Porter's stem is not always a
    prefix ("policy" -> "polici"). `train*` marks words starting with "train". Terms of
    one or two letters mark only the same word, or "a" would mark half the abstract.
    """
    alternatives = set()
    for term in terms:
        words = re.findall(r"\w+", term.casefold())
        for position, word in enumerate(words):
            wildcard = position == len(words) - 1 and term.rstrip().endswith("*")
            if wildcard:
                alternatives.add(re.escape(word) + r"\w*")
            elif len(word) <= 2:
                alternatives.add(re.escape(word) + r"(?!\w)")
            else:
                prefix = os.path.commonprefix([word, stem(word)]) or word
                alternatives.add(re.escape(prefix) + r"\w*")
    if not alternatives:
        return None
    ordered = sorted(alternatives, key=len, reverse=True)
    return re.compile(r"(?<!\w)(?:" + "|".join(ordered) + ")", re.IGNORECASE)

"""`paperdesk simulate`: replay triage on a labelled file, as screening researchers do.

The file is read like an import (any format the registry knows) but never enters a
library; `--relevant` names the truth (paperdesk.ranking.labels) and the replay always
decides truthfully (paperdesk.ranking.simulation), beside the usual open-source baseline
(`--ai` picks one or both). The rule and the file are checked before scikit-learn is
imported, so a mistake is refused in well under a second.
Each replay stops once 95% of the relevant papers are found: WSS@95 and the papers read
to 95% need no more, and reading on to the last relevant paper costs most of the time.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.models import PaperRecord
from paperdesk.formats.registry import read_file
from paperdesk.ranking.labels import RelevanceRule, parse_relevant

if TYPE_CHECKING:
    from paperdesk.ranking.simulation import SimulationResult

#: `--ai`: which models replay the triage (simulation.OURS, simulation.BASELINE, both).
AI_CHOICES = ("ours", "baseline", "both")


def relevance_rule(text: str) -> RelevanceRule:
    """The `--relevant` rule, parsed at once (InvalidValueError: one line)."""
    return parse_relevant(text)


def labelled_records(path: Path, rule: RelevanceRule, prior: int = 1) -> list[PaperRecord]:
    """The papers of `path`, once the rule is known to be answerable there; FormatError
    or InvalidValueError, one line each, when the file or the rule will not do."""
    if prior < 1:
        raise InvalidValueError(f"--prior {prior}: at least one relevant paper to start from")
    records = list(read_file(path).records)
    if not records:
        raise InvalidValueError(f"{path}: no papers to simulate on")
    rule.check(records, str(path))
    return records


def simulate_records(
    records: list[PaperRecord],
    rule: RelevanceRule,
    prior: int = 1,
    seed: int = 0,
    ai: str = "both",
) -> SimulationResult:
    """Replay triage of `records` (from `labelled_records`) with the models `ai` names.

    scikit-learn is imported here, not with the module (~1.5-10 s): a wrong rule or
    file is refused before that is paid."""
    from paperdesk.ranking.metrics import RECALL_TARGET
    from paperdesk.ranking.simulation import simulate

    return simulate(
        records,
        rule.is_relevant,
        prior,
        seed,
        rule=rule.text,
        hidden_words=rule.hidden_words,
        stop_recall=RECALL_TARGET,
        with_ours=ai in ("ours", "both"),
        with_baseline=ai in ("baseline", "both"),
    )

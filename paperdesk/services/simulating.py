"""`paperdesk simulate`: replay triage on a labelled file, as screening researchers do.

The file is read like an import (any format the registry knows) but never enters a
library; `--relevant` names the truth (paperdesk.ranking.labels) and the replay always
decides truthfully (paperdesk.ranking.simulation), beside the usual open-source baseline.
Each replay stops once 95% of the relevant papers are found: WSS@95 and the papers read
to 95% need no more, and reading on to the last relevant paper costs most of the time.
"""

from __future__ import annotations

from pathlib import Path

from paperdesk.core.errors import InvalidValueError
from paperdesk.formats.registry import read_file
from paperdesk.ranking.labels import parse_relevant
from paperdesk.ranking.metrics import RECALL_TARGET
from paperdesk.ranking.simulation import SimulationResult, simulate


def simulate_file(path: Path, relevant: str, prior: int = 1, seed: int = 0) -> SimulationResult:
    """Replay triage of the papers in `path`; FormatError or InvalidValueError, one line
    each, when the file or the rule will not do."""
    if prior < 1:
        raise InvalidValueError(f"--prior {prior}: at least one relevant paper to start from")
    rule = parse_relevant(relevant)
    records = read_file(path).records
    if not records:
        raise InvalidValueError(f"{path}: no papers to simulate on")
    return simulate(
        records,
        rule.is_relevant,
        prior,
        seed,
        rule=rule.text,
        hidden_words=rule.hidden_words,
        stop_recall=RECALL_TARGET,
    )

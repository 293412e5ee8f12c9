"""`paperdesk simulate`: replay triage on a labelled file. It needs no library, so it
imports neither the store nor the index; scikit-learn only once the rule and the file
are found sound (services/use_cases/simulating.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from paperdesk.services.use_cases import simulating


def cmd_simulate(_desk: None, args: argparse.Namespace) -> int:
    rule = simulating.relevance_rule(args.relevant)  # refused at once when malformed
    records = simulating.labelled_records(Path(args.file), rule, args.prior)
    result = simulating.simulate_records(records, rule, args.prior, args.seed, args.ai)
    if args.json:
        print(result.to_json())
    else:
        print(result.summary())
    return 0

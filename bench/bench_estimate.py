"""How far to trust the stopping estimate and the knee rule: replayed on corpus labels.

For each definition and seed, triage is replayed with our model, deciding truthfully,
to the last relevant paper (paperdesk.ranking.simulation). Every CHECK abstracts read,
the estimate of relevant papers left (core/triage.py `estimate_left`) is set against
the truth: how often its 90% interval holds it while relevant papers remain, and the
point estimate's median ratio to it (once a tenth of the relevant papers were found).
Past the last relevant paper the replay reads on (every paper a discard), so the knee
rule can see the curve level off. Where the knee rule first says
stop: the recall reached and the abstracts read. Prints figures; not a test. Usage:

    python bench/bench_estimate.py [--every 8] [--seeds 2] [--relevant RULE ...]

`--every 8` reads every eighth paper of ../shared/data/corpus.jsonl (~1,700 papers):
each replay reads to the last relevant paper, so the whole corpus takes long. Run it
under `nice -n 10`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

from paperdesk.core.triage import estimate_left
from paperdesk.formats.registry import read_file
from paperdesk.ranking.labels import parse_relevant
from paperdesk.ranking.simulation import OURS, simulate_seeds

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "data" / "corpus.jsonl"
DEFINITIONS = ("venue=CORL", "title~bandit", "title~diffusion", "year=2024..2025")
CHECK = 50


def replay_checks(found_at: tuple[int, ...], papers: int, relevant: int) -> dict[str, float]:
    """The estimate against the truth every CHECK reads, and the knee rule's stop."""
    finds = set(found_at)
    read_total = papers  # after the last relevant paper every read is a discard
    found, curve = 0, []
    covered = checks = 0
    ratios: list[float] = []
    knee_at = knee_recall = None
    for read in range(1, read_total + 1):
        found += read in finds
        curve.append((read, found))
        if read % CHECK or read >= papers:
            continue
        estimate = estimate_left(curve, papers - read)
        assert estimate is not None
        truth = relevant - found
        if truth:  # while relevant papers remain: after the last one, 0 is easy
            checks += 1
            covered += estimate.low <= truth <= estimate.high
        if found >= relevant / 10 and truth:
            ratios.append(estimate.left / truth)
        if estimate.knee and knee_at is None:
            knee_at, knee_recall = read, found / relevant
    return {
        "covered": covered / checks if checks else float("nan"),
        "ratio": statistics.median(ratios) if ratios else float("nan"),
        "knee_at": float(knee_at) if knee_at is not None else float("nan"),
        "knee_recall": knee_recall if knee_recall is not None else float("nan"),
        "read_all": float(max(found_at)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--every", type=int, default=8, help="read every Nth paper")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--relevant", nargs="*", default=list(DEFINITIONS))
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    args = parser.parse_args()
    if not args.corpus.exists():
        sys.exit(f"{args.corpus} is absent: nothing to benchmark")
    records = read_file(args.corpus).records[:: args.every]
    print(f"{len(records):,} papers; an estimate every {CHECK} abstracts read; 90% intervals")
    print(
        f"{'definition':<18} {'seed':>4} {'relevant':>8} {'covered':>8} {'median est/true':>15}"
        f" {'knee stops at':>13} {'its recall':>10} {'read to last':>12}"
    )
    for text in args.relevant:
        rule = parse_relevant(text)
        rule.check(records, str(args.corpus))
        results = simulate_seeds(
            records,
            rule.is_relevant,
            range(args.seeds),
            rule=rule.text,
            hidden_words=rule.hidden_words,
            with_baseline=False,
            stop_recall=1.0,
        )
        for result in results:
            figures = replay_checks(result.run(OURS).found_at, result.n_papers, result.n_relevant)
            print(
                f"{text:<18} {result.seed:>4} {result.n_relevant:>8} {figures['covered']:>8.0%}"
                f" {figures['ratio']:>15.2f} {figures['knee_at']:>13.0f}"
                f" {figures['knee_recall']:>10.0%} {figures['read_all']:>12.0f}"
            )


if __name__ == "__main__":
    main()

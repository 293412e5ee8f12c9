"""Benchmark the ranking engine: simulated triage on the real corpus, and its speed.

Prints figures; not a test. Needs ../shared/data/corpus.jsonl. Usage:
    python bench/bench_ranking.py [--seeds 5] [--first-seed 0] [--jobs 2] [--relevant ...]
                                                 the table, and read@95 per seed and model
    python bench/bench_ranking.py --learners [NAME_PART,...]   learners and features compared
    python bench/bench_ranking.py --check-schedule  retrain every decision vs the growth
    python bench/bench_ranking.py --speed [--papers 100000]   build, retrain, score, next
    python bench/bench_ranking.py --suite --first-seed 5 --seeds 5 --growth 0.05 [--jobs 2]
                [--no-asreview] [--alone]   the validation suite (ranking_suite.py), ASReview beside
Run it under `nice -n 10`: the long modes take minutes on two cores.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import ComplementNB

from paperdesk.core.models import PaperRecord
from paperdesk.formats.registry import read_file
from paperdesk.ranking import metrics, simulation
from paperdesk.ranking.background import BackgroundRanker
from paperdesk.ranking.features import FeatureConfig, FeatureMatrix
from paperdesk.ranking.labels import RelevanceRule, parse_relevant
from paperdesk.ranking.model import (
    ASREVIEW_LEARNER,
    LEARNER,
    PRESUMED_IRRELEVANT,
    Learner,
    balanced_weights,
    linear_svm,
    more_like,
    rank,
    train,
)
from paperdesk.ranking.simulation import (
    BASELINE,
    DEFAULT_RETRAIN_GROWTH,
    OURS,
    SimulationResult,
    app_fit,
    baseline_features,
    baseline_fit,
    learner_fit,
    prior_rows,
    replay,
    used_columns,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
import ranking_suite  # noqa: E402  (bench/ is not a package)
from bench_core import replicate_corpus  # noqa: E402

T = TypeVar("T")
ROOT = Path(__file__).resolve().parent.parent
# PAPERDESK_CORPUS names it elsewhere (a worktree's ../shared is not the project's).
CORPUS = Path(os.environ.get("PAPERDESK_CORPUS", ROOT.parent / "shared" / "data" / "corpus.jsonl"))
# Prevalence 2-22%: venues, a year range, and topics defined by a hidden title word
# (the one we lost on comes first, so a run cut short still shows it).
DEFINITIONS = ["title~causal", "year=2024..2025", "venue=CORL", "title~bandit", "venue=COLT"]


def load_corpus() -> tuple[PaperRecord, ...]:
    if not CORPUS.exists():
        sys.exit("../shared/data/corpus.jsonl is absent: nothing to benchmark")
    return read_file(CORPUS).records


def spread(values: Sequence[float], digits: int = 1) -> str:
    sd = statistics.pstdev(values) if len(values) > 1 else 0.0
    return f"{statistics.fmean(values):7.{digits}f} ±{sd:5.{digits}f}"


def simulate_seeds(
    records: Sequence[PaperRecord],
    rule: RelevanceRule,
    seeds: Sequence[int],
    growth: float,
    with_baseline: bool = True,
) -> list[SimulationResult]:
    """The simulation of `rule` for these seeds, up to 95% recall."""
    return simulation.simulate_seeds(
        records,
        rule.is_relevant,
        seeds,
        rule=rule.text,
        hidden_words=rule.hidden_words,
        with_baseline=with_baseline,
        retrain_growth=growth,
        stop_recall=metrics.RECALL_TARGET,
    )


def rule_results(
    rule_text: str, seeds: Sequence[int], growth: float
) -> tuple[list[SimulationResult], float]:
    """One definition's simulations and the CPU seconds they took (a worker's job)."""
    cpu = time.process_time()
    results = simulate_seeds(load_corpus(), parse_relevant(rule_text), seeds, growth)
    return results, time.process_time() - cpu


def simulation_table(
    rules: list[RelevanceRule], seeds: Sequence[int], growth: float, jobs: int
) -> None:
    """The table of the README's Triage section: every definition, ours beside the
    baseline on the same seeds; `jobs` definitions are simulated at once."""
    print(
        f"\nSimulated triage, prior 1+1, seeds {seeds[0]}..{seeds[-1]}, retrain growth {growth}:"
        " mean ± sd over seeds"
    )
    header = (
        "definition       prev.  method    read to 95%      WSS@95 (%)      "
        "seeds where ours read fewer / as many / more"
    )
    print(header + "\n" + "-" * len(header), flush=True)
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        runs = {pool.submit(rule_results, rule.text, seeds, growth): rule for rule in rules}
        for run in as_completed(runs):  # each as soon as it is done: the long ones last
            results, cpu = run.result()
            print_rule(runs[run], results, seeds, cpu)


def print_rule(
    rule: RelevanceRule, results: list[SimulationResult], seeds: Sequence[int], cpu: float
) -> None:
    """One definition's rows: ours and the baseline (mean ± sd over seeds), and random;
    then one line per seed with each model's reads to 95% recall."""
    first = results[0]
    ours = [r.read_to_95(OURS) for r in results]
    theirs = [r.read_to_95(BASELINE) for r in results]
    fewer = sum(a < b for a, b in zip(ours, theirs, strict=True))
    same = sum(a == b for a, b in zip(ours, theirs, strict=True))
    tally = f"{fewer} / {same} / {len(seeds) - fewer - same}"
    prevalence = f"{first.n_relevant / first.n_papers:5.1%}"
    for method, reads in ((OURS, ours), (BASELINE, theirs)):
        wss = [100 * r.wss_95(method) for r in results]
        print(
            f"{rule.text:<16} {prevalence}  {method:<9} {spread(reads)}  {spread(wss, 2)}  {tally}"
        )
        prevalence, tally = "     ", ""
    print(
        f"{'':<16} {'':5}  {'random':<9} {first.random_read_to_95:7.1f} (expected)"
        f"  {100 * first.random_wss_95:7.2f}   ({cpu:.0f} CPU s for both methods)"
    )
    for result, mine, baseline in zip(results, ours, theirs, strict=True):
        print(
            f"{'':<16} seed {result.seed:<3} read@95 {OURS} {mine:5d}  {BASELINE} {baseline:5d}"
            f"  ({mine - baseline:+d})"
        )
    sys.stdout.flush()


def check_schedule(
    records: Sequence[PaperRecord], rules: list[RelevanceRule], seeds: Sequence[int]
) -> None:
    """Ours, retrained after every decision vs after each 2% and 5% more decisions."""
    print(f"\nRetrain schedule (ours, read to 95% recall; seeds {seeds[0]}..{seeds[-1]})")
    for rule in rules:
        for growth in (0.0, DEFAULT_RETRAIN_GROWTH, 0.05):
            started = time.perf_counter()
            results = simulate_seeds(records, rule, seeds, growth, with_baseline=False)
            reads = [r.read_to_95(OURS) for r in results]
            fits = statistics.fmean(r.run(OURS).fits for r in results)
            print(
                f"  {rule.text:<16} growth {growth:4.2f}: {spread(reads)}  {reads}"
                f"  ({fits:.0f} fits, {time.perf_counter() - started:.0f} s)",
                flush=True,
            )


def logistic(c: float, ratio: float) -> Learner:
    def fit(x: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, float]:
        model = LogisticRegression(C=c, solver="liblinear")
        model.fit(x, y, sample_weight=balanced_weights(y, ratio))
        return model.coef_.ravel(), float(model.intercept_[0])

    return fit


def complement_nb(alpha: float) -> Learner:
    def fit(x: sp.csr_matrix, y: np.ndarray) -> tuple[np.ndarray, float]:
        log_prob = ComplementNB(alpha=alpha).fit(x, y).feature_log_prob_
        return log_prob[1] - log_prob[0], 0.0

    return fit


@dataclass(frozen=True)
class Candidate:
    """A learner with its features: `config` None means the baseline's own TF-IDF."""

    name: str
    learner: Learner
    config: FeatureConfig | None = FeatureConfig()
    presumed: int = 0


WORDS = FeatureConfig()
CANDIDATES = [
    Candidate("baseline: svm C=0.11 w9.8, sklearn TF-IDF", ASREVIEW_LEARNER, None),
    Candidate("ours alone: svm C=0.3 w9.8 + presumed 100", LEARNER, WORDS, PRESUMED_IRRELEVANT),
    Candidate("svm C=0.3 w9.8", linear_svm(0.3, 9.8)),
    Candidate("svm C=0.3 w9.8 + presumed up to 500", linear_svm(0.3, 9.8), WORDS, 500),
    Candidate("svm C=0.11 w9.8", linear_svm(0.11, 9.8)),
    Candidate("svm C=1 balanced (w1)", linear_svm(1.0, 1.0)),
    Candidate("svm C=0.3 w9.8, words only", linear_svm(0.3, 9.8), FeatureConfig(ngram_max=1)),
    Candidate("svm C=0.3 w9.8, min_df 1", linear_svm(0.3, 9.8), FeatureConfig(min_df=1)),
    Candidate("svm C=0.3 w9.8, title x2", linear_svm(0.3, 9.8), FeatureConfig(title_weight=2)),
    Candidate("logistic C=1 w9.8 (liblinear)", logistic(1.0, 9.8)),
    Candidate("complement NB alpha=0.1", complement_nb(0.1)),
    # Ours with one thing changed, tried on title~causal (issue 10; read to 95%, lower is
    # better). Seeds 0-4, before the rows were weighted a slice at a time (float32 lengths;
    # ours read 1577.4 then, 1576.2 since, the baseline 1587.4): title x2 1661.2, x3
    # 1679.6, relevant w15 1585.4, w30 1558.8. Held-out seeds 5-9 (ours 1653.6, baseline
    # 1567.0): w30 1637.6 ± 144, still 70 behind. Presumed up to 50 / 200 / 500, on the
    # current code: 1541.2 / 1677.0 / 1623.6 on seeds 0-4, 1641.0 / 1672.6 / 1582.0 on 5-9.
    Candidate("ours, title x2", LEARNER, FeatureConfig(title_weight=2), PRESUMED_IRRELEVANT),
    Candidate("ours, title x3", LEARNER, FeatureConfig(title_weight=3), PRESUMED_IRRELEVANT),
    Candidate("ours, relevant w15", linear_svm(0.3, 15.0), WORDS, PRESUMED_IRRELEVANT),
    Candidate("ours, relevant w30", linear_svm(0.3, 30.0), WORDS, PRESUMED_IRRELEVANT),
    Candidate("ours, presumed up to 50", LEARNER, WORDS, 50),
    Candidate("ours, presumed up to 200", LEARNER, WORDS, 200),
]


def compare_learners(
    records: Sequence[PaperRecord], rules: list[RelevanceRule], seeds: Sequence[int], only: str
) -> None:
    print(
        f"\nLearners compared (read to 95% recall; seeds {seeds[0]}..{seeds[-1]}; lower is better)"
    )
    parts = [part.strip().casefold() for part in only.split(",")]
    candidates = [c for c in CANDIDATES if any(part in c.name.casefold() for part in parts)]
    for rule in rules:
        y = np.fromiter((rule.is_relevant(r) for r in records), dtype=np.int64)
        stop = metrics.needed(int(y.sum()))
        print(f"{rule.text} ({y.sum()} relevant)")
        matrices: dict[FeatureConfig | None, sp.csr_matrix] = {}
        for candidate in candidates:
            config = candidate.config
            if config not in matrices:
                matrices[config] = (
                    baseline_features(records, rule.hidden_words)
                    if config is None
                    else FeatureMatrix.build(enumerate(records), rule.hidden_words, config).matrix
                )
            started = time.process_time()
            reads = [
                replay(
                    candidate.name,
                    y,
                    learner_fit(matrices[config], candidate.learner, seed, candidate.presumed),
                    prior_rows(y, 1, seed),
                    DEFAULT_RETRAIN_GROWTH,
                    stop,
                ).found_at[-1]
                for seed in seeds
            ]
            took = time.process_time() - started
            print(
                f"  {candidate.name:<44} {spread(reads)}  {reads}  ({took:4.0f} CPU s)", flush=True
            )


def replicated(records: Sequence[PaperRecord], papers: int) -> tuple[PaperRecord, ...]:
    """The corpus replicated as bench_core.py does (fresh titles, shuffled words)."""
    if papers <= len(records):
        return tuple(records[:papers])
    with tempfile.TemporaryDirectory() as scratch:
        return read_file(replicate_corpus(Path(scratch) / "big.jsonl", papers)).records


def timed(label: str, action: Callable[[], T], repeat: int = 1) -> T:
    """Run `action`; print wall time and this process's CPU time (the machine is shared)."""
    wall, cpu = time.perf_counter(), time.process_time()
    for _ in range(repeat):
        result = action()
    wall = (time.perf_counter() - wall) / repeat
    cpu = (time.process_time() - cpu) / repeat
    print(f"  {label:<52} {wall * 1000:9.1f} ms  (cpu {cpu * 1000:8.1f} ms)")
    return result


def speed(records: Sequence[PaperRecord], papers: int) -> None:
    library = replicated(records, papers)
    print(f"\nSpeed at {len(library):,} papers")
    papers_by_id = list(enumerate(library))
    features = timed(
        "feature build (text + hashing + TF-IDF)", lambda: FeatureMatrix.build(papers_by_id)
    )
    megabytes = (features.matrix.data.nbytes + features.matrix.indices.nbytes) * 2 / 2**20
    print(
        f"  {'matrix: nnz per paper / memory (weighted + TF)':<52} "
        f"{features.matrix.nnz / len(features):9.0f}    {megabytes:.0f} MB"
    )
    start = len(library) - 1000
    smaller = features.without(range(start, len(library)))  # no second full build
    timed("add 1,000 papers to the matrix", lambda: smaller.with_papers(papers_by_id[start:]))
    relevant = [(r.venue or "").upper() == "CORL" for r in library]
    rng = random.Random(0)
    for n in (50, 500, 2000):
        labels = {i: relevant[i] for i in rng.sample(range(len(library)), n)}
        labels[relevant.index(True)] = True
        scorer = timed(
            f"retrain with {n:,} decisions", lambda known=labels: train(features, known), 3
        )
    assert scorer is not None
    timed("score all papers", lambda: scorer.scores(features.matrix), 5)
    timed("rank all papers (score + sort)", lambda: rank(features, scorer), 3)
    timed("more like this (one paper)", lambda: more_like(features, 0), 5)
    decision_to_next(features, relevant, labels)


def decision_to_next(
    features: FeatureMatrix, relevant: list[bool], labels: dict[int, bool]
) -> None:
    """Decide, then ask for the next paper at once, while the model retrains behind."""
    waits: list[float] = []
    with BackgroundRanker(features, labels) as ranker:
        ranker.wait()
        started = time.perf_counter()
        for _ in range(30):
            t = time.perf_counter()
            paper = ranker.next_paper()
            assert paper is not None
            ranker.decide(paper, relevant[paper])
            ranker.next_paper()
            waits.append(time.perf_counter() - t)
            time.sleep(0.05)  # a reader faster than anyone: 20 decisions a second
        ranker.wait()
        total = time.perf_counter() - started
    waits.sort()
    print(
        f"  {'decision -> next paper chosen, median / max of 30':<52} "
        f"{waits[15] * 1000:9.1f} ms / {waits[-1] * 1000:.1f} ms"
    )
    print(f"  {'30 decisions at 20/s, until the model caught up':<52} {total * 1000:9.1f} ms")


# ---------------------------------------------------------------- the validation suite

ALONE = "ours alone"
ASREVIEW = "asreview"


@dataclass(frozen=True)
class SuiteOptions:
    seeds: tuple[int, ...]
    growth: float
    asreview: bool = True
    alone: bool = False  # ours without the fusion (the design's argument; costs CPU)
    only: tuple[str, ...] = ()  # definitions to run (all when empty)


def suite_label(index: int, options: SuiteOptions) -> tuple[dict[str, list[int]], dict[str, float]]:
    """One label of the suite (a worker's job): reads to 95% recall per method and seed,
    and each method's CPU seconds."""
    records = ranking_suite.subsample(load_corpus())
    rule = ranking_suite.labels()[index].rule
    y = np.fromiter((rule.is_relevant(r) for r in records), dtype=np.int64)
    stop = metrics.needed(int(y.sum()))
    cpu: dict[str, float] = {}
    started = time.process_time()
    ours = used_columns(FeatureMatrix.build(enumerate(records), rule.hidden_words).matrix)
    cpu[OURS] = time.process_time() - started
    started = time.process_time()
    theirs = baseline_features(records, rule.hidden_words)
    cpu[BASELINE] = time.process_time() - started
    fits: dict[str, Callable[[int], simulation.Fit]] = {
        OURS: lambda seed: app_fit(ours, seed),
        BASELINE: lambda seed: baseline_fit(theirs, seed),
    }
    if options.alone:
        fits[ALONE] = lambda seed: learner_fit(ours, LEARNER, seed, PRESUMED_IRRELEVANT)
    reads: dict[str, list[int]] = {method: [] for method in (*fits, ASREVIEW)}
    if options.asreview:
        started = time.process_time()
        asreview_features = ranking_suite.asreview_features(records, rule.hidden_words)
        cpu[ASREVIEW] = time.process_time() - started
    for seed in options.seeds:
        first = prior_rows(y, 1, seed)
        for method, fit in fits.items():
            started = time.process_time()
            run = replay(method, y, fit(seed), first, options.growth, stop)
            reads[method].append(run.found_at[stop - 1])
            cpu[method] = cpu.get(method, 0.0) + time.process_time() - started
        if options.asreview:
            started = time.process_time()
            reads[ASREVIEW].append(
                ranking_suite.asreview_read_to_95(asreview_features, y, first, seed, options.growth)
            )
            cpu[ASREVIEW] += time.process_time() - started
    return reads, cpu


SUITE_COST = {"title word": 0, "title phrase": 1, "venue": 2, "year": 3}


def suite_table(options: SuiteOptions, jobs: int) -> None:
    """The validation suite's table (docs/triage.md): mean reads to 95% recall over the
    seeds, ours (fused) beside the baseline rebuilt and the real ASReview; one row per
    label as it is done."""
    suite = ranking_suite.labels()
    records = ranking_suite.subsample(load_corpus())
    print(
        f"\nValidation suite: {len(records):,} papers (corpus.jsonl subsample, seed"
        f" {ranking_suite.SUBSAMPLE_SEED}), prior 1+1, seeds {list(options.seeds)}, retrain"
        f" after max(1, {options.growth} x read) reads, ASReview too.\n"
        "Mean papers read to 95% recall; ratio = ours / baseline and ours / ASReview.\n"
    )
    print(
        "| kind | definition | prev. | rel. | ours | baseline (rebuilt) | ASReview 3.0.8 |"
        " ours/base | ours/ASR | per seed: ours / base / ASR |"
        + (" ours alone |" if options.alone else "")
    )
    print("|---|---|---|---|---|---|---|---|---|---|" + ("---|" if options.alone else ""))
    sys.stdout.flush()
    totals: dict[str, float] = {}
    ratios: dict[str, list[float]] = {BASELINE: [], ASREVIEW: []}
    wall = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        # The cheap labels first (topics read a few hundred papers, years most of them),
        # so that a run cut short has the most rows.
        chosen = [
            i
            for i in sorted(range(len(suite)), key=lambda i: SUITE_COST[suite[i].kind])
            if not options.only or suite[i].rule.text in options.only
        ]
        runs = {pool.submit(suite_label, i, options): suite[i] for i in chosen}
        for run in as_completed(runs):
            label = runs[run]
            reads, cpu = run.result()
            for method, seconds in cpu.items():
                totals[method] = totals.get(method, 0.0) + seconds
            mean = {m: statistics.fmean(r) if r else float("nan") for m, r in reads.items()}
            for other in ratios:
                ratios[other].append(mean[OURS] / mean[other] if reads[other] else float("nan"))
            relevant = sum(map(label.rule.is_relevant, records))
            per_seed = "; ".join(
                " / ".join(str(reads[m][k]) for m in (OURS, BASELINE, ASREVIEW) if reads[m])
                for k in range(len(options.seeds))
            )
            alone = f" {mean[ALONE]:.1f} |" if options.alone else ""
            print(
                f"| {label.kind} | `{label.rule.text}` | {relevant / len(records):.1%} |"
                f" {relevant} | {mean[OURS]:.1f} | {mean[BASELINE]:.1f} | {mean[ASREVIEW]:.1f} |"
                f" {ratios[BASELINE][-1]:.2f} | {ratios[ASREVIEW][-1]:.2f} | {per_seed} |{alone}",
                flush=True,
            )
    for other, values in ratios.items():
        known = [v for v in values if v == v]
        if known:
            print(
                f"\nours vs {other}: ahead or level on {sum(v <= 1 for v in known)} of"
                f" {len(known)} labels, <= 0.9x on {sum(v <= 0.9 for v in known)},"
                f" worst {max(known):.2f}x, geometric mean {statistics.geometric_mean(known):.3f}x"
            )
    print(
        "CPU seconds: "
        + ", ".join(f"{m} {t:.0f}" for m, t in totals.items())
        + f"; wall {time.perf_counter() - wall:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--relevant", action="append", help="FIELD=VALUE (repeatable)")
    parser.add_argument("--seeds", type=int, default=5, help="how many seeds")
    parser.add_argument("--first-seed", type=int, default=0, help="5: held-out seeds 5..9")
    parser.add_argument("--growth", type=float, default=DEFAULT_RETRAIN_GROWTH)
    parser.add_argument("--learners", nargs="?", const="", metavar="NAME_PART")
    parser.add_argument("--check-schedule", action="store_true")
    parser.add_argument("--speed", action="store_true")
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=1, help="definitions simulated at once")
    parser.add_argument("--suite", action="store_true", help="the validation suite's table")
    parser.add_argument("--no-asreview", action="store_true", help="--suite without it")
    parser.add_argument("--alone", action="store_true", help="--suite: ours unfused too")
    parser.add_argument("--only", action="append", default=[], help="--suite: this label")
    parser.add_argument("--skip", action="append", default=[], help="--suite: not this one")
    args = parser.parse_args()
    records = load_corpus()
    if args.speed:
        speed(records, len(records))
        speed(records, args.papers)
        return
    seeds = list(range(args.first_seed, args.first_seed + args.seeds))
    if args.suite:
        texts = [label.rule.text for label in ranking_suite.labels()]
        only = [t for t in (args.only or texts) if t not in args.skip]
        options = SuiteOptions(
            tuple(seeds), args.growth, not args.no_asreview, args.alone, tuple(only)
        )
        suite_table(options, args.jobs)
        return
    rules = [parse_relevant(text) for text in (args.relevant or DEFINITIONS)]
    if args.check_schedule:
        check_schedule(records, rules, seeds)
    elif args.learners is not None:
        compare_learners(records, rules, seeds, args.learners)
    else:
        simulation_table(rules, seeds, args.growth, args.jobs)


if __name__ == "__main__":
    sys.exit(main())

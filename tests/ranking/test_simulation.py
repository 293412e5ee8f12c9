"""The simulation: deterministic for a seed, and better than random on real papers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.formats.registry import read_file
from paperdesk.ranking import metrics
from paperdesk.ranking.labels import parse_relevant
from paperdesk.ranking.simulation import BASELINE, OURS, SimulationResult, prior_rows, simulate
from tests.conftest import CORPUS_SAMPLE
from tests.ranking.synthetic import make_records


def test_a_seed_fixes_the_whole_run() -> None:
    records, relevant = make_records(n=150, share=0.1, seed=7)
    flags = dict(zip(map(id, records), relevant, strict=True))

    def reading(seed: int, global_seed: int) -> list[tuple[int, ...]]:
        np.random.seed(global_seed)  # what another caller of np.random would leave behind
        result = simulate(records, lambda r: flags[id(r)], seed=seed, retrain_growth=0)
        return [run.found_at for run in result.runs]

    assert reading(3, global_seed=1) == reading(3, global_seed=2)
    y = np.array(relevant, dtype=np.int64)
    assert prior_rows(y, 2, seed=3) == prior_rows(y, 2, seed=3) != prior_rows(y, 2, seed=4)


def test_the_result_reports_both_methods_and_the_curve() -> None:
    records, relevant = make_records(n=150, share=0.1)
    flags = dict(zip(map(id, records), relevant, strict=True))
    result = simulate(records, lambda r: flags[id(r)], seed=0, rule="synthetic")
    report = json.loads(result.to_json())
    assert [run["method"] for run in report["runs"]] == [OURS, BASELINE]
    ours = report["runs"][0]
    assert len(ours["recall_at_read"]) == sum(relevant)  # stop_recall=1.0 reads to the last
    assert ours["recall_at_read"][-1][1] == 1.0
    assert ours["read_to_95"] == result.read_to_95(OURS) < result.random_read_to_95
    assert report["n_relevant"] == sum(relevant) and report["rule"] == "synthetic"
    lines = result.summary().splitlines()
    assert lines[0].startswith(f"synthetic: {sum(relevant)} of 150 papers")
    assert [line.split()[:2] for line in lines[2:]] == [
        ["ours", str(result.read_to_95(OURS))],
        ["baseline", str(result.read_to_95(BASELINE))],
        ["random", f"{result.random_read_to_95:.0f}"],
    ]


def test_too_few_relevant_papers_for_the_prior_is_a_clear_error() -> None:
    records, _ = make_records(n=30)
    with pytest.raises(InvalidValueError, match="venue=NONE: 0 of 30 papers are relevant"):
        simulate(records, lambda r: False, rule="venue=NONE")


def test_on_real_papers_most_promising_first_beats_random() -> None:
    records = read_file(CORPUS_SAMPLE).records  # 607 papers, 43 of CoRL
    rule = parse_relevant("venue=CORL")
    result = simulate(
        records,
        rule.is_relevant,
        seed=0,
        rule=rule.text,
        with_baseline=False,
        retrain_growth=0.1,
        stop_recall=0.95,
    )
    assert result.n_relevant == 43
    assert result.read_to_95(OURS) < 0.5 * result.random_read_to_95
    assert result.wss_95(OURS) > 0.4


def test_stopping_at_95_percent_recall_gives_the_same_figures_for_fewer_reads() -> None:
    records, relevant = make_records(n=300, share=0.1, seed=5)
    flags = dict(zip(map(id, records), relevant, strict=True))

    def replay(stop_recall: float) -> SimulationResult:
        return simulate(records, lambda r: flags[id(r)], seed=1, stop_recall=stop_recall)

    full, stopped = replay(1.0), replay(0.95)
    needed = metrics.needed(sum(relevant))
    assert needed < sum(relevant)  # else stopping would change nothing here
    for method in (OURS, BASELINE):
        assert stopped.read_to_95(method) == full.read_to_95(method)
        assert stopped.run(method).found_at == full.run(method).found_at[:needed]
        assert stopped.run(method).read == stopped.read_to_95(method) < full.run(method).read
    # Past the stop, the summary says recall is at least what was found, not exactly.
    ours_line = stopped.summary().splitlines()[2]
    assert ours_line.split()[-1] == f">={needed / sum(relevant):.0%}"

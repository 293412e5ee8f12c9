"""Screenings (issue 21): named triages that are owned, resumed, seeded by a query without
being fenced by it, counted on their own (progress, estimate, PRISMA) and exchanged with
other screening tools as labelled datasets."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

import pytest

from paperdesk.core.errors import InvalidValueError
from paperdesk.core.scope import Kind, Scope
from paperdesk.core.screening import UNDECIDED, Screening
from paperdesk.core.triage import Decision, Progress
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import (
    editing,
    history,
    importing,
    labelled,
    reading,
    screenings,
    triage,
)

MOLECULES = Path(__file__).resolve().parents[1] / "data" / "molecules.csv"
QUERY = "diffusion models for molecules"


def doi_ids(desk: Desk) -> dict[str, int]:
    papers = desk._library.papers.get_many(desk._library.papers.sorted_ids())
    return {p.ids.doi or "": p.id for p in papers}


@pytest.fixture
def molecules(tmp_path: Path) -> Desk:
    """Twelve papers: four on generating molecules, only two of them match QUERY."""
    opened = Desk.open(tmp_path / "molecules")
    report = importing.import_files(opened, [MOLECULES])
    assert not report.failed, report.summary()
    yield opened
    opened.close()


def test_a_query_seeds_the_order_but_the_scope_stays_the_library(molecules: Desk) -> None:
    ids = doi_ids(molecules)
    seeded = screenings.start(molecules, "Molecules", scope=Scope(), query=QUERY)
    found = screenings.queue(molecules, seeded)
    hits = {ids["10.5555/mol.1"], ids["10.5555/mol.2"]}
    assert found.hits == hits
    assert set(found.ids[:2]) == hits  # the hits come first...
    outside = ids["10.5555/mol.3"]  # ...and a relevant paper missing a query word is there
    assert outside in found.pending and len(found.ids) == 12 and found.left_out == 0
    # Deciding the hits, the screening goes on to the rest of the library.
    for paper_id in found.ids[:2]:
        triage.decide(molecules, paper_id, Decision.KEEP, screening=seeded)
    after = screenings.queue(molecules, seeded)
    assert outside in after.pending and after.decided == 2


def test_confining_to_the_hits_is_a_choice_that_says_what_it_leaves_out(molecules: Desk):
    confined = screenings.start(molecules, "Hits only", scope=Scope(), query=QUERY, confine=True)
    found = screenings.queue(molecules, confined)
    assert len(found.ids) == 2 and found.left_out == 10
    assert "only the hits of" in confined.describe()


def test_a_screening_resumes_after_closing_with_its_scope_query_and_decisions(tmp_path: Path):
    folder = tmp_path / "library"
    with Desk.open(folder) as desk:
        importing.import_files(desk, [MOLECULES])
        made = screenings.start(
            desk, "Molecules", scope=Scope(), query=QUERY, reasons=("off topic", "no method")
        )
        first = screenings.queue(desk, made).pending[0]
        triage.decide(desk, first, Decision.DISCARD, screening=made, reason="off topic")
    with Desk.open(folder) as desk:
        resumed = screenings.start(desk, "molecules")  # any case
        assert (resumed.id, resumed.scope, resumed.query) == (made.id, Scope(), QUERY)
        assert resumed.reasons == ("off topic", "no method")
        found = screenings.queue(desk, resumed)
        assert first not in found.pending and found.decided == 1
        assert screenings.last_used(desk) == resumed


def test_decisions_are_per_screening(molecules: Desk) -> None:
    one = screenings.start(molecules, "One", scope=Scope())
    other = screenings.start(molecules, "Other", scope=Scope())
    paper = screenings.queue(molecules, one).pending[0]
    triage.decide(molecules, paper, Decision.DISCARD, screening=one)
    assert paper not in screenings.queue(molecules, one).pending
    assert paper in screenings.queue(molecules, other).pending
    assert [s.decided for s in screenings.summaries(molecules)] == [0, 1]  # used last first
    history.undo(molecules)
    assert paper in screenings.queue(molecules, one).pending


def test_the_default_screening_keeps_its_total_as_papers_are_decided(molecules: Desk) -> None:
    default = screenings.start(molecules)
    assert default.scope == UNDECIDED
    paper = screenings.queue(molecules, default).pending[0]
    triage.decide(molecules, paper, Decision.KEEP, "Kept", screening=default)
    found = screenings.queue(molecules, default)
    assert (len(found.ids), found.decided) == (12, 1)  # not "0 of 11"


def test_decisions_from_before_screenings_are_said_to_be_so(molecules: Desk) -> None:
    """Migration 0006 gave the decisions logged before screenings had names to one named
    "Triage": its header said "3 of 12 decided" of a screening the user never made."""
    default = screenings.start(molecules)
    first = screenings.queue(molecules, default)
    for paper_id in first.ids[:3]:
        triage.decide(molecules, paper_id, Decision.DISCARD, screening=default)
    assert screenings.queue(molecules, default).earlier == 0  # decided in it: its own
    with sqlite3.connect(molecules.folder / "library.sqlite3") as connection:
        connection.execute("UPDATE decisions SET at = '2025-02-01 10:00:00'")  # as 0006 left them
    triage.decide(molecules, first.ids[3], Decision.KEEP, screening=default)
    found = screenings.queue(molecules, default)
    assert (found.decided, found.earlier) == (4, 3)
    line = Progress(found.decided, len(found.ids), None, earlier=found.earlier).text()
    assert line.startswith("4 of 12 decided (3 of them before screenings had names)")


def test_progress_and_estimate_are_per_screening_from_the_first_decision(molecules: Desk):
    ids = doi_ids(molecules)
    one = screenings.start(molecules, "One", scope=Scope())
    screenings.start(molecules, "Other", scope=Scope())
    triage.decide(molecules, ids["10.5555/rl.1"], Decision.DISCARD, screening=one)
    figures = screenings.stats(molecules, one)
    assert (figures.papers, figures.undecided, figures.decisions) == (12, 11, 1)
    assert figures.estimate is not None  # from the first decision on, with an interval
    assert figures.estimate.low <= figures.estimate.left <= figures.estimate.high
    hint = figures.stopping_hint()
    assert "no relevant paper found yet in 1 abstract read" in hint
    assert "since the last keep" not in hint  # nothing was kept
    # A rating of 4-5 counts for the model, so as relevant found too.
    triage.decide(molecules, ids["10.5555/mol.3"], Decision.MAYBE, screening=one)
    editing.set_rating(molecules, [ids["10.5555/mol.3"]], 5)
    figures = screenings.stats(molecules, one)
    assert figures.found == 1
    other = screenings.stats(molecules, screenings.named(molecules, "Other"))
    assert (other.decisions, other.undecided, other.estimate) == (0, 12, None)


def test_prisma_counts_follow_the_decisions_and_their_reasons(molecules: Desk, tmp_path: Path):
    ids = doi_ids(molecules)
    review = screenings.start(
        molecules, "Review", scope=Scope(), reasons=("off topic", "not generative")
    )
    triage.decide(molecules, ids["10.5555/mol.1"], Decision.KEEP, screening=review)
    triage.decide(
        molecules, ids["10.5555/rl.1"], Decision.DISCARD, screening=review, reason="off topic"
    )
    triage.decide(
        molecules, ids["10.5555/rl.2"], Decision.DISCARD, screening=review, reason="off topic"
    )
    triage.decide(molecules, ids["10.5555/cv.1"], Decision.DISCARD, screening=review)
    triage.decide(molecules, ids["10.5555/cv.2"], Decision.MAYBE, screening=review)
    counts = screenings.prisma(molecules, review)
    assert (counts.identified, counts.duplicates, counts.papers) == (12, 0, 12)
    assert (counts.screened, counts.excluded, counts.included, counts.maybe) == (5, 3, 1, 1)
    assert counts.excluded_by_reason == (("off topic", 2), (screenings.NO_REASON, 1))
    assert counts.not_screened == 7
    path = tmp_path / "prisma.csv"
    screenings.export_prisma(molecules, review, path)
    lines = path.read_text(encoding="utf-8").splitlines()
    rows = {row["stage"]: int(row["count"]) for row in csv.DictReader(lines)}
    assert rows["records excluded"] == 3 and rows["excluded: off topic"] == 2
    with pytest.raises(InvalidValueError):
        screenings.export_prisma(molecules, review, tmp_path / "prisma.txt")


@pytest.mark.parametrize("suffix", [".csv", ".ris"])
def test_a_labelled_dataset_round_trips_between_libraries(
    molecules: Desk, tmp_path: Path, suffix: str
) -> None:
    ids = doi_ids(molecules)
    review = screenings.start(molecules, "Review", scope=Scope(), reasons=("off topic",))
    triage.decide(molecules, ids["10.5555/mol.1"], Decision.KEEP, screening=review)
    triage.decide(
        molecules, ids["10.5555/rl.1"], Decision.DISCARD, screening=review, reason="off topic"
    )
    triage.decide(molecules, ids["10.5555/cv.1"], Decision.DISCARD, screening=review)
    path = tmp_path / f"labelled{suffix}"
    assert labelled.export(molecules, review, path) == 12
    with Desk.open(tmp_path / "elsewhere") as other:
        again = screenings.start(other, "From the file", scope=Scope())
        count, _changes = labelled.read_into(other, again, path)
        assert count == 3
        back = {
            reading.paper(other, paper_id).ids.doi: label
            for paper_id, label in labelled.labels(other, again).items()
        }
    sent = {
        reading.paper(molecules, paper_id).ids.doi: label
        for paper_id, label in labelled.labels(molecules, review).items()
    }
    if suffix == ".ris":  # RIS notes carry the label, not the reason
        sent = {doi: (label, None) for doi, (label, _reason) in sent.items()}
    assert back == sent and sent["10.5555/rl.1"][0] is False


def test_a_screening_refuses_what_it_cannot_go_through() -> None:
    with pytest.raises(InvalidValueError):
        Screening("Chosen", scope=Scope(Kind.IDS, ids=(1, 2)))
    with pytest.raises(InvalidValueError):
        Screening(" ")

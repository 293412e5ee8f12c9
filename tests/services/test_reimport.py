"""The same paper from two sources becomes one record; re-importing reports a diff."""

from __future__ import annotations

import json
from pathlib import Path

from paperdesk.core.models import Status
from paperdesk.core.text import fingerprint
from paperdesk.services.runtime.desk import Desk
from paperdesk.services.use_cases import editing, importing, notes, searching, shortlists, tagging
from paperdesk.store.sqlite_copies import backup_reason, backups_in
from tests.services.conftest import SEEDS, paper_with

PMLR_BIB = Path(__file__).parent / "fixtures" / "icml2025_pmlr.bib"
TTT_START = "Self-attention performs well in long context"
SCALING_START = "Scaling laws are powerful tools"
TTT_AUTHORS = (
    "Yu Sun",
    "Xinhao Li",
    "Karan Dalal",
    "Jiarui Xu",
    "Arjun Vikram",
    "Genghan Zhang",
    "Yann Dubois",
    "Xinlei Chen",
    "Xiaolong Wang",
    "Sanmi Koyejo",
    "Tatsunori Hashimoto",
    "Carlos Guestrin",
)
NEW_ABSTRACT = (
    "Retrieval-augmented generation grounds language models in external documents, yet "
    "which passages a model actually relies on remains hard to tell. We introduce a "
    "counterfactual attribution score that removes one passage at a time and measures the "
    "change in the answer's likelihood. Across four question answering benchmarks the score "
    "identifies supporting passages more reliably than attention weights or gradients, and "
    "it flags answers that no retrieved passage supports."
)


def import_one(desk: Desk, path: Path) -> importing.FileReport:
    report = importing.import_files(desk, [path])
    assert not report.failed, report.summary()
    return report.files[0]


def test_pmlr_records_fill_real_titles_and_authors_into_seed_papers_keeping_user_data(
    desk: Desk,
) -> None:
    ttt, scaling = paper_with(desk, TTT_START), paper_with(desk, SCALING_START)
    tagging.add_tags(desk, [ttt, scaling], ["to-discuss"])
    notes.set_note(desk, ttt, "Compare with Mamba before the group meeting.")
    editing.set_status(desk, [ttt], Status.TO_READ)
    editing.set_rating(desk, [ttt], 5)
    shortlists.create(desk, "reading group")
    shortlists.add(desk, "reading group", [ttt])
    seed_scaling = desk._library.papers.get(scaling)
    # The Unicode spelling (3.5×) misses the exact fingerprint: only similarity finds it.
    bib_abstract = PMLR_BIB.read_text(encoding="utf-8").split("3.5×")[0]
    assert fingerprint("", bib_abstract) != seed_scaling.fingerprint

    report = import_one(desk, PMLR_BIB)

    assert (report.added, report.merged, report.unchanged) == (0, 2, 0), report.summary()
    assert desk._library.papers.count() == 38
    paper = desk._library.papers.get(ttt)
    assert paper.title == "Learning to (Learn at Test Time): RNNs with Expressive Hidden States"
    assert not paper.title_is_derived and paper.authors == TTT_AUTHORS
    assert paper.ids.url == "https://proceedings.mlr.press/v267/sun25h.html"
    assert paper.tags == ("to-discuss",) and paper.shortlists == ("reading group",)
    assert paper.note == "Compare with Mamba before the group meeting."
    assert paper.status is Status.TO_READ and paper.rating == 5
    assert paper.venue == "ICML"  # the stored venue stays; the PMLR one is an alternative
    stored = desk._library.papers.stored_values([ttt])
    alternatives = json.loads(stored[ttt]["alternatives"])
    assert alternatives["venue"] == [
        "Proceedings of the 42nd International Conference on Machine Learning"
    ]
    merged = desk._library.papers.get(scaling)
    assert merged.title == "Scaling Inference-Efficient Language Models"
    assert merged.authors == ("Song Bian", "Minghao Yan", "Shivaram Venkataraman")
    assert merged.abstract == seed_scaling.abstract and merged.tags == ("to-discuss",)
    assert searching.find_ids(desk, "author:Guestrin").ids == [ttt]
    assert searching.find_ids(desk, '"inference-efficient language models"').ids[0] == scaling


def test_importing_the_bibtex_file_again_reports_it_unchanged(desk: Desk) -> None:
    import_one(desk, PMLR_BIB)
    report = import_one(desk, PMLR_BIB)
    assert report.previously_imported
    assert (report.added, report.updated, report.merged, report.unchanged, report.missing) == (
        0,
        0,
        0,
        2,
        0,
    )
    assert "nothing new" in report.summary()


def test_a_seed_file_imported_again_after_another_source_reports_unchanged(desk: Desk) -> None:
    import_one(desk, PMLR_BIB)
    generation = desk._library.generation()
    report = import_one(desk, SEEDS[1])
    assert (report.added, report.updated, report.merged, report.unchanged, report.missing) == (
        0,
        0,
        0,
        19,
        0,
    )
    assert report.summary().endswith("0 missing since last import - nothing new")
    ttt = desk._library.papers.get(paper_with(desk, TTT_START))
    assert not ttt.title_is_derived  # the seed list's derived title did not come back
    assert desk._library.generation() == generation + 1  # only the batch was recorded


def newer_version(seed: Path, folder: Path) -> tuple[Path, str, str, str]:
    """The same list a week later: one paragraph removed, one added, one edited."""
    header, *paragraphs = [p.strip() for p in seed.read_text(encoding="utf-8").split("\n\n")]
    removed = paragraphs.pop(5)
    edited_index = next(i for i, p in enumerate(paragraphs) if p.startswith(TTT_START))
    original = paragraphs[edited_index]
    edited = original.replace("Self-attention performs well", "Self-attention works well")
    edited = edited.replace("modern RNN", "modern recurrent network")
    paragraphs[edited_index] = edited
    paragraphs.insert(3, NEW_ABSTRACT)
    newer = folder / seed.name  # the same file name: the app sees a new version of it
    newer.write_text("\n\n".join([header, *paragraphs]) + "\n", encoding="utf-8")
    return newer, removed, original, edited


def test_a_newer_version_of_a_list_reports_new_updated_unchanged_and_missing(
    desk: Desk, tmp_path: Path
) -> None:
    ttt = paper_with(desk, TTT_START)
    tagging.add_tags(desk, [ttt], ["rnn"])
    newer, removed, _original, edited = newer_version(SEEDS[1], tmp_path)

    report = import_one(desk, newer)

    assert (report.added, report.updated, report.merged, report.unchanged, report.missing) == (
        1,
        1,
        0,
        17,
        1,
    )
    assert "1 added, 1 updated, 0 merged, 17 already present, 1 missing since last import" in (
        report.summary()
    )
    assert desk._library.papers.count() == 39  # a paper missing from the list stays in the library
    updated = desk._library.papers.get(ttt)
    assert updated.abstract == edited and updated.tags == ("rnn",)
    assert searching.find_ids(desk, '"modern recurrent network"').ids == [ttt]
    assert paper_with(desk, removed[:60]) and paper_with(desk, NEW_ABSTRACT[:60])

    again = import_one(desk, newer)
    assert (again.added, again.updated, again.unchanged, again.missing) == (0, 0, 19, 0)


def test_a_newer_list_never_replaces_a_title_the_user_gave(desk: Desk, tmp_path: Path) -> None:
    ttt = paper_with(desk, TTT_START)
    editing.set_title(desk, ttt, "TTT layers")
    newer, _removed, _original, edited = newer_version(SEEDS[1], tmp_path)
    import_one(desk, newer)
    paper = desk._library.papers.get(ttt)
    assert paper.title == "TTT layers" and paper.abstract == edited


def test_two_versions_of_one_title_in_a_file_stay_unchanged_on_reimport(
    empty_desk: Desk, tmp_path: Path
) -> None:
    # Like a workshop and a conference version in one list: one title, two abstracts.
    first, second = (p for p in SEEDS[0].read_text(encoding="utf-8").split("\n\n")[1:3])
    versions = tmp_path / "versions.bib"
    versions.write_text(
        "".join(
            f"@inproceedings{{v{n}, title = {{Learning to Search with Networks}},\n"
            f"  year = {{2018}}, abstract = {{{abstract.strip()}}}}}\n"
            for n, abstract in enumerate((first, second))
        ),
        encoding="utf-8",
    )
    assert import_one(empty_desk, versions).added == 1
    kept = empty_desk._library.papers.get(1).abstract
    again = import_one(empty_desk, versions)
    # Counted per entry (issue 9: every entry read is accounted for): both met paper 1.
    assert (again.read, again.updated, again.merged, again.unchanged) == (2, 0, 0, 2)
    assert [(m.paper_id, m.outcome) for m in again.matches] == [(1, "unchanged")] * 2
    assert empty_desk._library.papers.get(1).abstract == kept


def test_an_import_that_changes_nothing_takes_no_backup(desk: Desk) -> None:
    # Seen at 100,000 papers: re-importing a file already in the library copied the
    # whole database first (a GUI block and seconds of disk) though nothing could be lost.
    report = importing.import_files(desk, SEEDS)
    assert not report.failed, report.summary()
    assert all(f.added == 0 and f.updated == 0 for f in report.files)
    assert import_backups(desk) == []
    importing.import_files(desk, [PMLR_BIB])
    assert len(import_backups(desk)) == 1, "an import that adds papers takes one"


def import_backups(desk: Desk) -> list[Path]:
    return [p for p in backups_in(desk.backup_dir) if backup_reason(p) == "import"]

"""The JSON backup document: what is written reads back the same, and every kind of
damage is refused with the place it is at (issue 5, part 5)."""

from __future__ import annotations

import copy
import io
import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paperdesk.core.errors import FormatError
from paperdesk.core.models import Status
from paperdesk.formats.backup import (
    SECTIONS,
    VERSION,
    BackupState,
    read_backup_document,
    write_backup_document,
)
from paperdesk.formats.registry import is_backup

CREATED = datetime(2025, 7, 1, 12, 30, 5)


def paper(paper_id: int, **values: Any) -> dict[str, Any]:
    return {
        "id": paper_id,
        "title": f"Paper {paper_id}",
        "title_is_derived": False,
        "title_key": f"paper {paper_id}",
        "venue": "ICML",
        "year": 2025,
        "abstract": "We study $O(n \\log n)$ attention.\n\nSecond paragraph.",
        "doi": None,
        "arxiv": "2501.00001",
        "openreview": None,
        "url": None,
        "entry_type": None,
        "citation_key": None,
        "status": "new",
        "rating": 0,
        "added": datetime(2025, 6, 1, 9, 0, 0),
        "updated": datetime(2025, 6, 2, 9, 0, 0, 120),
        "fingerprint": f"fp{paper_id}",
        "raw_fields": [["title", "Paper {" + str(paper_id) + "}"]],
        "alternatives": {"venue": ["NeurIPS"]},
        "authors": ["Ada Lovelace", "Émilie du Châtelet"],
        **values,
    }


def sample_state() -> BackupState:
    return {
        "papers": [
            paper(1, citation_key="lovelace2025paper", status="to-read", rating=5),
            paper(3, title="~derived", title_is_derived=True, title_key=None, authors=[]),
        ],
        "tags": [
            {"id": 1, "name": "ml/rnn", "colour": "#ff8800"},
            {"id": 4, "name": "É", "colour": None},
            {"id": 5, "name": "é", "colour": None},
        ],
        "paper_tags": [{"paper_id": 1, "tag_id": 1}, {"paper_id": 3, "tag_id": 1}],
        "notes": [
            {
                "paper_id": 3,
                "body": "Compare with Mamba; read §3 first\n- `}` % \\ # &",
                "created": datetime(2025, 6, 3, 8, 0),
                "updated": datetime(2025, 6, 4, 8, 0),
            }
        ],
        "shortlists": [
            {"id": 2, "name": "Reading group", "created": CREATED, "entries": [3, 1]},
            {"id": 3, "name": "empty", "created": CREATED, "entries": []},
        ],
        "saved_searches": [
            {"id": 1, "name": "good ones", "query": "rating:>=4 tag:ml", "created": CREATED}
        ],
        "import_batches": [
            {
                "id": 1,
                "label": "ICML 2025 论文列表",
                "file_name": "000.txt",
                "sha256": "ab" * 32,
                "format": "seedlist",
                "added": 2,
                "merged": 0,
                "unchanged": 0,
                "skipped": 1,
                "imported_at": CREATED,
                "paper_ids": [1, 3],
            }
        ],
        "not_duplicates": [{"paper_a": 1, "paper_b": 3}],
        "annotations": [
            {
                "id": 2,
                "paper_id": 1,
                "start": 9,
                "stop": 29,
                "quote": "$O(n \\log n)$ attention",
                "colour": "#fff59d",
                "comment": "the claim to check",
                "created": CREATED,
            }
        ],
        "decisions": [
            {
                "id": 1,
                "paper_id": 3,
                "decision": "discard",
                "at": CREATED,
                "screening_id": 1,
                "reason": "wrong population",
                "member": "alice",
                "resolves": False,
            },
            {
                "id": 2,
                "paper_id": 1,
                "decision": "keep",
                "at": CREATED + timedelta(seconds=4),
                "screening_id": None,
                "reason": None,
                "member": None,
                "resolves": True,
            },
        ],
        "highlight_words": [{"word": "attention"}, {"word": "Mamba"}],
        "screenings": [
            {
                "id": 1,
                "name": "Diffusion review",
                "scope_kind": "all",
                "scope_value": "",
                "query": "diffusion molecules",
                "confine": False,
                "order": "promise",
                "shortlist": "Kept",
                "reasons": '["wrong population", "not a study"]',
                "created": CREATED,
                "used": CREATED,
                "blind": True,
            }
        ],
        "screening_finishes": [{"screening_id": 1, "member": "alice", "at": CREATED}],
        "bibtex_definitions": [
            {"batch_id": 1, "position": 0, "kind": "preamble", "name": "", "value": "\\def\\x{}"},
            {"batch_id": 1, "position": 1, "kind": "string", "name": "jmlr", "value": "JMLR"},
        ],
        "generated_keys": [{"paper_id": 3}],
    }


def written(state: BackupState) -> str:
    stream = io.StringIO()
    write_backup_document(stream, state, CREATED)
    return stream.getvalue()


def test_a_written_backup_reads_back_identical() -> None:
    state = sample_state()
    document = read_backup_document(written(state), "backup.json")
    assert document.created == CREATED
    assert document.state == state


def test_the_file_is_plain_json_with_one_row_per_line_and_is_recognised() -> None:
    text = written(sample_state())
    loaded = json.loads(text)
    assert loaded["paperdesk_backup"] == VERSION
    assert list(loaded) == ["paperdesk_backup", "created", *SECTIONS]
    assert loaded["papers"][1]["updated"] == "2025-06-02T09:00:00.000120"
    assert "Émilie" in text and "论文列表" in text  # readable UTF-8, not \\u escapes
    lines = text.splitlines()
    assert lines[3].startswith('{"id": 1, "title": "Paper 1"') and lines[3].endswith("},")
    assert '"shortlists": [' in lines and '"saved_searches": [' in lines
    assert is_backup(text)


def test_an_empty_library_is_a_valid_backup() -> None:
    empty = {name: [] for name in SECTIONS}
    assert read_backup_document(written(empty), "b.json").state == empty


def broken(change: Any) -> str:
    """A written sample backup with `change(document)` applied to its JSON."""
    document = json.loads(written(sample_state()))
    change(document)
    return json.dumps(document, ensure_ascii=False)


def set_in(path: list[Any], value: Any) -> Any:
    def change(document: Any) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value

    return change


def delete_in(path: list[Any]) -> Any:
    def change(document: Any) -> None:
        target = document
        for step in path[:-1]:
            target = target[step]
        del target[path[-1]]

    return change


DAMAGE = [
    (delete_in(["paperdesk_backup"]), 'not a paperdesk backup: no "paperdesk_backup" key'),
    (set_in(["paperdesk_backup"], VERSION + 1), f"format {VERSION + 1}, written by a newer"),
    (set_in(["paperdesk_backup"], "1"), 'paperdesk_backup: expected a format number, found "1"'),
    (delete_in(["tags"]), "the backup: missing 'tags'"),
    (set_in(["extra"], []), "the backup: unknown field 'extra'"),
    (set_in(["created"], "yesterday"), "created: expected a date and time"),
    (set_in(["papers"], {}), "papers: expected a list, found {}"),
    (set_in(["papers", 1], "paper"), 'papers[1]: expected an object, found "paper"'),
    (delete_in(["papers", 1, "rating"]), "papers[1] (id 3): missing 'rating'"),
    (set_in(["papers", 0, "colour"], "red"), "papers[0] (id 1): unknown field 'colour'"),
    (set_in(["papers", 1, "rating"], 7), "papers[1] (id 3).rating: expected a rating 0-5, found 7"),
    (set_in(["papers", 0, "rating"], True), "papers[0] (id 1).rating: expected a rating 0-5"),
    (set_in(["papers", 0, "status"], "maybe"), "papers[0] (id 1).status: expected one of new,"),
    (set_in(["papers", 0, "id"], 0), "papers[0] (id 0).id: expected an id"),
    (set_in(["papers", 0, "year"], "2025"), "papers[0] (id 1).year: expected a whole number"),
    (set_in(["papers", 0, "title"], None), "papers[0] (id 1).title: expected a string, found null"),
    (set_in(["papers", 0, "title_is_derived"], 1), ".title_is_derived: expected true or false"),
    (set_in(["papers", 0, "added"], "2025-13-01T00:00:00"), "(id 1).added: expected a date"),
    (
        set_in(["papers", 0, "added"], "2025-06-01T09:00:00+02:00"),
        "(id 1).added: expected a local time without a time zone",
    ),
    (set_in(["papers", 0, "authors"], ["Ada", 3]), "(id 1).authors: expected a list of strings"),
    (set_in(["papers", 0, "raw_fields"], [["title"]]), '.raw_fields: expected a list of ["name"'),
    (set_in(["papers", 0, "alternatives"], []), ".alternatives: expected an object, found []"),
    (set_in(["papers", 1, "id"], 1), "papers[1] (id 1).id: 1 repeats papers[0]"),
    (set_in(["papers", 1, "citation_key"], "lovelace2025paper"), "papers[1] (id 3).citation_key"),
    (set_in(["tags", 1, "name"], "ML/RNN"), 'tags[1] (id 4).name: "ML/RNN" repeats tags[0]'),
    (set_in(["shortlists", 1, "name"], "READING GROUP"), "shortlists[1] (id 3).name"),
    (set_in(["saved_searches", 0, "query"], 4), "saved_searches[0] (id 1).query: expected a st"),
    (set_in(["paper_tags", 1, "tag_id"], 9), "paper_tags[1].tag_id: no tag with id 9 in the back"),
    (set_in(["paper_tags", 1, "paper_id"], 1), "paper_tags[1].paper_id+tag_id: [1, 1] repeats"),
    (set_in(["notes", 0, "paper_id"], 2), "notes[0].paper_id: no paper with id 2"),
    (set_in(["shortlists", 0, "entries"], [3, 8]), "shortlists[0] (id 2).entries: no paper with"),
    (set_in(["shortlists", 0, "entries"], [3, 3]), "(id 2).entries: paper 3 is listed twice"),
    (set_in(["import_batches", 0, "paper_ids"], [1, "3"]), ".paper_ids: expected a list of ids"),
    (set_in(["not_duplicates", 0, "paper_b"], 4), "not_duplicates[0].paper_b: no paper with id 4"),
    (delete_in(["annotations"]), "the backup: missing 'annotations'"),
    (set_in(["annotations", 0, "paper_id"], 5), "annotations[0] (id 2).paper_id: no paper with"),
    (set_in(["annotations", 0, "stop"], "29"), "annotations[0] (id 2).stop: expected a whole"),
    (set_in(["decisions", 1, "decision"], "later"), "(id 2).decision: expected one of keep, maybe"),
    (set_in(["decisions", 1, "id"], 1), "decisions[1] (id 1).id: 1 repeats decisions[0]"),
    (set_in(["highlight_words", 1, "word"], "ATTENTION"), 'highlight_words[1].word: "ATTENTION"'),
    (set_in(["bibtex_definitions", 0, "batch_id"], 4), "no import batch with id 4"),
    (set_in(["bibtex_definitions", 1, "kind"], "macro"), "expected one of preamble, string"),
    (set_in(["generated_keys", 0, "paper_id"], 9), "generated_keys[0].paper_id: no paper with"),
]


def test_a_format_3_backup_has_no_bibtex_definitions_and_reads_with_them_empty() -> None:
    document = json.loads(written(sample_state()))
    _as_format_4(document)
    document["paperdesk_backup"] = 3
    for name in ("bibtex_definitions", "generated_keys"):
        del document[name]
    state = read_backup_document(json.dumps(document), "old.json").state
    assert state["bibtex_definitions"] == state["generated_keys"] == []
    assert state["import_batches"] == sample_state()["import_batches"]


def test_a_format_1_backup_has_no_triage_sections_and_reads_with_them_empty() -> None:
    document = json.loads(written(sample_state()))
    document["paperdesk_backup"] = 1
    for name in ("annotations", "decisions", "highlight_words", "screenings"):
        del document[name]
    for name in ("bibtex_definitions", "generated_keys", "screening_finishes"):
        del document[name]
    state = read_backup_document(json.dumps(document), "old.json").state
    assert state["annotations"] == state["decisions"] == state["highlight_words"] == []
    assert state["papers"] == sample_state()["papers"]


def test_a_format_2_backup_has_no_screenings_and_its_decisions_belong_to_none() -> None:
    document = json.loads(written(sample_state()))
    document["paperdesk_backup"] = 2
    for name in ("screenings", "bibtex_definitions", "generated_keys", "screening_finishes"):
        del document[name]
    for row in document["decisions"]:
        del row["screening_id"], row["reason"], row["member"], row["resolves"]
    state = read_backup_document(json.dumps(document), "old.json").state
    assert state["screenings"] == []
    assert [(d["screening_id"], d["reason"]) for d in state["decisions"]] == [(None, None)] * 2


def _as_format_4(document: dict[str, Any]) -> None:
    """A format 5 backup as format 4 wrote it: no blind screening in it."""
    document["paperdesk_backup"] = 4
    del document["screening_finishes"]
    for row in document["decisions"]:
        del row["member"], row["resolves"]
    for row in document["screenings"]:
        del row["blind"]


def test_a_format_4_backup_has_no_blind_screening_and_its_decisions_are_nobodys() -> None:
    document = json.loads(written(sample_state()))
    _as_format_4(document)
    state = read_backup_document(json.dumps(document), "old.json").state
    assert state["screening_finishes"] == []
    assert [(d["member"], d["resolves"]) for d in state["decisions"]] == [(None, False)] * 2
    assert [s["blind"] for s in state["screenings"]] == [False]
    assert state["papers"] == sample_state()["papers"]


def test_a_finish_of_a_screening_not_in_the_backup_is_refused() -> None:
    state = sample_state()
    state["screening_finishes"] = [{"screening_id": 9, "member": "bob", "at": CREATED}]
    with pytest.raises(FormatError, match=r"screening_finishes\[0\].*no screening with id 9"):
        read_backup_document(written(state), "lib.json")


@pytest.mark.parametrize(("change", "message"), DAMAGE)
def test_damage_is_refused_naming_where_it_is(change: Any, message: str) -> None:
    with pytest.raises(FormatError) as caught:
        read_backup_document(broken(change), "lib.json")
    assert caught.value.file == "lib.json"
    assert message in caught.value.reason


def test_tags_differing_only_in_non_ascii_case_are_two_tags_as_in_the_library() -> None:
    # SQLite's NOCASE (the tag name collation) folds A-Z only; "É" and "é" coexist.
    names = [t["name"] for t in read_backup_document(written(sample_state()), "b").state["tags"]]
    assert {"É", "é"} <= set(names)


def test_a_cut_short_backup_says_so_with_the_line() -> None:
    text = written(sample_state())
    cut = text[: text.index('"tags"') + 20]
    with pytest.raises(FormatError) as caught:
        read_backup_document(cut, "lib.json")
    assert "not a complete JSON document (cut short?)" in caught.value.reason
    assert caught.value.line == cut.count("\n") + 1
    assert str(caught.value).startswith(f"lib.json:{caught.value.line}: ")


def test_a_byte_order_mark_is_accepted() -> None:
    assert read_backup_document("\ufeff" + written(sample_state()), "b").state == sample_state()


def test_the_reader_does_not_change_what_it_was_given() -> None:
    text = broken(set_in(["papers", 0, "rating"], 4))
    before = copy.deepcopy(json.loads(text))
    state = read_backup_document(text, "b").state
    assert state["papers"][0]["rating"] == 4
    assert json.loads(text) == before


# ----------------------------------------------------------------------- properties

texts = st.text(max_size=40)
maybe_texts = st.none() | texts
times = st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2100, 1, 1)) | st.just(
    datetime(2025, 1, 1) + timedelta(microseconds=1)
)


@st.composite
def states(draw: st.DrawFn) -> BackupState:
    paper_ids = draw(st.lists(st.integers(1, 10**9), unique=True, max_size=4))
    papers = [
        {
            "id": paper_id,
            "title": draw(texts),
            "title_is_derived": draw(st.booleans()),
            "title_key": draw(maybe_texts),
            "venue": draw(maybe_texts),
            "year": draw(st.none() | st.integers(-(2**62), 2**62)),
            "abstract": draw(texts),
            "doi": draw(maybe_texts),
            "arxiv": draw(maybe_texts),
            "openreview": draw(maybe_texts),
            "url": draw(maybe_texts),
            "entry_type": draw(maybe_texts),
            "citation_key": f"key{paper_id}" if draw(st.booleans()) else None,
            "status": draw(st.sampled_from([s.value for s in Status])),
            "rating": draw(st.integers(0, 5)),
            "added": draw(times),
            "updated": draw(times),
            "fingerprint": draw(texts),
            "raw_fields": draw(st.lists(st.lists(texts, min_size=2, max_size=2), max_size=3)),
            "alternatives": draw(st.dictionaries(texts, st.lists(texts, max_size=2), max_size=2)),
            "authors": draw(st.lists(texts, max_size=4)),
        }
        for paper_id in paper_ids
    ]
    tag_names = draw(st.lists(texts, unique_by=lambda n: n.lower(), max_size=4))
    tags = [
        {"id": i, "name": name, "colour": draw(st.none() | st.just("#00ff00"))}
        for i, name in enumerate(tag_names, start=1)
    ]
    pairs = draw(
        st.lists(
            st.tuples(st.sampled_from(paper_ids), st.sampled_from([t["id"] for t in tags])),
            unique=True,
            max_size=6,
        )
        if paper_ids and tags
        else st.just([])
    )
    noted = draw(st.lists(st.sampled_from(paper_ids), unique=True) if paper_ids else st.just([]))
    ordered = draw(st.permutations(paper_ids))
    return {
        "papers": papers,
        "tags": tags,
        "paper_tags": [{"paper_id": p, "tag_id": t} for p, t in pairs],
        "notes": [
            {"paper_id": p, "body": draw(texts), "created": draw(times), "updated": draw(times)}
            for p in noted
        ],
        "shortlists": [
            {"id": 7, "name": draw(texts), "created": draw(times), "entries": list(ordered)}
        ],
        "saved_searches": [
            {"id": 1, "name": draw(texts), "query": draw(texts), "created": draw(times)}
        ],
        "import_batches": [
            {
                "id": 3,
                "label": draw(texts),
                "file_name": draw(texts),
                "sha256": draw(texts),
                "format": draw(texts),
                "added": draw(st.integers(0, 10**6)),
                "merged": 0,
                "unchanged": 0,
                "skipped": 0,
                "imported_at": draw(times),
                "paper_ids": sorted(paper_ids),
            }
        ],
        "not_duplicates": [],
        "annotations": [
            {
                "id": number,
                "paper_id": paper_id,
                "start": draw(st.integers(0, 10**6)),
                "stop": draw(st.integers(0, 10**6)),
                "quote": draw(texts),
                "colour": "#b9f6ca",
                "comment": draw(texts),
                "created": draw(times),
            }
            for number, paper_id in enumerate(noted, start=1)
        ],
        "decisions": [
            {
                "id": number,
                "paper_id": paper_id,
                "decision": draw(st.sampled_from(["keep", "maybe", "discard"])),
                "at": draw(times),
                "screening_id": None,
                "reason": draw(st.none() | texts),
                "member": draw(st.none() | texts),
                "resolves": draw(st.booleans()),
            }
            for number, paper_id in enumerate(ordered, start=1)
        ],
        "highlight_words": [
            {"word": word} for word in draw(st.lists(texts, unique_by=str.lower, max_size=3))
        ],
        "screenings": [],
        "screening_finishes": [],
        "bibtex_definitions": [
            {"batch_id": 3, "position": position, "kind": kind, "name": name, "value": value}
            for position, (kind, name, value) in enumerate(
                draw(
                    st.lists(
                        st.tuples(st.sampled_from(["preamble", "string"]), texts, texts),
                        max_size=3,
                    )
                )
            )
        ],
        "generated_keys": [{"paper_id": paper_id} for paper_id in sorted(noted)],
    }


@settings(max_examples=50)
@given(states())
def test_any_state_round_trips(state: BackupState) -> None:
    assert read_backup_document(written(state), "b.json").state == state

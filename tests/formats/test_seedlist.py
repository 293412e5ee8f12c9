"""Seed lists: the two shipped ICML files, line endings, headers and broken inputs."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.formats.seedlist import looks_like_seedlist, read_seedlist

ABSTRACT_A = (
    "We propose **FooNet**, a novel framework for fast graph search. It finds paths in "
    "$O(n \\log n)$ time on graphs with millions of nodes and beats every baseline we tried."
)
ABSTRACT_B = (
    "Decentralized SGD (D-SGD) is a popular optimization method. We study the "
    "generalization of D-SGD under heavy-tailed noise and prove matching lower bounds."
)


def test_each_shipped_seed_list_gives_nineteen_icml_2025_papers(seed_files: list[Path]) -> None:
    assert len(seed_files) == 2
    for seed in seed_files:
        text = seed.read_text(encoding="utf-8")
        result = read_seedlist(text, seed.name)

        assert result.format == "seedlist"
        assert result.label == "ICML 2025 论文列表"
        assert result.problems == ()
        assert len(result.records) == 19
        assert {(r.venue, r.year) for r in result.records} == {("ICML", 2025)}
        # Header on line 1, then one abstract every other line.
        assert [r.line for r in result.records] == list(range(3, 40, 2))
        lines = text.splitlines()
        for record in result.records:
            assert record.abstract == lines[record.line - 1].strip()
            assert record.title and record.title_is_derived


def test_abstracts_keep_their_markup_and_titles_name_the_method(seed_files: list[Path]) -> None:
    records = [
        r for seed in seed_files for r in read_seedlist(seed.read_text("utf-8"), "x").records
    ]
    docvxqa = next(r for r in records if r.abstract.startswith("We propose **DocVXQA**"))

    assert docvxqa.title.startswith("DocVXQA")
    assert any("$9.8\\%$" in r.abstract for r in records)


def test_paragraphs_over_several_lines_are_joined_and_located_at_their_first_line() -> None:
    text = "NeurIPS 2024 picks\n\n" + ABSTRACT_A.replace(". ", ".\n") + "\n\n\n" + ABSTRACT_B + "\n"

    result = read_seedlist(text, "picks.txt")

    assert [r.line for r in result.records] == [3, 7]
    assert result.records[0].abstract == ABSTRACT_A
    assert result.records[0].title == "FooNet: fast graph search"
    assert result.records[1].abstract == ABSTRACT_B
    assert {(r.venue, r.year) for r in result.records} == {("NeurIPS", 2024)}


def test_crlf_bom_trailing_spaces_and_blank_looking_lines_change_nothing() -> None:
    plain = f"ICML 2025 list\n\n{ABSTRACT_A}\n\n{ABSTRACT_B}\n"
    messy = f"\ufeffICML 2025 list  \r\n \t \r\n{ABSTRACT_A}   \r\n\u3000\r\n{ABSTRACT_B}\r\n"

    assert read_seedlist(messy, "messy.txt") == read_seedlist(plain, "plain.txt")
    assert read_seedlist(messy, "messy.txt").label == "ICML 2025 list"


@pytest.mark.parametrize(
    ("header", "venue", "year"),
    [
        ("ICML 2025 论文列表", "ICML", 2025),
        ("ICML2025 orals", "ICML", 2025),
        ("NIPS 2017", "NeurIPS", 2017),
        ("ICML papers to read", None, None),
        ("Reading list 2025", None, None),
        ("ICML 2025 Workshop on Agents", None, None),
        ("Papers I liked, alt 2024", None, None),
    ],
)
def test_the_header_names_the_batch_and_dates_it_only_with_venue_and_year(
    header: str, venue: str | None, year: int | None
) -> None:
    result = read_seedlist(f"{header}\n\n{ABSTRACT_A}\n", "list.txt")

    assert result.label == header
    assert (result.records[0].venue, result.records[0].year) == (venue, year)


@pytest.mark.parametrize("text", ["", "\ufeff", "  \n\n \r\n\t"])
def test_an_empty_file_is_an_error_naming_it(text: str) -> None:
    with pytest.raises(FormatError) as error:
        read_seedlist(text, "empty.txt")

    assert error.value.file == "empty.txt"
    assert str(error.value) == "empty.txt: the file is empty"


@pytest.mark.parametrize("text", ["ICML 2025 论文列表", "ICML 2025 论文列表\n\n   \n\n"])
def test_a_header_without_abstracts_is_an_error_naming_it(text: str) -> None:
    with pytest.raises(FormatError) as error:
        read_seedlist(text, "seeds/only_header.txt")

    assert str(error.value) == "seeds/only_header.txt: no abstracts found after the header line"


def test_the_shipped_seed_lists_are_recognised_as_seed_lists(seed_files: list[Path]) -> None:
    assert all(looks_like_seedlist(seed.read_text(encoding="utf-8")) for seed in seed_files)
    assert looks_like_seedlist(f"\ufeffMy list\r\n\r\n{ABSTRACT_A}\r\n\r\n{ABSTRACT_B}\r\n")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n  \n",
        f"@article{{foo,\n  title = {{Foo}},\n}}\n\n{ABSTRACT_A}\n",
        f"TY  - JOUR\nTI  - Foo\nER  - \n\n{ABSTRACT_A}\n",
        '[{"title": "Foo", "abstract": "Bar"}]',
        '{"title": "Foo"}\n{"title": "Bar"}\n',
        f'title,abstract,year\nFoo,"{ABSTRACT_A}",2024\n',
        f"title\tabstract\nFoo\t{ABSTRACT_A}\n",
        f"{ABSTRACT_A}\n\n{ABSTRACT_B}\n" * 3 + "x" * 300,
        "Shopping list\n\neggs\n\nmilk\n\nbread\n",
        f"Some notes\n{ABSTRACT_A}\n",
    ],
    ids=[
        "empty",
        "blank",
        "bibtex",
        "ris",
        "json",
        "jsonl",
        "csv",
        "tsv",
        "no-header",
        "short-paragraphs",
        "no-blank-after-header",
    ],
)
def test_other_texts_are_not_taken_for_seed_lists(text: str) -> None:
    assert not looks_like_seedlist(text)

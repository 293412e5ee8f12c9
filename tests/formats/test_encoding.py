"""Bytes to text: the encodings users' exports really come in, and clear failures."""

from __future__ import annotations

import codecs

import pytest

from paperdesk.core.errors import FormatError
from paperdesk.formats.encoding import decode
from tests.conftest import BIB_FILES

ENTRY = "@article{k,\n  author = {Jérôme Müller and Zoë Saldaña},\n  title = {Naïve façade}\n}\n"


@pytest.mark.parametrize(
    ("label", "data"),
    [
        ("utf-8", ENTRY.encode("utf-8")),
        ("utf-8 with BOM", codecs.BOM_UTF8 + ENTRY.encode("utf-8")),
        ("utf-16 LE with BOM", ENTRY.encode("utf-16")),
        ("utf-16 BE with BOM", codecs.BOM_UTF16_BE + ENTRY.encode("utf-16-be")),
        ("utf-16 LE without BOM", ENTRY.encode("utf-16-le")),
        ("utf-16 BE without BOM", ENTRY.encode("utf-16-be")),
        ("windows-1252", ENTRY.encode("cp1252")),
        ("latin-1", ENTRY.encode("latin-1")),
        ("windows line endings", ENTRY.replace("\n", "\r\n").encode("utf-8")),
        ("old mac line endings", ENTRY.replace("\n", "\r").encode("utf-8")),
    ],
)
def test_encodings_decode_to_the_same_text(label: str, data: bytes) -> None:
    assert decode(data, "refs.bib") == ENTRY


def test_gbk_is_detected() -> None:
    text = "@article{k,\n  author = {凯撒},\n  journal = {测试期刊}\n}\n"
    assert decode(text.encode("gbk"), "cnki.bib") == text


def test_jabref_header_decides_between_lookalike_encodings() -> None:
    # 0xA4 is the currency sign in Latin-1 but the euro sign in Latin-9: only the
    # header can tell.
    data = "% Encoding: ISO-8859-15\n\n@misc{k, title = {Prix 5 €}}\n".encode("iso8859_15")
    assert "Prix 5 €" in decode(data, "prices.bib")


@pytest.mark.logs_warnings
def test_header_that_does_not_fit_falls_back_to_detection() -> None:
    data = "% Encoding: UTF-8\n\n@misc{k, author = {Zoë Saldaña}}\n".encode("cp1252")
    assert "Zoë Saldaña" in decode(data, "mislabelled.bib")


def test_declared_encoding_is_obeyed() -> None:
    assert decode("Zoë".encode("cp1252"), "x.csv", declared="cp1252") == "Zoë"


def test_declared_encoding_that_does_not_fit_names_file_and_offset() -> None:
    with pytest.raises(FormatError) as caught:
        decode(b"abc\xffdef", "x.csv", declared="utf-8")
    assert caught.value.file == "x.csv"
    assert "offset 3" in str(caught.value)


def test_unknown_declared_encoding_is_a_format_error() -> None:
    with pytest.raises(FormatError, match="unknown text encoding"):
        decode(b"abc", "x.csv", declared="klingon-8")


def test_binary_file_names_file_and_offset() -> None:
    data = b"%PDF-1.7\n" + bytes(range(256)) * 4
    with pytest.raises(FormatError) as caught:
        decode(data, "paper.pdf")
    message = str(caught.value)
    assert message.startswith("paper.pdf: ")
    assert "offset 9" in message  # the first NUL byte after the 9-byte PDF header


def test_empty_file_is_empty_text() -> None:
    assert decode(b"", "empty.bib") == ""


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("bibtexparser_v2/gbk_test.bib", "journal = {测试期刊}"),
        ("bibtexparser_v1/encoding.bib", "author = {Jean César}"),
        ("jabref/encoding-utf-16BE-with-header.bib", "title = {Ü ist ein Umlaut}"),
        ("jabref/encoding-windows-1252-with-header.bib", "abstract = {25° C}"),
        pytest.param(
            "jabref/encoding-windows-1252-but-utf-8-declared--decoding-fails.bib",
            "Test\xa0I. Last",
            marks=pytest.mark.logs_warnings,  # its header's UTF-8 does not fit: said so
        ),
        ("jabref/tiny-LE-withBOM.bib", "@STRING{ACM-ad = {New York, NY, USA}}"),
        ("bibtexparser_v1/book_bom.bib", "@BOOK"),
    ],
)
def test_shared_files_decode_to_the_right_text(name: str, expected: str) -> None:
    text = decode((BIB_FILES / name).read_bytes(), name)
    assert expected in text
    assert "\ufeff" not in text
    assert "\r" not in text

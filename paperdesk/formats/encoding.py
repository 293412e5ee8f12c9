"""Turning a file's bytes into text, whatever encoding its exporter chose.

Order of evidence, strongest first: a byte-order mark; an encoding the caller was told
(a user's explicit choice, which is never second-guessed); a JabRef `% Encoding: X`
header; plain UTF-8; then charset-normalizer's guess among the encodings bibliography
files really come in. Line endings become `\\n`, as Python's own text files do, so
every reader counts lines the same way.
"""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass

from charset_normalizer import CharsetMatch, from_bytes

from paperdesk.core.errors import FormatError

log = logging.getLogger(__name__)

# Longest marks first: the UTF-32-LE mark starts with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)

# JabRef writes `% Encoding: windows-1252` as the first line of the files it saves.
_JABREF_HEADER = re.compile(rb"^%\s*Encoding:\s*([\w.:\-]+)", re.IGNORECASE | re.MULTILINE)
_HEADER_ZONE = 512

# What the detector may answer, most likely first. Short files give it little to go
# on: with every code page allowed, a two-word GBK file reads as Korean cp949 and a
# Windows-1252 no-break space as Baltic cp775. These are the encodings bibliography
# exports are really written in; when the detector rates several equally, the earlier
# one wins (so Spanish `ñ` stays `ñ` rather than becoming Central European `ń`).
_SINGLE_AND_MULTI_BYTE = (
    "utf_8",
    "cp1252",
    "cp1251",
    "gb18030",
    "iso8859_15",
    "latin_1",
    "cp1250",
    "koi8_r",
    "big5",
    "shift_jis",
    "euc_jp",
)
_WIDE = ("utf_16_le", "utf_16_be", "utf_32_le", "utf_32_be")

_NEWLINES = re.compile(r"\r\n?")


# UTF-16 or UTF-32 text without a byte-order mark has a NUL in most characters; a few
# NULs in a file are junk in a text file (a crashed editor, a binary paste).
_WIDE_NUL_SHARE = 0.1
_NUL_SAMPLE = 65_536


def without_stray_nul_bytes(data: bytes) -> tuple[bytes, list[int]]:
    """The data without NUL bytes, and the lines (from 1) they were on, when they are
    stray; the data unchanged when there are none, or so many that it is UTF-16/32."""
    if b"\x00" not in data or any(data.startswith(bom) for bom, _ in _BOMS):
        return data, []
    sample = data[:_NUL_SAMPLE]
    if sample.count(0) >= _WIDE_NUL_SHARE * len(sample):
        return data, []
    lines: list[int] = []
    position = data.find(b"\x00")
    line, counted_to = 1, 0
    while position >= 0:
        line += data.count(b"\n", counted_to, position)
        counted_to = position
        if not lines or lines[-1] != line:
            lines.append(line)
        position = data.find(b"\x00", position + 1)
    return data.replace(b"\x00", b""), lines


def decode(data: bytes, file_name: str, declared: str | None = None) -> str:
    """The file's text with `\\n` line endings; FormatError names the file and byte offset."""
    return decode_telling(data, file_name, declared)[0]


def decode_telling(
    data: bytes, file_name: str, declared: str | None = None
) -> tuple[str, Guess | None]:
    """`decode`, and what was guessed when the file was not UTF-8 and said nothing of
    its encoding (no byte-order mark, no JabRef header, no encoding given)."""
    guessed: list[Guess] = []
    text = _NEWLINES.sub("\n", _decode(data, file_name, declared, guessed.append))
    return text, (guessed[0] if guessed else None)


@dataclass(frozen=True)
class Guess:
    """An encoding charset-normalizer chose, and where the file stopped being UTF-8."""

    encoding: str
    line: int  # of the first byte that is not UTF-8, from 1
    byte: int

    def warning(self) -> str:
        return (
            f"not UTF-8 (byte 0x{self.byte:02x} on this line): the file was read as "
            f"{self.encoding}, the encoding that fits its bytes best; if letters look "
            "wrong, save it as UTF-8 and import it again"
        )


def _decode(
    data: bytes, file_name: str, declared: str | None, guessed: Callable[[Guess], None]
) -> str:
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return _strict(data, codec, file_name)
    if declared is not None:
        return _strict(data, declared, file_name)

    header = _JABREF_HEADER.search(data[:_HEADER_ZONE])
    if header is not None:
        name = header.group(1).decode("ascii")
        try:
            # A header readable as ASCII cannot be right about UTF-16 or UTF-32.
            if "%".encode(name) == b"%":
                return data.decode(name)
            log.warning("%s: header names %s, but is itself ASCII; detecting", file_name, name)
        except LookupError:
            log.warning("%s: unknown encoding %r in its header; detecting instead", file_name, name)
        except UnicodeDecodeError as error:
            log.warning(
                "%s: header says %s but byte %d does not fit it; detecting instead",
                file_name,
                name,
                error.start,
            )

    # NUL bytes are valid UTF-8 but never in a text file: they mean UTF-16/32 without a
    # byte-order mark, which the detector recognises.
    first_bad_byte = data.find(b"\x00")
    if first_bad_byte < 0:
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as error:
            first_bad_byte = error.start

    guess = _detect(data, _WIDE if b"\x00" in data else _SINGLE_AND_MULTI_BYTE)
    if guess is None:
        raise FormatError(
            file_name,
            f"cannot tell the text encoding: byte 0x{data[first_bad_byte]:02x} at offset "
            f"{first_bad_byte} is not UTF-8 text and no other supported encoding fits",
        )
    log.info("%s: not UTF-8, read as %s", file_name, guess.encoding)
    line = data.count(b"\n", 0, first_bad_byte) + 1
    guessed(Guess(guess.encoding, line, data[first_bad_byte]))
    return str(guess)


def _detect(data: bytes, candidates: tuple[str, ...]) -> CharsetMatch | None:
    """charset-normalizer's best match, ties broken by the order of `candidates`."""
    matches = list(from_bytes(data, cp_isolation=list(candidates)))
    if not matches:
        return None
    best = min((match.chaos, -match.coherence) for match in matches)
    tied = [match for match in matches if (match.chaos, -match.coherence) == best]
    return min(tied, key=lambda match: candidates.index(match.encoding))


def _strict(data: bytes, codec: str, file_name: str) -> str:
    try:
        return data.decode(codec)
    except LookupError:
        raise FormatError(file_name, f"unknown text encoding {codec!r}") from None
    except UnicodeDecodeError as error:
        raise FormatError(
            file_name,
            f"not valid {codec}: byte 0x{data[error.start]:02x} at offset {error.start} "
            f"cannot be decoded",
        ) from None

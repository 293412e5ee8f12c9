"""Keys for the terminal triage: one key at a time at a terminal, lines otherwise.

At a terminal the loop reads single keys (the terminal in cbreak mode: no Enter, and
Ctrl+C still interrupts); the few commands that take text (tags, a note) ask for a
line with the terminal back in its usual mode. From a pipe or a script it reads one
command a line, the text after the key on the same line (`t later, maths`).
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from typing import Any, TextIO

#: The arrow keys' escape sequences, as the loop's letters (down/right next, up/left back).
_ARROWS = {"A": "k", "B": "j", "C": "j", "D": "k"}
_ESCAPE = "\x1b"
#: Ctrl+D at a terminal ends the loop as the end of piped input does.
_END = "\x04"


class KeySource:
    """`key()` is the next command key and its text (a line's rest), "" at the end."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.single = _is_terminal(stream)
        self._saved: list[Any] | None = None

    @contextlib.contextmanager
    def reading(self) -> Iterator[KeySource]:
        """Keys one at a time for the block's duration (at a terminal)."""
        if not self.single:
            yield self
            return
        import termios
        import tty

        fd = self.stream.fileno()
        self._saved = termios.tcgetattr(fd)
        try:
            tty.setcbreak(fd)
            yield self
        finally:
            termios.tcsetattr(fd, termios.TCSADRAIN, self._saved)
            self._saved = None

    def key(self) -> tuple[str, str]:
        """(key, the rest of its line): ("", "") when the input ended."""
        if not self.single:
            line = self.stream.readline()
            if not line:
                return "", ""
            command, _, rest = line.strip().partition(" ")
            return command.lower(), rest.strip()
        char = self._char()
        if char in ("", _END):
            return "", ""
        if char == _ESCAPE:
            if self._char() == "[":
                return _ARROWS.get(self._char(), "?"), ""
            return "?", ""
        return ("?" if char in "\r\n" else char.lower()), ""

    def text(self, prompt: str, given: str, out: TextIO) -> str:
        """The text a command takes: given on its line, or asked for at a terminal."""
        if given or not self.single:
            return given
        print(prompt, end="", file=out, flush=True)
        with self._line_mode():
            return self._line().strip()

    def _line(self) -> str:
        """A line typed at the terminal (read from the descriptor, as the keys are, so
        nothing typed ahead waits in a buffer the keys never see)."""
        data = b""
        while not data.endswith(b"\n"):
            chunk = os.read(self.stream.fileno(), 1024)
            if not chunk:
                break
            data += chunk
        return data.decode("utf-8", "replace")

    def _char(self) -> str:
        data = os.read(self.stream.fileno(), 1)
        return data.decode("utf-8", "replace") if data else ""

    @contextlib.contextmanager
    def _line_mode(self) -> Iterator[None]:
        import termios

        if self._saved is None:
            yield
            return
        fd = self.stream.fileno()
        termios.tcsetattr(fd, termios.TCSADRAIN, self._saved)
        try:
            yield
        finally:
            import tty

            tty.setcbreak(fd)


def _is_terminal(stream: TextIO) -> bool:
    if sys.platform == "win32":
        return False  # termios is POSIX: lines there
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False

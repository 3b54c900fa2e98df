"""Progress on stderr that reads well in a terminal and in a log file.

In a terminal one line is rewritten in place (``\\r``); redirected to a file, the same progress
is a new line at each tenth of the work, so a log never piles up carriage returns.
"""

from __future__ import annotations

import sys
from typing import TextIO


class ProgressLine:
    """``update(done, total)`` as the work goes, ``close()`` at the end."""

    def __init__(self, label: str, *, stream: TextIO | None = None, quiet: bool = False) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.quiet = quiet
        self.tty = self.stream.isatty()
        self._shown = -1
        self._open = False

    def update(self, done: int, total: int | None, unit: str = "") -> None:
        if self.quiet:
            return
        of = f"/{total}" if total else ""
        text = f"{self.label} {done}{of}{unit}"
        if self.tty:
            print(f"\r{text}", end="", file=self.stream, flush=True)
            self._open = True
            return
        tenth = 10 * done // total if total else done
        if tenth != self._shown and (total is None or tenth < 10 or done == total):
            self._shown = tenth
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self._open:
            print(file=self.stream, flush=True)
            self._open = False

"""Progress on stderr that reads well in a terminal and in a log file: the one progress
helper of the package (commands, training, data building).

In a terminal one line is rewritten in place (``\\r``); redirected to a file, the same progress
is a new line at each tenth of the work, so a log never piles up carriage returns.
:class:`ProgressLine` counts work done, :func:`track` counts the items of a loop, and
:class:`StatusLine` shows that a long wait without counts is still going on.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TextIO, TypeVar

T = TypeVar("T")


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

    def show(self, text: str) -> None:
        """Show ``text`` as the line (rewritten in a terminal, a new line in a log)."""
        if self.quiet:
            return
        if self.tty:
            print(f"\r{text}\033[K", end="", file=self.stream, flush=True)
            self._open = True
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self._open:
            print(file=self.stream, flush=True)
            self._open = False


def track(items: Sequence[T], label: str, *, enabled: bool = True, unit: str = "") -> Iterator[T]:
    """The items, with a :class:`ProgressLine` of how many are done (none when not enabled)."""
    line = ProgressLine(label, quiet=not enabled)
    total = len(items)
    try:
        for done, item in enumerate(items):
            line.update(done, total, unit)
            yield item
        line.update(total, total, unit)
    finally:
        line.close()


class StatusLine:
    """A long wait made visible: after ``after`` seconds, ``text()`` and the seconds elapsed
    every ``every`` seconds (every ``log_every`` seconds in a log) until :meth:`close`.

    Used as a context manager around work that reports nothing for a long time (an exact
    solve of many empties): quick work prints nothing.
    """

    def __init__(
        self,
        text: Callable[[], str],
        *,
        after: float = 2.0,
        every: float = 1.0,
        log_every: float = 30.0,
        stream: TextIO | None = None,
    ) -> None:
        self.text = text
        self.line = ProgressLine("", stream=stream)
        self.after = after
        self.every = every if self.line.tty else log_every
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bitflip-status", daemon=True)
        self._t0 = time.monotonic()

    def _run(self) -> None:
        if self._done.wait(self.after):
            return
        while True:
            seconds = time.monotonic() - self._t0
            self.line.show(f"{self.text()} ({seconds:.0f} s)")
            if self._done.wait(self.every):
                return

    def __enter__(self) -> StatusLine:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._done.set()
        if self._thread.is_alive():
            self._thread.join()
        self.line.close()

"""The one exception every parser raises on malformed input."""

from __future__ import annotations

import os


class FormatError(ValueError):
    """Malformed input: which file, which line or record, which format, what is wrong.

    ``str()`` reads like a compiler message, e.g. ``games.ggf:12: GGF: unknown move 'z9'``
    (a line) or ``WTH_1990.wtb: game 7: WTHOR: illegal move ...`` (a binary record).
    """

    def __init__(
        self,
        fmt: str,
        what: str,
        *,
        path: str | os.PathLike[str] | None = None,
        line: int | None = None,
        record: int | None = None,
    ) -> None:
        self.fmt = fmt
        self.what = what
        self.path = os.fspath(path) if path is not None else None
        self.line = line
        self.record = record
        super().__init__(str(self))

    def located(
        self,
        path: str | os.PathLike[str] | None = None,
        line: int | None = None,
        record: int | None = None,
    ) -> FormatError:
        """A copy with the location filled in where this one has none."""
        return FormatError(
            self.fmt,
            self.what,
            path=self.path if self.path is not None else path,
            line=self.line if self.line is not None else line,
            record=self.record if self.record is not None else record,
        )

    def __str__(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where = f"{where}:{self.line}" if where else f"line {self.line}"
        if self.record is not None:
            where = f"{where}: game {self.record}" if where else f"game {self.record}"
        prefix = f"{where}: " if where else ""
        return f"{prefix}{self.fmt}: {self.what}"

    def __reduce__(self) -> tuple[object, ...]:  # picklable across processes
        return (_rebuild, (self.fmt, self.what, self.path, self.line, self.record))


def _rebuild(
    fmt: str, what: str, path: str | None, line: int | None, record: int | None
) -> FormatError:
    return FormatError(fmt, what, path=path, line=line, record=record)

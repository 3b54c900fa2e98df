"""Read and write games by file extension: the dispatch ``bitflip convert`` uses.

``.txt`` transcripts (one game per line), ``.ggf`` GGS records, ``.wtb`` WTHOR databases hold
games; ``.obf`` holds positions and converts only to itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from bitflip.formats import ggf, transcript, wthor
from bitflip.formats.record import GameRecord

GAME_FORMATS = {".txt": "transcript", ".ggf": "GGF", ".wtb": "WTHOR"}
POSITION_FORMATS = {".obf": "OBF"}


def format_of(path: str | os.PathLike[str]) -> str:
    """The format name of a path from its extension; ValueError names the known ones."""
    ext = Path(path).suffix.lower()
    known = {**GAME_FORMATS, **POSITION_FORMATS}
    if ext not in known:
        raise ValueError(
            f"{os.fspath(path)}: unknown file type {ext or '(none)'!r} (known: {', '.join(known)})"
        )
    return known[ext]


def read_games(
    path: str | os.PathLike[str], *, size: int = 8, passes: bool = True
) -> Iterator[GameRecord]:
    """The games of a ``.txt``, ``.ggf`` or ``.wtb`` file (WTHOR passes written out if asked)."""
    fmt = format_of(path)
    if fmt == "transcript":
        yield from transcript.read(path, size=size)
    elif fmt == "GGF":
        yield from ggf.read(path)
    elif fmt == "WTHOR":
        yield from wthor.read_wtb(path, passes=passes)
    else:
        raise ValueError(f"{os.fspath(path)}: {fmt} files hold positions, not games")


def write_games(
    path: str | os.PathLike[str],
    records: Iterable[GameRecord],
    *,
    passes: bool = False,
    year: int | None = None,
) -> None:
    """Write games to a ``.txt``, ``.ggf`` or ``.wtb`` file (``.wtb`` also writes its names)."""
    fmt = format_of(path)
    if fmt == "transcript":
        transcript.write(path, records, passes=passes)
    elif fmt == "GGF":
        ggf.write(path, records)
    elif fmt == "WTHOR":
        wthor.write_wtb(path, records, year=year)
    else:
        raise ValueError(f"{os.fspath(path)}: {fmt} files hold positions, not games")

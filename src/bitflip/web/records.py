"""Save and load for the web app: a game as a transcript or GGF text, and back.

Reading and writing go through :mod:`bitflip.formats` (``GameRecord``); this module only maps a
web game to a record and tells the format of pasted text. Malformed text raises
:class:`bitflip.formats.errors.FormatError` (a ValueError naming the line and what is wrong).
"""

from __future__ import annotations

import time

from bitflip.core.board import BLACK, WHITE, Board, Color
from bitflip.formats import ggf
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord
from bitflip.formats.transcript import format_transcript, parse_transcript
from bitflip.web.games import GameInfo, GameState

FORMATS = ("transcript", "ggf")


TITLE_TAG = "GN"
"""The GGF tag that holds the game's title (GGF has none of its own; SGF's game name)."""


def record_of(
    state: GameState, names: tuple[str, str] | None = None, path: list[int] | None = None
) -> GameRecord:
    """One line of the game as a record (default: the line shown, to its end).

    A game loaded from a file keeps what the file said (names, place, date, other tags, the
    result of a game that ended before its last move, per-move notes); other games name the
    person "you" and the opponent by its spec.

    Args:
        names: black's and white's player names (None: as above).
        path: tree nodes from the root, e.g. ``state.tree.main_line()``.
    """
    path = path if path is not None else state.path
    start = state.start if state.start != Board(size=state.size).obf() else None
    moves = state.tree.line_moves(path)
    end = Board(state.start)
    for m in moves:
        end.push(m)
    outcome = end.outcome()
    black_score = outcome.black if outcome else None
    info = state.info
    extra: dict[str, str] = {}
    if info is None:
        black, white = (_player(state, c) for c in (BLACK, WHITE))
        place = "bitflip web"
        date = time.strftime("%Y.%m.%d_%H:%M:%S", time.gmtime(state.created))
    else:
        black, white, place, date = info.black, info.white, info.place, info.date
        extra = dict(info.tags)
        if path[-1] == info.end and outcome is None:
            black_score = info.black_score  # the file's result of a game it ends early
        elif path[-1] != info.end:
            extra.pop("RE", None)  # the file's result text is of another line
    if names is not None:
        black, white = names
    if state.title and state.title != _names_title(black, white):
        extra[TITLE_TAG] = state.title  # a title of its own (the names' one comes back anyway)
    notes = [info.notes.get(n, (None, None)) for n in path[1:]] if info else []
    return GameRecord(
        moves=moves,
        size=state.size,
        start=start,
        black=black,
        white=white,
        event=place,
        date=date,
        black_score=black_score,
        extra=extra,
        evals=[e for e, _ in notes] if any(e is not None for e, _ in notes) else [],
        times=[t for _, t in notes] if any(t is not None for _, t in notes) else [],
    )


def _player(state: GameState, color: Color) -> str:
    if state.is_human(color):
        return "" if state.human == "both" else "you"
    return state.opponent


def info_of(record: GameRecord, path: list[int]) -> GameInfo:
    """What ``record`` says beside its moves, for the game whose line ``path`` holds them."""
    tags = {k: v for k, v in record.extra.items() if k != TITLE_TAG}
    notes = {}
    for i, node in enumerate(path[1:]):
        ev = record.evals[i] if i < len(record.evals) else None
        tm = record.times[i] if i < len(record.times) else None
        if ev is not None or tm is not None:
            notes[node] = (ev, tm)
    return GameInfo(
        black=record.black,
        white=record.white,
        place=record.event,
        date=record.date,
        black_score=record.black_score,
        end=path[-1],
        tags=tags,
        notes=notes,
    )


def title_of(record: GameRecord) -> str:
    """The title a loaded game gets: the file's, else its players' names."""
    return record.extra.get(TITLE_TAG) or _names_title(record.black, record.white)


def _names_title(black: str, white: str) -> str:
    return " - ".join(n for n in (black, white) if n)


def detect_format(text: str) -> str:
    return "ggf" if text.lstrip().startswith("(;") else "transcript"


def write(record: GameRecord, fmt: str) -> str:
    if fmt == "transcript":
        return format_transcript(record.moves)
    if fmt == "ggf":
        return ggf.dump_game(record)
    raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def read(text: str, fmt: str = "auto", size: int = 8) -> GameRecord:
    """The game in pasted text (``fmt`` 'auto' tells GGF from a transcript)."""
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "transcript":
        return read_transcript(text, size)
    if fmt == "ggf":
        games = ggf.loads(text)
        if not games:
            raise FormatError("GGF", "no game in the text")
        if len(games) > 1:
            raise FormatError("GGF", f"the text holds {len(games)} games; paste one game at a time")
        return games[0]
    raise ValueError(f"unknown format {fmt!r}; known: auto, {', '.join(FORMATS)}")


def read_transcript(text: str, size: int = 8, start: str | None = None) -> GameRecord:
    """A record of one transcript (passes written out, checked to be legal)."""
    if not text.strip():
        raise FormatError("transcript", "empty transcript")
    board = Board(start) if start else Board(size=size)
    return GameRecord(moves=parse_transcript(text, board.size, start), size=board.size, start=start)

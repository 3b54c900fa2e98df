"""Save and load for the web app: a game as a transcript or GGF text, and back.

Reading and writing go through :mod:`bitflip.formats` (GameRecord); this module only maps a
web game to a record and picks the format of pasted text.
"""

from __future__ import annotations

import re
import time

from bitflip.core.board import Board, IllegalMoveError, InvalidMoveError
from bitflip.core.geometry import PASS, geometry
from bitflip.formats.record import GameRecord
from bitflip.web.games import GameState

FORMATS = ("transcript", "ggf")


def record_of(state: GameState, names: tuple[str, str]) -> GameRecord:
    """The game's whole line as a record; ``names`` are black's and white's player names."""
    start = state.start if state.start != Board(size=state.size).obf() else None
    board = state.board(len(state.line))
    outcome = board.outcome()
    return GameRecord(
        moves=list(state.line),
        size=state.size,
        start=start,
        black=names[0],
        white=names[1],
        date=time.strftime("%Y.%m.%d_%H:%M:%S", time.gmtime(state.created)),
        black_score=outcome.black if outcome else None,
    )


def detect_format(text: str) -> str:
    return "ggf" if text.lstrip().startswith("(;") else "transcript"


def write(record: GameRecord, fmt: str) -> str:
    if fmt == "transcript":
        return write_transcript(record)
    if fmt == "ggf":
        return write_ggf(record)
    raise ValueError(f"unknown format {fmt!r}; known: {', '.join(FORMATS)}")


def read(text: str, fmt: str = "auto", size: int = 8) -> GameRecord:
    """A record from pasted text (``fmt`` 'auto' tells GGF from a transcript)."""
    if fmt == "auto":
        fmt = detect_format(text)
    if fmt == "transcript":
        return read_transcript(text, size)
    if fmt == "ggf":
        return read_ggf(text)
    raise ValueError(f"unknown format {fmt!r}; known: auto, {', '.join(FORMATS)}")


# --- transcripts -------------------------------------------------------------------------------


def write_transcript(record: GameRecord) -> str:
    g = geometry(record.size)
    return "".join(g.square_name(m) for m in record.moves if m != PASS)


def read_transcript(text: str, size: int = 8, start: str | None = None) -> GameRecord:
    """Moves such as 'f5d6C3 d3' (any case, spaces allowed; passes implicit or written 'pa')."""
    compact = "".join(text.split())
    if not compact:
        raise ValueError("empty transcript")
    if len(compact) % 2:
        raise ValueError(f"a transcript is pairs like 'f5'; {compact!r} has an odd length")
    board = Board(start) if start else Board(size=size)
    moves: list[int] = []
    for i in range(0, len(compact), 2):
        name = compact[i : i + 2]
        try:
            m = board.parse_move(name)
            if m != PASS and board.legal_mask() == 0 and not board.is_game_over():
                board.push(PASS)
                moves.append(PASS)
            board.push(m)
        except (InvalidMoveError, IllegalMoveError) as exc:
            why = str(exc).split(" (position")[0]
            raise ValueError(f"transcript move {i // 2 + 1} ({name!r}): {why}") from None
        moves.append(m)
    return GameRecord(moves=moves, size=board.size, start=start)


# --- GGF ---------------------------------------------------------------------------------------

_TAG = re.compile(r"([A-Z]+)\[([^\]]*)\]")


def write_ggf(record: GameRecord) -> str:
    board = record.start_board()
    g = board.geometry
    tags = [("GM", "Othello"), ("PC", "bitflip"), ("DT", record.date)]
    tags += [("PB", record.black), ("PW", record.white)]
    if record.black_score is not None:
        total = board.size * board.size
        diff = 2 * record.black_score - total
        tags.append(("RE", f"{diff:+d}"))
    tags.append(("TY", str(board.size)))
    rows = " ".join(board.board_string()[i * g.size : (i + 1) * g.size] for i in range(g.size))
    side = "*" if board.turn == 0 else "O"
    tags.append(("BO", f"{g.size} {rows.replace('X', '*')} {side}"))
    out = "".join(f"{k}[{v}]" for k, v in tags)
    for m in record.moves:
        tag = "B" if board.turn == 0 else "W"
        out += f"{tag}[{g.square_name(m).upper() if m != PASS else 'PA'}]"
        board.push(m)
    return f"(;{out};)"


def read_ggf(text: str) -> GameRecord:
    """The first game of a GGF text: its start board (BO), moves and player names."""
    body = text.strip()
    if not body.startswith("(;"):
        raise ValueError("a GGF game starts with '(;'")
    end = body.find(";)")
    if end < 0:
        raise ValueError("GGF game not closed with ';)'")
    tags = _TAG.findall(body[2:end])
    if not tags:
        raise ValueError("GGF game has no tags")
    info = {k: v for k, v in tags if k not in ("B", "W")}
    start = None
    size = 8
    if "BO" in info:
        parts = info["BO"].split()
        try:
            size = int(parts[0])
            cells = "".join(parts[1:-1]).replace("*", "X")
            side = "X" if parts[-1] == "*" else "O"
        except (ValueError, IndexError):
            raise ValueError(f"GGF BO[{info['BO']}] is not a board") from None
        start = f"{cells} {side}"
        try:
            start_board = Board(start)
        except ValueError as exc:
            raise ValueError(f"GGF BO[{info['BO']}]: {exc}") from None
        if start_board == Board(size=start_board.size):
            start = None
        size = start_board.size
    record = GameRecord(size=size, start=start, black=info.get("PB", ""), white=info.get("PW", ""))
    board = record.start_board()
    for n, (k, v) in enumerate((k, v) for k, v in tags if k in ("B", "W")):
        name = v.split("/")[0].strip()
        color = 0 if k == "B" else 1
        try:
            m = board.parse_move(name)
            if board.turn != color and m != PASS and board.legal_mask() == 0:
                board.push(PASS)
                record.moves.append(PASS)
            board.push(m)
        except (InvalidMoveError, IllegalMoveError) as exc:
            why = str(exc).split(" (position")[0]
            raise ValueError(f"GGF move {n + 1} {k}[{v}]: {why}") from None
        record.moves.append(m)
    return record

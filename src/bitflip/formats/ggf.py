"""GGF: the game records of the Generic Game Server (GGS), several games per file.

A game is ``(;`` then ``TAG[value]`` pairs, then ``;)``::

    (;GM[Othello]PC[GGS/os]DT[2003.12.15]PB[Saio]PW[Zebra]RB[2197.68]RW[2199.57]
    TI[05:00//02:00]TY[8]RE[+4.000]BO[8 -------- -------- -------- ---O*--- ---*O---
    -------- -------- -------- *]B[f5//1.23]W[d6/0.5/2.1]B[PA]...;)

``BO`` is the start position (size, cells with ``*`` black / ``O`` white / ``-`` empty, side to
move), ``B``/``W`` a move with optional ``/eval/seconds``, ``PA`` a pass, ``RE`` black's final
disc margin. Mapping to :class:`GameRecord`: PB/PW -> black/white, PC -> event, DT -> date,
RE -> black_score (empties go to the winner; a result that is no plain disc margin stays in
``extra['RE']``), BO -> size and ``start`` (``None`` for the standard start), per-move evals
and times -> ``evals``/``times``; every other tag (RB, RW, TI, a TY other than the size, ...) is
kept in ``extra`` and written back.
"""

from __future__ import annotations

import bisect
import math
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from bitflip.core.board import BLACK, Board, Move
from bitflip.core.geometry import PASS, geometry
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

FMT = "GGF"
_TAG = re.compile(r"[A-Z][A-Z0-9]*")
# ASCII digits only: int() and float() accept other scripts' digits that no GGF writer uses.
_RESULT = re.compile(r"[+-]?\d{1,3}(\.\d{1,6})?", re.ASCII)
_SIZE = re.compile(r"\d+", re.ASCII)
_SIZES = (4, 6, 8)


def _board_size(digits: str, tag: str) -> int:
    """A board size from its digits; long digit strings never reach int() (Python caps those)."""
    if len(digits) > 2 or int(digits) not in _SIZES:
        shown = digits if len(digits) <= 6 else digits[:6] + "..."
        where = f" ({tag})" if tag != "BO" else ""
        raise FormatError(FMT, f"board size {shown}{where} is not supported (4, 6 or 8)")
    return int(digits)


_SINGLE = ("GM", "PC", "DT", "PB", "PW", "RE", "BO", "TY")
_ORDER = ("RB", "RW", "TI")
"""Extra tags written right after PB/PW, in GGS order; others follow TY/RE/BO."""


class _Text:
    """The input with a cursor and line numbers for messages."""

    def __init__(self, text: str, path: str | os.PathLike[str] | None) -> None:
        self.text = text
        self.path = path
        self.i = 0
        self._newlines = [m.start() for m in re.finditer("\n", text)]

    def line(self, pos: int | None = None) -> int:
        return bisect.bisect_left(self._newlines, self.i if pos is None else pos) + 1

    def error(self, what: str, pos: int | None = None) -> FormatError:
        return FormatError(FMT, what, path=self.path, line=self.line(pos))

    def skip_space(self) -> None:
        t, n = self.text, len(self.text)
        while self.i < n and t[self.i].isspace():
            self.i += 1

    def at_end(self) -> bool:
        self.skip_space()
        return self.i >= len(self.text)

    def value(self) -> str:
        """A ``[...]`` value (backslash escapes ``]`` and ``\\``); the cursor is on ``[``."""
        start = self.i
        t, n = self.text, len(self.text)
        self.i += 1
        out: list[str] = []
        while self.i < n:
            c = t[self.i]
            if c == "\\" and self.i + 1 < n:
                out.append(t[self.i + 1])
                self.i += 2
                continue
            if c == "]":
                self.i += 1
                return "".join(out)
            out.append(c)
            self.i += 1
        raise self.error("'[' is never closed by ']'", start)


def _games(src: _Text) -> Iterator[tuple[int, list[tuple[str, str, int]]]]:
    """(line, tags) of each game; tags are (name, value, line)."""
    while not src.at_end():
        start = src.i
        if not src.text.startswith("(;", src.i):
            snippet = src.text[src.i : src.i + 10]
            raise src.error(f"expected '(;' to start a game, found {snippet!r}")
        src.i += 2
        tags: list[tuple[str, str, int]] = []
        while True:
            src.skip_space()
            if src.text.startswith(";)", src.i):
                src.i += 2
                break
            if src.i >= len(src.text):
                raise src.error("game never closed by ';)'", start)
            m = _TAG.match(src.text, src.i)
            if m is None:
                snippet = src.text[src.i : src.i + 10]
                raise src.error(f"expected a TAG[value] or ';)', found {snippet!r}")
            name, line = m.group(), src.line()
            src.i = m.end()
            src.skip_space()
            if not src.text.startswith("[", src.i):
                raise src.error(f"tag {name} has no [value]")
            tags.append((name, src.value(), line))
        yield src.line(start), tags


def _parse_number(text: str, what: str, k: int) -> float | None:
    t = text.strip()
    if not t:
        return None
    seconds = 0.0
    parts = t.split(":")
    try:
        for p in parts:  # [[h:]m:]s for times
            seconds = seconds * 60 + float(p)
    except ValueError:
        raise FormatError(FMT, f"move {k}: {what} {text!r} is not a number") from None
    if len(parts) > 3 or (len(parts) > 1 and what != "time") or not math.isfinite(seconds):
        raise FormatError(FMT, f"move {k}: {what} {text!r} is not a number")
    return seconds


def _parse_board(text: str) -> Board:
    parts = text.split()
    if not parts or not _SIZE.fullmatch(parts[0]):
        raise FormatError(FMT, f"BO[{text[:20]}] does not start with the board size")
    size = _board_size(parts[0], "BO")
    rest = "".join(parts[1:])
    if len(rest) != size * size + 1:
        raise FormatError(
            FMT, f"BO needs {size * size} cells and a side to move, found {len(rest)} characters"
        )
    if any(c not in "-*O" for c in rest[:-1]) or rest[-1] not in "*O":
        raise FormatError(FMT, f"BO[{text}] holds characters other than '-', '*' and 'O'")
    return Board(rest[:-1] + " " + rest[-1])


def _record(tags: list[tuple[str, str, int]], path: str | os.PathLike[str] | None) -> GameRecord:
    single: dict[str, str] = {}
    extra: dict[str, str] = {}
    moves_raw: list[tuple[str, str, int]] = []
    for name, value, line in tags:
        try:
            if name in ("B", "W"):
                moves_raw.append((name, value, line))
            elif name in single or name in extra:
                raise FormatError(FMT, f"tag {name} appears twice")
            elif name in _SINGLE:
                single[name] = value
            else:
                extra[name] = value
        except FormatError as exc:
            raise exc.located(path=path, line=line) from None
    line0 = tags[0][2] if tags else None
    try:
        gm = single.get("GM", "Othello")
        if gm.strip().lower() != "othello":
            raise FormatError(FMT, f"GM[{gm}] is not an Othello game")
        if "BO" in single:
            board = _parse_board(single["BO"])
        else:
            found = _SIZE.search(single.get("TY", ""))
            board = Board(size=_board_size(found.group(), "TY") if found else 8)
        size = board.size
        start = None if board == Board(size=size) else board.obf()
        if "TY" in single and single["TY"] != str(size):
            extra["TY"] = single["TY"]
        black_score = None
        re_text = single.get("RE")
        if re_text is not None:
            black_score = _black_score(re_text, size)
            if black_score is None or re_text != _result_text(black_score, size):
                extra["RE"] = re_text
    except FormatError as exc:
        raise exc.located(path=path, line=line0) from None

    moves: list[Move] = []
    evals: list[float | None] = []
    times: list[float | None] = []
    b = board.copy(stack=False)
    for k, (color, value, line) in enumerate(moves_raw, 1):
        try:
            fields = value.split("/")
            if len(fields) > 3:
                raise FormatError(FMT, f"move {k}: {value!r} is not MOVE/eval/time")
            try:
                m = b.geometry.parse_square(fields[0])
            except ValueError:
                raise FormatError(FMT, f"move {k}: unknown move {fields[0].strip()!r}") from None
            ev = _parse_number(fields[1], "eval", k) if len(fields) > 1 else None
            tm = _parse_number(fields[2], "time", k) if len(fields) > 2 else None
            want = BLACK if color == "B" else BLACK.other
            if b.turn != want:
                if b.legal_mask() == 0 and not b.is_game_over():  # a pass left out
                    b.push(PASS)
                    moves.append(PASS)
                    evals.append(None)
                    times.append(None)
                else:
                    turn = b.turn.name.lower()
                    raise FormatError(FMT, f"move {k}: {color}[{value}] but {turn} is to move")
            try:
                b.push(m)
            except ValueError as exc:
                raise FormatError(FMT, f"move {k}: {exc}") from None
        except FormatError as exc:
            raise exc.located(path=path, line=line) from None
        moves.append(m)
        evals.append(ev)
        times.append(tm)
    return GameRecord(
        moves=moves,
        size=size,
        start=start,
        black=single.get("PB", ""),
        white=single.get("PW", ""),
        event=single.get("PC", ""),
        date=single.get("DT", ""),
        black_score=black_score,
        extra=extra,
        evals=evals if any(e is not None for e in evals) else [],
        times=times if any(t is not None for t in times) else [],
    )


def _black_score(text: str, size: int) -> int | None:
    """Black's disc count from a plain disc margin (``+4.000``); None for anything else."""
    t = text.strip()
    if not _RESULT.fullmatch(t):
        return None
    margin = float(t)  # at most 3 digits before the point: finite
    n = size * size
    if margin != int(margin) or (int(margin) + n) % 2 or abs(margin) > n:
        return None
    return (n + int(margin)) // 2


def _result_text(black_score: int, size: int) -> str:
    return f"{2 * black_score - size * size:+.3f}"


def loads(text: str, *, path: str | os.PathLike[str] | None = None) -> list[GameRecord]:
    """The games of a GGF text."""
    src = _Text(text, path)
    return [_record(tags, path) for _, tags in _games(src)]


def read(path: str | os.PathLike[str]) -> list[GameRecord]:
    """The games of a GGF file."""
    return loads(Path(path).read_text(encoding="utf-8", errors="replace"), path=path)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("]", "\\]")


def _number(x: float | None) -> str:
    if x is None:
        return ""
    if not math.isfinite(x):
        raise ValueError(f"{x} cannot be written to GGF")
    return repr(float(x))


def _board_text(board: Board) -> str:
    cells = board.board_string().replace("X", "*")
    s = board.size
    rows = " ".join(cells[i : i + s] for i in range(0, s * s, s))
    return f"{s} {rows} {'*' if board.turn == BLACK else 'O'}"


def dump_game(record: GameRecord) -> str:
    """One game as a GGF string ``(;...;)``; passes the record leaves out are written."""
    r = record
    board = r.start_board()
    out = ["(;GM[Othello]"]

    def tag(name: str, value: str) -> None:
        out.append(f"{name}[{_escape(value)}]")

    if r.event:
        tag("PC", r.event)
    if r.date:
        tag("DT", r.date)
    tag("PB", r.black)
    tag("PW", r.white)
    for key in _ORDER:
        if key in r.extra:
            tag(key, r.extra[key])
    tag("TY", r.extra.get("TY", str(board.size)))
    if "RE" in r.extra:
        tag("RE", r.extra["RE"])
    elif r.black_score is not None:
        tag("RE", _result_text(r.black_score, board.size))
    tag("BO", _board_text(board))
    for key, value in r.extra.items():
        if key not in _ORDER and key not in ("TY", "RE"):
            if not _TAG.fullmatch(key) or key in ("B", "W", *_SINGLE):
                raise ValueError(f"extra[{key!r}] cannot be written as a GGF tag")
            tag(key, value)
    if (r.evals and len(r.evals) != len(r.moves)) or (r.times and len(r.times) != len(r.moves)):
        raise ValueError("evals and times must have one entry per move")
    for i, m in enumerate(r.moves):
        if m != PASS and board.legal_mask() == 0 and not board.is_game_over():
            out.append("BW"[board.turn] + "[PA]")
            board.push(PASS)
        color = "BW"[board.turn]
        board.push(m)
        ev = r.evals[i] if r.evals else None
        tm = r.times[i] if r.times else None
        name = "PA" if m == PASS else geometry(8).square_name(m)
        note = ""
        if ev is not None or tm is not None:
            note = "/" + _number(ev) + ("/" + _number(tm) if tm is not None else "")
        out.append(f"{color}[{name}{note}]")
    out.append(";)")
    return "".join(out)


def dumps(records: Iterable[GameRecord]) -> str:
    """GGF text, one game per line."""
    return "".join(dump_game(r) + "\n" for r in records)


def write(path: str | os.PathLike[str], records: Iterable[GameRecord]) -> None:
    """Write games to a GGF file (one game per line)."""
    Path(path).write_text(dumps(records), encoding="utf-8")

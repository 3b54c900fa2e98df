"""WTHOR databases: ``.wtb`` games, ``.JOU`` player names, ``.TRN`` tournament names.

The French Othello Federation's binary format (little-endian): a 16-byte header, then 68-byte
game records (tournament id, black id, white id, black's final disc count, black's
"theoretical" disc count, 60 move bytes ``10 * row + col``, 0 after the last move). Passes are
not stored: a move byte belongs to the side to move, or to its opponent when the side to move
has no legal move. Name files hold NUL-terminated Latin-1 strings of 20 (``.JOU``) or 26
(``.TRN``) bytes.

Reading checks every game by replaying it (one numba call per file, so all 130,000 games of the
FFO base stream in seconds). :func:`load_wtb` gives the raw columns as numpy arrays for bulk
work; :func:`read_wtb` streams :class:`GameRecord` objects with names resolved.
"""

from __future__ import annotations

import datetime as _dt
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bitflip.core.board import Move, final_outcome
from bitflip.core.geometry import PASS, geometry
from bitflip.core.replay import END, Replay, replay
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

FMT = "WTHOR"
HEADER_SIZE = 16
RECORD_SIZE = 68
MOVES_PER_RECORD = 60
NAME_SIZES = {"JOU": 20, "TRN": 26}
"""Bytes per record of each name file kind."""

PathLike = str | os.PathLike[str]

_RECORD_DTYPE = np.dtype(
    [
        ("tournament", "<u2"),
        ("black", "<u2"),
        ("white", "<u2"),
        ("black_score", "u1"),
        ("theoretical", "u1"),
        ("moves", "u1", (MOVES_PER_RECORD,)),
    ]
)
assert _RECORD_DTYPE.itemsize == RECORD_SIZE

# Move byte -> square index (0-63); 0 -> END; anything else -> 99 (not a square).
_BYTE_TO_SQUARE = np.full(256, 99, dtype=np.int16)
_BYTE_TO_SQUARE[0] = END
for _r in range(1, 9):
    for _c in range(1, 9):
        _BYTE_TO_SQUARE[10 * _r + _c] = 8 * (_r - 1) + (_c - 1)


def square_to_byte(square: Move) -> int:
    """The WTHOR move byte of a square (f5 -> 56)."""
    if not 0 <= square < 64:
        raise ValueError(f"{square} is not a square WTHOR can store")
    return 10 * (square // 8 + 1) + square % 8 + 1


@dataclass(frozen=True)
class WthorHeader:
    """The 16-byte header shared by ``.wtb``, ``.JOU`` and ``.TRN`` files."""

    created: _dt.date | None
    """When the file was written (``None`` when the bytes are not a valid date)."""
    n_games: int
    """N1: number of games (``.wtb``)."""
    n_records: int
    """N2: number of names (``.JOU`` / ``.TRN``)."""
    year: int
    """Year of the games."""
    board_size: int = 8
    """P1 (0 means 8)."""
    solitaires: bool = False
    """P2: the file holds solitaires (puzzles) rather than games."""
    depth: int = 0
    """P3: empties from which the theoretical score is exact (0: none stored)."""

    @classmethod
    def from_bytes(cls, data: bytes, path: PathLike | None = None) -> WthorHeader:
        if len(data) < HEADER_SIZE:
            raise FormatError(
                FMT, f"file too short for a header ({len(data)} of 16 bytes)", path=path
            )
        century, yy, month, day = data[0], data[1], data[2], data[3]
        try:
            created: _dt.date | None = _dt.date(100 * century + yy, month, day)
        except ValueError:
            created = None
        n1 = int.from_bytes(data[4:8], "little")
        n2 = int.from_bytes(data[8:10], "little")
        year = int.from_bytes(data[10:12], "little")
        return cls(created, n1, n2, year, data[12] or 8, data[13] == 1, data[14])

    def to_bytes(self) -> bytes:
        c = self.created
        date = bytes([c.year // 100, c.year % 100, c.month, c.day]) if c else bytes(4)
        return (
            date
            + self.n_games.to_bytes(4, "little")
            + self.n_records.to_bytes(2, "little")
            + self.year.to_bytes(2, "little")
            + bytes([self.board_size, int(self.solitaires), self.depth, 0])
        )


def read_header(path: PathLike) -> WthorHeader:
    """The header of any WTHOR file."""
    with open(path, "rb") as f:
        return WthorHeader.from_bytes(f.read(HEADER_SIZE), path)


# --- names ---------------------------------------------------------------------------------


def _name_kind(path: PathLike) -> str:
    ext = Path(path).suffix.upper().lstrip(".")
    if ext not in NAME_SIZES:
        raise FormatError(FMT, "a name file must end in .JOU or .TRN", path=path)
    return ext


def _count_records(data: bytes, size: int, noun: str, declared: int, path: PathLike) -> int:
    """How many ``size``-byte records follow the header; FormatError unless ``declared`` many."""
    body = len(data) - HEADER_SIZE
    if body % size:
        raise FormatError(
            FMT,
            f"{body} bytes after the header is not a whole number of {size}-byte {noun}",
            path=path,
        )
    n = body // size
    if declared != n:
        raise FormatError(FMT, f"header says {declared} {noun} but the file holds {n}", path=path)
    return n


def read_names(path: PathLike) -> list[str]:
    """The names of a ``.JOU`` (players) or ``.TRN`` (tournaments) file; index = id."""
    kind = _name_kind(path)
    size = NAME_SIZES[kind]
    data = Path(path).read_bytes()
    header = WthorHeader.from_bytes(data, path)
    n = _count_records(data, size, "names", header.n_records, path)
    return [
        data[HEADER_SIZE + i * size : HEADER_SIZE + (i + 1) * size]
        .split(b"\0", 1)[0]
        .decode("latin-1")
        for i in range(n)
    ]


def write_names(path: PathLike, names: Sequence[str], *, created: _dt.date | None = None) -> None:
    """Write a ``.JOU`` or ``.TRN`` file (kind from the extension)."""
    size = NAME_SIZES[_name_kind(path)]
    if len(names) > 0xFFFF:
        raise ValueError(f"a WTHOR name file holds at most 65535 names, not {len(names)}")
    header = WthorHeader(created or _dt.date.today(), 0, len(names), 0, 0)
    chunks = [header.to_bytes()]
    for name in names:
        try:
            raw = name.encode("latin-1")
        except UnicodeEncodeError:
            raise ValueError(f"name {name!r} is not Latin-1 text, which WTHOR needs") from None
        if len(raw) >= size or b"\0" in raw:
            raise ValueError(f"name {name!r} does not fit WTHOR's {size - 1} bytes")
        chunks.append(raw.ljust(size, b"\0"))
    Path(path).write_bytes(b"".join(chunks))


def find_name_file(wtb: PathLike, kind: str) -> Path | None:
    """The ``.JOU``/``.TRN`` file that belongs to a ``.wtb``, looked up beside it.

    Tries ``<stem>.JOU``, ``<prefix>.JOU`` (the stem up to its first ``_``: ``PLAYOK_2023``
    -> ``PLAYOK``), ``WTHOR.JOU``, ``WTH.JOU``, any case; then the only ``.JOU`` in the folder.
    """
    p = Path(wtb)
    folder = p.parent
    try:
        entries = {e.name.lower(): e for e in folder.iterdir() if e.is_file()}
    except OSError:
        return None
    kind = kind.lower()
    for stem in (p.stem, p.stem.split("_")[0], "wthor", "wth"):
        hit = entries.get(f"{stem.lower()}.{kind}")
        if hit is not None:
            return hit
    same_kind = [e for n, e in entries.items() if n.endswith("." + kind)]
    return same_kind[0] if len(same_kind) == 1 else None


# --- games ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class WtbGames:
    """The columns of a ``.wtb`` file as numpy arrays (one row per game)."""

    path: str
    header: WthorHeader
    tournament: np.ndarray
    black: np.ndarray
    white: np.ndarray
    black_score: np.ndarray
    theoretical: np.ndarray
    move_bytes: np.ndarray
    """uint8 (games, 60): the raw move bytes."""

    def __len__(self) -> int:
        return len(self.tournament)

    def squares(self) -> np.ndarray:
        """int16 (games, 60): square indices, END (-1) after the last move, 99 for bad bytes."""
        out: np.ndarray = _BYTE_TO_SQUARE[self.move_bytes]
        return out

    def replay(self) -> Replay:
        """Replay every game from the standard start (passes inserted, legality checked)."""
        start = geometry(8).start_position()
        return replay(self.squares(), geometry(8).mask, start=start)

    def check(self, rep: Replay) -> None:
        """Raise :class:`FormatError` on the first game that does not replay legally."""
        bad = np.flatnonzero(rep.bad >= 0)
        if len(bad):
            g = int(bad[0])
            i = int(rep.bad[g])
            byte = int(self.move_bytes[g, i])
            sq = int(_BYTE_TO_SQUARE[byte])
            name = geometry(8).square_name(sq) if 0 <= sq < 64 else f"byte {byte}"
            raise FormatError(
                FMT, f"move {i + 1} ({name}) {rep.why(g)}", path=self.path, record=g + 1
            )


def load_wtb(path: PathLike) -> WtbGames:
    """Read a ``.wtb`` file into numpy columns, checking its size and move bytes."""
    data = Path(path).read_bytes()
    header = WthorHeader.from_bytes(data, path)
    if header.board_size != 8:
        raise FormatError(
            FMT,
            f"board size {header.board_size} (header P1) is not supported, only 8x8",
            path=path,
        )
    if header.solitaires:
        raise FormatError(FMT, "the file holds solitaires (header P2 = 1), not games", path=path)
    n = _count_records(data, RECORD_SIZE, "games", header.n_games, path)
    rec = np.frombuffer(data, dtype=_RECORD_DTYPE, offset=HEADER_SIZE, count=n)
    moves = rec["moves"]
    ended = np.cumsum(moves == 0, axis=1) > 0
    late = ended & (moves != 0)
    if late.any():
        g = int(np.flatnonzero(late.any(axis=1))[0])
        i = int(np.argmax(late[g]))
        raise FormatError(
            FMT,
            f"move byte {moves[g, i]} at move {i + 1} follows the end of the game",
            path=path,
            record=g + 1,
        )
    bad_score = (rec["black_score"] > 64) | ((rec["theoretical"] > 64) & (header.depth > 0))
    if bad_score.any():
        g = int(np.flatnonzero(bad_score)[0])
        raise FormatError(
            FMT,
            f"disc count {rec['black_score'][g]}/{rec['theoretical'][g]} is over 64",
            path=path,
            record=g + 1,
        )
    return WtbGames(
        os.fspath(path),
        header,
        rec["tournament"].copy(),
        rec["black"].copy(),
        rec["white"].copy(),
        rec["black_score"].copy(),
        rec["theoretical"].copy(),
        np.ascontiguousarray(moves),
    )


def _names_for(
    wtb: PathLike, names: Sequence[str] | PathLike | None, kind: str
) -> Sequence[str] | None:
    if names is None:
        found = find_name_file(wtb, kind)
        return read_names(found) if found is not None else None
    if isinstance(names, str | os.PathLike):
        return read_names(names)
    return names


def _lookup(names: Sequence[str] | None, ids: list[int], what: str, games: WtbGames) -> list[str]:
    if names is None:
        return [""] * len(ids)
    n = len(names)
    out = []
    for g, i in enumerate(ids):
        if i >= n:
            raise FormatError(
                FMT,
                f"{what} id {i} is not in the name file ({n} names)",
                path=games.path,
                record=g + 1,
            )
        out.append(names[i])
    return out


def read_wtb(
    path: PathLike,
    players: Sequence[str] | PathLike | None = None,
    tournaments: Sequence[str] | PathLike | None = None,
    *,
    passes: bool = False,
    check: bool = True,
) -> Iterator[GameRecord]:
    """Stream the games of a ``.wtb`` file as :class:`GameRecord` objects.

    Args:
        path: the ``.wtb`` file.
        players: player names (a list, or a ``.JOU`` path); by default the ``.JOU`` found
            beside the file (see :func:`find_name_file`), else names stay empty.
        tournaments: the same for tournament names (``.TRN``) -> ``GameRecord.event``.
        passes: write passes into ``moves`` (from the replay); by default the moves are the
            stored ones, without passes (``GameRecord.with_passes()`` inserts them).
        check: replay every game and raise :class:`FormatError` at the first illegal one.

    Records carry ``date`` = the year of the games, ``black_score`` = the stored disc count
    and ``theoretical_score`` (``None`` when the header stores no depth).
    """
    games = load_wtb(path)
    player_names = _names_for(path, players, "JOU")
    event_names = _names_for(path, tournaments, "TRN")
    yield from _records(games, player_names, event_names, passes=passes, check=check)


def _records(
    games: WtbGames,
    players: Sequence[str] | None,
    tournaments: Sequence[str] | None,
    *,
    passes: bool,
    check: bool,
) -> Iterator[GameRecord]:
    n = len(games)
    if n == 0:
        return
    blacks = _lookup(players, games.black.tolist(), "black player", games)
    whites = _lookup(players, games.white.tolist(), "white player", games)
    events = _lookup(tournaments, games.tournament.tolist(), "tournament", games)
    scores = games.black_score.tolist()
    theory: list[int | None] = games.theoretical.tolist() if games.header.depth > 0 else [None] * n
    date = str(games.header.year) if games.header.year else ""
    if check or passes:
        rep = games.replay()
        if check:
            games.check(rep)
    if passes:
        rows = rep.moves.tolist()
        lengths = rep.length.tolist()
    else:
        squares = games.squares()
        rows = squares.tolist()
        lengths = np.argmax(np.concatenate([squares, np.full((n, 1), END)], axis=1) < 0, axis=1)
        lengths = lengths.tolist()
    for g in range(n):
        yield GameRecord(
            moves=rows[g][: lengths[g]],
            black=blacks[g],
            white=whites[g],
            event=events[g],
            date=date,
            black_score=scores[g],
            theoretical_score=theory[g],
        )


def wtb_files(path: PathLike) -> list[Path]:
    """The ``.wtb`` files of a folder (sorted), or the file itself."""
    p = Path(path)
    if p.is_dir():
        return sorted(e for e in p.iterdir() if e.suffix.lower() == ".wtb" and e.is_file())
    return [p]


# --- writing -------------------------------------------------------------------------------


def _year_of(records: Sequence[GameRecord]) -> int:
    years = {r.date[:4] for r in records}
    if len(years) == 1:
        y = years.pop()
        if y.isdigit():
            return int(y)
    return 0


def write_wtb(
    path: PathLike,
    records: Iterable[GameRecord],
    year: int | None = None,
    *,
    players: Sequence[str] | None = None,
    tournaments: Sequence[str] | None = None,
    created: _dt.date | None = None,
) -> None:
    """Write games to a ``.wtb`` file (8x8, standard start; passes are dropped).

    Names become ids through ``players`` / ``tournaments`` (a name missing there is an
    error). Without them, the names of the records, in order of first appearance, are written
    to ``<stem>.JOU`` and ``<stem>.TRN`` beside the file, where :func:`read_wtb` finds them.
    ``year`` defaults to the records' common date year (else 0). A record without
    ``black_score`` gets the replayed final count; without ``theoretical_score``, the
    ``black_score`` (and header depth 0 when no record has one).
    """
    recs = list(records)
    if year is None:
        year = _year_of(recs)
    write_names_too = players is None
    player_list = list(players) if players is not None else []
    event_list = list(tournaments) if tournaments is not None else []
    player_ids = {n: i for i, n in reversed(list(enumerate(player_list)))}
    event_ids = {n: i for i, n in reversed(list(enumerate(event_list)))}

    def ident(name: str, table: dict[str, int], names: list[str], grow: bool, what: str) -> int:
        if name not in table:
            if not grow:
                raise ValueError(f"{what} {name!r} is not in the given name list")
            table[name] = len(names)
            names.append(name)
        return table[name]

    n = len(recs)
    squares = np.full((n, MOVES_PER_RECORD), END, dtype=np.int16)
    for g, r in enumerate(recs):
        if r.size != 8 or r.start is not None:
            raise ValueError(f"game {g + 1}: WTHOR stores only 8x8 games from the standard start")
        played = [m for m in r.moves if m != PASS]
        if len(played) > MOVES_PER_RECORD:
            raise ValueError(f"game {g + 1}: {len(played)} moves do not fit WTHOR's 60")
        if any(not 0 <= m < 64 for m in played):
            raise ValueError(f"game {g + 1}: a move is not a square index 0-63")
        squares[g, : len(played)] = played
    rep = replay(squares, geometry(8).mask, start=geometry(8).start_position())
    bad = np.flatnonzero(rep.bad >= 0)
    if len(bad):
        g = int(bad[0])
        i = int(rep.bad[g])
        name = geometry(8).square_name(int(squares[g, i]))
        raise ValueError(f"game {g + 1}: move {i + 1} ({name}) {rep.why(g)}")

    out = np.zeros(n, dtype=_RECORD_DTYPE)
    out["moves"] = np.where(squares >= 0, 10 * (squares // 8 + 1) + squares % 8 + 1, 0)
    any_theory = any(r.theoretical_score is not None for r in recs)
    for g, r in enumerate(recs):
        score = r.black_score
        if score is None:  # the replayed result, or the discs on the board if unfinished
            b, w = int(rep.black[g]), int(rep.white[g])
            score = final_outcome(b, w).black if rep.over[g] else b
        if not 0 <= score <= 64:
            raise ValueError(f"game {g + 1}: black disc count {score} is not 0-64")
        theory = r.theoretical_score if r.theoretical_score is not None else score
        if not 0 <= theory <= 64:
            raise ValueError(f"game {g + 1}: theoretical disc count {theory} is not 0-64")
        out[g]["tournament"] = ident(
            r.event, event_ids, event_list, tournaments is None, "tournament"
        )
        out[g]["black"] = ident(r.black, player_ids, player_list, write_names_too, "player")
        out[g]["white"] = ident(r.white, player_ids, player_list, write_names_too, "player")
        out[g]["black_score"] = score
        out[g]["theoretical"] = theory
    if len(player_list) > 0xFFFF or len(event_list) > 0xFFFF:
        raise ValueError("WTHOR ids are 16-bit: too many distinct names")
    header = WthorHeader(
        created or _dt.date.today(), len(recs), 0, year, 8, False, 24 if any_theory else 0
    )
    p = Path(path)
    p.write_bytes(header.to_bytes() + out.tobytes())
    if write_names_too:
        write_names(p.with_suffix(".JOU"), player_list, created=created)
    if tournaments is None:
        write_names(p.with_suffix(".TRN"), event_list, created=created)


def final_black_discs(black: int, white: int) -> int:
    """Black's final count as WTHOR stores it: the empty squares go to the winner."""
    return final_outcome(black, white).black

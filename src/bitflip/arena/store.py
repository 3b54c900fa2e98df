"""The SQLite store of tournament games: every game with its moves, agents, result and times.

Games are keyed by :attr:`GameTask.key`; a tournament run again on the same file skips the
keys already there, which is how an interrupted tournament resumes. Only the tournament's
parent process writes, one transaction per game, so a kill loses at most the games in play.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, fields
from datetime import UTC, datetime
from pathlib import Path

from bitflip.arena.match import GameResult
from bitflip.core.board import Move
from bitflip.core.geometry import geometry
from bitflip.formats.record import GameRecord

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    key TEXT PRIMARY KEY,
    played_at TEXT NOT NULL,
    size INTEGER NOT NULL,
    slot INTEGER NOT NULL,
    opening TEXT NOT NULL,
    seed INTEGER NOT NULL,
    time_per_move REAL,
    black TEXT NOT NULL,
    white TEXT NOT NULL,
    black_version TEXT NOT NULL,
    white_version TEXT NOT NULL,
    black_weights TEXT,
    white_weights TEXT,
    moves TEXT NOT NULL,
    move_times TEXT NOT NULL,
    black_discs INTEGER,
    white_discs INTEGER,
    score REAL NOT NULL,
    margin INTEGER,
    time_black REAL NOT NULL,
    time_white REAL NOT NULL,
    error TEXT,
    error_side TEXT
);
CREATE INDEX IF NOT EXISTS games_pair ON games (black, white);
"""


@dataclass(frozen=True)
class StoredGame:
    """One row of the ``games`` table."""

    key: str
    played_at: str
    size: int
    slot: int
    opening: str
    seed: int
    time_per_move: float | None
    black: str
    white: str
    black_version: str
    white_version: str
    black_weights: str | None
    white_weights: str | None
    moves: str
    """The transcript from the start, opening included (``pa`` for a pass)."""
    move_times: str
    """Seconds per move, space-separated, ``-`` for the opening's moves."""
    black_discs: int | None
    white_discs: int | None
    score: float
    """Black's points: 1, 0.5 or 0."""
    margin: int | None
    time_black: float
    time_white: float
    error: str | None
    error_side: str | None
    """``black`` or ``white``: who forfeited."""

    def move_list(self) -> list[Move]:
        g = geometry(self.size)
        return [g.parse_square(self.moves[i : i + 2]) for i in range(0, len(self.moves), 2)]

    def times(self) -> list[float | None]:
        """Seconds per move (None for the opening's moves), one per entry of :meth:`move_list`."""
        return [None if t == "-" else float(t) for t in self.move_times.split()]

    def to_record(self, event: str = "bitflip arena") -> GameRecord:
        """The game as a :class:`GameRecord` (for GGF output).

        A forfeit has no final score: its result is written GGS-style as a resignation
        (``RE[-64.000:r]`` when black forfeits) and the reason goes into a ``C`` comment tag.
        """
        extra = {}
        if self.error:
            n = self.size * self.size
            extra["RE"] = f"{n if self.error_side == 'white' else -n:+.3f}:r"
            extra["C"] = f"forfeit by {self.error_side}: {self.error}"
        return GameRecord(
            moves=self.move_list(),
            size=self.size,
            black=self.black,
            white=self.white,
            event=event,
            date=self.played_at[:10],
            black_score=self.black_discs,
            times=self.times(),
            extra=extra,
        )


_COLUMNS = tuple(f.name for f in fields(StoredGame))


class Store:
    """A SQLite file of games (created on first use)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            self._db = sqlite3.connect(self.path)
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{self.path}: not a bitflip results database ({exc})") from None
        if row is None:
            with self._db:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) != SCHEMA_VERSION:
            raise ValueError(
                f"{self.path}: results schema version {row[0]}, this bitflip reads {SCHEMA_VERSION}"
            )

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    def keys(self) -> set[str]:
        return {k for (k,) in self._db.execute("SELECT key FROM games")}

    def __len__(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0])

    def add(self, result: GameResult) -> None:
        """Store one game (replacing a game with the same key) and commit."""
        t = result.task
        row = (
            t.key,
            datetime.now(UTC).isoformat(timespec="seconds"),
            t.size,
            t.slot,
            "".join(geometry(t.size).square_name(m) for m in t.opening),
            t.seed,
            t.time_per_move,
            t.black,
            t.white,
            result.black_version,
            result.white_version,
            result.black_weights,
            result.white_weights,
            result.transcript,
            " ".join("-" if t is None else f"{t:.4f}" for t in result.times),
            result.black_discs,
            result.white_discs,
            result.score,
            result.margin,
            result.time_black,
            result.time_white,
            result.error,
            None if result.error_side is None else result.error_side.name.lower(),
        )
        with self._db:
            self._db.execute(
                f"INSERT OR REPLACE INTO games ({', '.join(_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(_COLUMNS))})",
                row,
            )

    def games(self, keys: Iterable[str] | None = None) -> list[StoredGame]:
        """All games, or those with the given keys, in the order they were stored."""
        rows = self._db.execute(f"SELECT {', '.join(_COLUMNS)} FROM games ORDER BY rowid")
        wanted = None if keys is None else set(keys)
        return [StoredGame(*r) for r in rows if wanted is None or r[0] in wanted]

    def __iter__(self) -> Iterator[StoredGame]:
        return iter(self.games())

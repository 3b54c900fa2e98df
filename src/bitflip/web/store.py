"""SQLite storage of web games: one row per game holding its JSON, so games survive restarts."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bitflip.web.games import GameState

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    data TEXT NOT NULL
)
"""


@dataclass(frozen=True)
class GameSummary:
    """A line of the game list."""

    id: str
    created: float
    updated: float
    title: str
    opponent: str
    human: str
    size: int
    moves: int


class GameStore:
    """Games in one SQLite file (``":memory:"`` for a store that lives as long as the object).

    One connection guarded by a lock: requests come from several threads, writes are small.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL" if self.path != ":memory:" else "SELECT 1")
            self._db.execute(SCHEMA)

    def save(self, state: GameState) -> None:
        data = json.dumps(state.to_json())
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, created, updated, data) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(id) DO UPDATE SET updated = excluded.updated, data = excluded.data",
                (state.id, state.created, now, data),
            )

    def load(self, game_id: str) -> GameState | None:
        """The stored game, or None; a row that no longer replays raises ValueError."""
        with self._lock:
            row = self._db.execute("SELECT data FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            return None
        try:
            return GameState.from_json(json.loads(row[0]))
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"stored game {game_id} in {self.path} is corrupt: {exc}") from None

    def delete(self, game_id: str) -> bool:
        with self._lock:
            cur = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return cur.rowcount > 0

    def list(self, limit: int = 50) -> list[GameSummary]:
        """The most recently changed games first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, updated, data FROM games ORDER BY updated DESC LIMIT ?",
                (limit,),
            ).fetchall()
        out = []
        for gid, created, updated, data in rows:
            try:
                d = json.loads(data)
                out.append(
                    GameSummary(
                        gid,
                        created,
                        updated,
                        d.get("title", ""),
                        d.get("opponent", ""),
                        d.get("human", ""),
                        int(d.get("size", 8)),
                        len(d.get("line", [])),
                    )
                )
            except (ValueError, TypeError):
                continue
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()

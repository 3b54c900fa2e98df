"""SQLite storage of web games: one row per game holding its JSON, so games survive restarts."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bitflip.core.geometry import PASS
from bitflip.web.games import GameState

SUMMARY_VERSION = 2
"""Summaries of version 1 counted passes as moves; older rows are summarised again."""

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
    result: str = ""
    """'black', 'white' or 'draw' (who won the line shown), '' while it goes on."""
    score: str = ""
    """The final disc count such as '40-24', '' while it goes on."""


def summary(state: GameState) -> dict[str, object]:
    """What the game list shows of a game, kept beside its JSON so listing replays nothing."""
    board = state.board(len(state.line))
    result = score = ""
    ending = state.ending(len(state.line))
    outcome = board.outcome()
    if ending is not None:
        result = "white" if ending.loser == "black" else "black"
        score = ending.how
    elif outcome is not None:
        result = "draw" if outcome.winner is None else outcome.winner.name.lower()
        score = f"{outcome.black}-{outcome.white}"
    moves = sum(m != PASS for m in state.line)  # passes are no moves
    return {"version": SUMMARY_VERSION, "moves": moves, "result": result, "score": score}


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
        data = json.dumps({**state.to_json(), "summary": summary(state)})
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
            data = json.loads(row[0])
            data.pop("summary", None)
            return GameState.from_json(data)
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(f"stored game {game_id} in {self.path} is corrupt: {exc}") from None

    def delete(self, game_id: str) -> bool:
        with self._lock:
            cur = self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        return cur.rowcount > 0

    def list(self, limit: int = 50, *, player: str = "", result: str = "") -> list[GameSummary]:
        """The most recently changed games first.

        Args:
            player: only games whose title, opponent or side contains this (any case).
            result: only games won by 'black' or 'white', drawn ('draw') or going on ('none').
        """
        sql = "SELECT id, created, updated, data FROM games ORDER BY updated DESC"
        with self._lock:
            if player or result:  # filtered in Python: read them all
                rows = self._db.execute(sql).fetchall()
            else:
                rows = self._db.execute(sql + " LIMIT ?", (limit,)).fetchall()
        out: list[GameSummary] = []
        needle = player.casefold()
        for gid, created, updated, data in rows:
            if len(out) >= limit:
                break
            try:
                d = json.loads(data)
                facts = d.pop("summary", None)
                if facts is None or facts.get("version") != SUMMARY_VERSION:  # an older one
                    facts = summary(GameState.from_json(d))
                g = GameSummary(
                    gid,
                    created,
                    updated,
                    d.get("title", ""),
                    d.get("opponent", ""),
                    d.get("human", ""),
                    int(d.get("size", 8)),
                    int(facts["moves"]),
                    str(facts["result"]),
                    str(facts["score"]),
                )
            except (ValueError, TypeError, KeyError):
                continue
            if needle and not any(needle in t.casefold() for t in (g.title, g.opponent, g.human)):
                continue
            if result and (g.result or "none") != result:
                continue
            out.append(g)
        return out

    def close(self) -> None:
        with self._lock:
            self._db.close()

"""The SQLite game store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bitflip.core.board import Board
from bitflip.web.games import GameState
from bitflip.web.store import GameStore


def test_save_load_list_delete(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "games.sqlite"
    store = GameStore(path)
    st = GameState.new("abc", human="white", opponent="greedy", moves=[Board().parse_move("f5")])
    store.save(st)
    st.jump(0)
    store.save(st)
    store.close()
    again = GameStore(path)  # a restart
    loaded = again.load("abc")
    assert loaded == st and loaded is not None and loaded.cursor == 0
    assert [g.id for g in again.list()] == ["abc"] and again.list()[0].moves == 1
    assert again.load("nope") is None
    assert again.delete("abc") and again.load("abc") is None


def test_corrupt_row_names_the_game(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    store.save(GameState.new("abc"))
    db = sqlite3.connect(path)
    db.execute('UPDATE games SET data = \'{"id": "abc", "line": [0]}\'')
    db.commit()
    db.close()
    with pytest.raises(ValueError, match="stored game abc .* is corrupt"):
        store.load("abc")

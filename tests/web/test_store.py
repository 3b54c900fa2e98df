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


def test_games_stored_before_the_move_tree_still_load_and_list(tmp_path: Path) -> None:
    import json

    path = tmp_path / "games.sqlite"
    store = GameStore(path)
    f5, d6 = Board().parse_move("f5"), 43
    old = {
        "id": "old",
        "size": 8,
        "start": Board().obf(),
        "line": [f5, d6],
        "cursor": 1,
        "human": "black",
        "opponent": "random",
        "seed": None,
        "created": 1.0,
        "title": "from last year",
        "evals": [],
        "analysis": [],
    }
    db = sqlite3.connect(path)
    db.execute("INSERT INTO games VALUES ('old', 1.0, 2.0, ?)", (json.dumps(old),))
    db.commit()
    db.close()
    [g] = store.list()
    assert (g.id, g.moves, g.title, g.result) == ("old", 2, "from last year", "")
    st = store.load("old")
    assert st is not None and st.line == [f5, d6] and st.cursor == 1
    store.save(st)  # stored again in the tree format
    again = store.load("old")
    assert again == st and "tree" in json.loads(
        sqlite3.connect(path).execute("SELECT data FROM games").fetchone()[0]
    )

"""eOthello CSV: move strings in, move lists out; a file without the column is refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats.eothello import read_eothello_csv


def test_eothello_csv(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    game = Board()
    while not game.is_game_over():
        moves = list(game.legal_moves)
        game.push(moves[int(rng.integers(len(moves)))])
    text = "".join(game.geometry.square_name(m) for m in game.move_stack if m != PASS)
    path = tmp_path / "games.csv"
    path.write_text(f"Othello_game_id,winner,game_moves\nx1,1,{text}\n")
    assert read_eothello_csv(path) == [[m for m in game.move_stack if m != PASS]]
    (tmp_path / "bad.csv").write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match="game_moves"):
        read_eothello_csv(tmp_path / "bad.csv")
    (tmp_path / "odd.csv").write_text("game_moves\nf5d\n")
    with pytest.raises(ValueError, match=r"odd.csv:2: odd-length"):
        read_eothello_csv(tmp_path / "odd.csv")

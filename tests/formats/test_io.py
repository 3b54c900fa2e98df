"""Reading and writing games by file extension (formats.io, what ``bitflip convert`` uses)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.formats.io import format_of, read_games, write_games
from bitflip.formats.record import GameRecord

from ._games import random_moves


@pytest.mark.parametrize(
    ("name", "fmt"),
    [("a.txt", "transcript"), ("b.GGF", "GGF"), ("dir/c.wtb", "WTHOR"), ("d.Obf", "OBF")],
)
def test_the_format_comes_from_the_extension_in_any_case(name: str, fmt: str) -> None:
    assert format_of(name) == fmt


@pytest.mark.parametrize("name", ["games.pgn", "games"])
def test_an_unknown_extension_names_the_file_and_the_known_ones(name: str) -> None:
    with pytest.raises(ValueError, match=rf"^{name}: unknown file type .*known: \.txt, \.ggf"):
        format_of(name)


@pytest.mark.parametrize("ext", [".txt", ".ggf", ".wtb"])
def test_games_come_back_from_every_game_format(tmp_path: Path, ext: str) -> None:
    games = [GameRecord(moves=random_moves(seed)) for seed in range(3)]
    path = tmp_path / f"games{ext}"
    write_games(path, games, year=2020)
    back = list(read_games(path, passes=False))
    # Every format keeps the moves (passes follow from the rules, so none is written).
    assert [g.board().move_stack for g in back] == [g.board().move_stack for g in games]


def test_position_files_hold_no_games(tmp_path: Path) -> None:
    path = tmp_path / "p.obf"
    with pytest.raises(ValueError, match="OBF files hold positions, not games"):
        list(read_games(path))
    with pytest.raises(ValueError, match="OBF files hold positions, not games"):
        write_games(path, [])

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.formats._games import games

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.core.replay import replay_one


def _reference(moves: list[int], size: int) -> tuple[list[int], int]:
    """Board-based replay: (moves with passes, index of the first unplayable move or -1)."""
    b = Board(size=size)
    out: list[int] = []
    for i, m in enumerate(moves):
        if m != PASS and b.legal_mask() == 0 and not b.is_game_over():
            b.push(PASS)
            out.append(PASS)
        try:
            b.push(m)
        except ValueError:
            return out, i
        out.append(m)
    return out, -1


@settings(max_examples=200, deadline=None)
@given(games(), st.data())
def test_kernel_agrees_with_board(game: tuple[int, list[int]], data: st.DataObject) -> None:
    size, moves = game
    moves = [m for m in moves if m != PASS or data.draw(st.booleans())]  # drop some passes
    if moves and data.draw(st.booleans()):  # corrupt one move
        i = data.draw(st.integers(0, len(moves) - 1))
        moves[i] = data.draw(st.sampled_from([*range(64), PASS, 70]))
    rep = replay_one(moves, Board(size=size))
    expected, bad = _reference(moves, size)
    assert int(rep.bad[0]) == bad
    if bad < 0:
        assert rep.game_moves(0) == expected
        b = Board(size=size)
        for m in expected:
            b.push(m)
        assert (int(rep.black[0]), int(rep.white[0])) == (b.black.bit_count(), b.white.bit_count())
        assert bool(rep.over[0]) == b.is_game_over()

"""The root search: PVS over the root moves, widening windows, deferred root moves."""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import child
from bitflip.core.board import Board
from bitflip.core.hashing import position_hash
from bitflip.search.control import new_control
from bitflip.search.root import RootSearch, disc_widen
from bitflip.search.state import busy_table


def test_endgame_window_stops_widening_when_the_table_disagrees() -> None:
    """A selective pass's table can fail high at 10, then low at 9 in the window that
    starts there: the widening must end (the whole scale), not alternate for ever."""
    b = Board()
    p, o = b.side_bitboards()
    windows: list[tuple[int, int]] = []

    def search(cp: int, co: int, alpha: int, beta: int) -> int:
        # The child's window (alpha, beta) is the root's (-beta, -alpha).
        windows.append((-beta, -alpha))
        assert len(windows) < 100, "the root window never settles"
        if -alpha < 65:
            return alpha - 2  # the root fails high whenever it can
        if -beta > -65:
            return beta + 2  # and low whenever it can
        return 0

    root = RootSearch(p, o, False, search, new_control(), busy_table(1))
    res = root.aspiration(sorted(b.legal_moves), 3, 10, disc_widen())
    assert res is not None
    assert (-65, 65) in windows


def test_endgame_window_steps_down_from_a_failed_guess() -> None:
    """An exact pass that fails low at -8 when the score is -10 widens a few discs at a time,
    not to the end of the scale (FFO #57: the window (-65, -7) took 143 s, (-12, -7) 48 s)."""
    b = Board()
    p, o = b.side_bitboards()
    windows: list[tuple[int, int]] = []

    def search(cp: int, co: int, alpha: int, beta: int) -> int:
        windows.append((-beta, -alpha))
        return min(max(10, alpha), beta)  # every move scores -10 for the root, fail-hard

    root = RootSearch(p, o, False, search, new_control(), busy_table(1))
    res = root.aspiration(sorted(b.legal_moves), -8, -6, disc_widen())
    assert res is not None and max(r.score for r in res) == -10
    assert windows[0] == (-8, -6) and (-12, -7) in windows
    assert min(w[0] for w in windows) == -12


def test_root_moves_another_thread_searches_come_last() -> None:
    b = Board()
    p, o = b.side_bitboards()
    moves = sorted(b.legal_moves)
    calls: list[int] = []
    value = {m: 10 * i for i, m in enumerate(moves)}  # the last move is the best
    by_child = {child(p, o, m): m for m in moves}

    def search(cp: int, co: int, alpha: int, beta: int) -> int:
        calls.append(by_child[(cp, co)])
        return -value[by_child[(cp, co)]]

    busy = busy_table(2)
    key = position_hash(*map(np.uint64, child(p, o, moves[1])))
    busy[int(key) & (busy.shape[0] - 1)] = key
    root = RootSearch(p, o, False, search, new_control(), busy)
    res = root.pvs(moves, -1000, 1000)
    assert [m for m in dict.fromkeys(calls)] == [moves[0], *moves[2:], moves[1]]
    assert max(res, key=lambda r: r.score).move == moves[-1]
    assert {r.move for r in res} == set(moves)
    alone = RootSearch(p, o, False, search, new_control(), busy_table(1))
    calls.clear()
    alone.pvs(moves, -1000, 1000)
    assert list(dict.fromkeys(calls)) == moves

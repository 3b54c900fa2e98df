from __future__ import annotations

import numpy as np

from bitflip.search.tt import EXACT, LOWER, UPPER, TranspositionTable, tt_probe, tt_store


def test_store_and_probe_round_trip() -> None:
    tt = TranspositionTable.allocate(0.01)
    key = np.uint64(0xDEADBEEF12345678)
    assert not tt_probe(tt.keys, tt.data, key)[0]
    entries = [(-523, 7, LOWER, 19, 1), (6400, 60, EXACT, 64, 1), (0, 0, UPPER, 0, 2)]
    for score, depth, bound, move, gen in entries:
        tt_store(tt.keys, tt.data, key, score, depth, bound, move, gen)
        assert tuple(tt_probe(tt.keys, tt.data, key)) == (True, score, depth, bound, move)
    assert tt.best_move(int(key)) == 0
    # In the same search a shallower bound does not replace a deeper result.
    tt_store(tt.keys, tt.data, key, 5, 9, LOWER, 3, 2)
    tt_store(tt.keys, tt.data, key, 7, 4, UPPER, 4, 2)
    assert tuple(tt_probe(tt.keys, tt.data, key)) == (True, 5, 9, LOWER, 3)


def test_a_bucket_keeps_two_positions_and_replaces_the_shallower() -> None:
    tt = TranspositionTable.allocate(1e-5)  # one bucket
    a, b, c = np.uint64(10), np.uint64(20), np.uint64(30)
    tt_store(tt.keys, tt.data, a, 1, 9, EXACT, 1, 1)
    tt_store(tt.keys, tt.data, b, 2, 3, EXACT, 2, 1)
    assert tt_probe(tt.keys, tt.data, a)[0] and tt_probe(tt.keys, tt.data, b)[0]
    tt_store(tt.keys, tt.data, c, 3, 5, EXACT, 3, 1)
    assert tt_probe(tt.keys, tt.data, a)[0] and not tt_probe(tt.keys, tt.data, b)[0]
    tt.clear()
    assert not tt_probe(tt.keys, tt.data, a)[0]


def test_each_bucket_lies_in_one_cache_line() -> None:
    for megabytes in (1e-5, 0.01, 3):
        tt = TranspositionTable.allocate(megabytes)
        assert tt.keys.ctypes.data % 64 == 0  # a bucket is 32 bytes: never across two lines
        assert tt.data.ctypes.data == tt.keys.ctypes.data + 8  # key and word side by side
        assert tt.entries & (tt.entries - 1) == 0 and not tt.data.any()

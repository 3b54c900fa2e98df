from __future__ import annotations

import random

import numpy as np

from bitflip import Board
from bitflip.core.hashing import canonical, position_hash


def test_canonical_key_is_the_same_for_all_symmetric_positions() -> None:
    rng = random.Random(2)
    for size in (6, 8):
        b = Board(size=size)
        for _ in range(12):
            b.push(rng.choice(list(b.legal_moves)))
        keys = set()
        for s in range(8):
            p, o = b.transform(s).side_bitboards()
            cp, co, _ = canonical(np.uint64(p), np.uint64(o), size)
            keys.add((int(cp), int(co)))
        assert len(keys) == 1


def test_canonical_reports_the_symmetry_used() -> None:
    b = Board()
    b.push("f5")
    p, o = b.side_bitboards()
    cp, co, sym = canonical(np.uint64(p), np.uint64(o), 8)
    t = b.transform(sym)
    assert t.side_bitboards() == (int(cp), int(co))


def test_position_hash_spreads_nearby_positions() -> None:
    b = Board()
    seen = set()
    for m in list(b.legal_moves):
        b.push(m)
        p, o = b.side_bitboards()
        seen.add(int(position_hash(np.uint64(p), np.uint64(o))))
        b.pop()
    assert len(seen) == 4
    p, o = b.side_bitboards()
    assert position_hash(np.uint64(p), np.uint64(o)) != position_hash(np.uint64(o), np.uint64(p))

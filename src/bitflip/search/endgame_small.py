"""The endgame solver's last empties: written out square by square, no move generation.

The last empty square is a flip count read from its four lines; two and three are written
out, the one alone in its quadrant first (parity); four to ``SMALL_EMPTIES`` walk the empty
squares directly, odd regions first. Each kernel is fail-soft, counts nodes in
``ctl[NODES]`` and scores in discs with the empties to the winner. These kernels test a
square's flips before making the child (``flips``, not ``play``): most squares flip nothing.
"""

from __future__ import annotations

import numpy as np

from bitflip.core.bitboard import (
    U1,
    apply_flips,
    final_margin,
    flips,
    legal_moves,
    lowest_square,
    margin_with_empties,
    popcount,
)
from bitflip.core.jit import kernel
from bitflip.search.control import DISC_INF, NODES
from bitflip.search.ordering import odd_regions
from bitflip.search.stability import COL_A

SMALL_EMPTIES = 6
"""At and below this many empties the solver walks the empty squares without move lists."""


def _neighbours() -> np.ndarray:
    out = np.zeros(64, dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                if (dr or dc) and 0 <= r + dr < 8 and 0 <= c + dc < 8:
                    out[sq] |= np.uint64(1 << (8 * (r + dr) + c + dc))
    return out


NEIGHBOURS = _neighbours()
"""The squares around each square: a move there flips nothing unless one holds an opponent."""


def _diagonals() -> np.ndarray:
    # DIAGONALS[sq] = (a1-h8 diagonal, a8-h1 diagonal) through ``sq``, ``sq`` included.
    out = np.zeros((64, 2), dtype=np.uint64)
    for sq in range(64):
        r, c = divmod(sq, 8)
        for rr in range(8):
            for cc in range(8):
                bit = np.uint64(1 << (8 * rr + cc))
                if rr - cc == r - c:
                    out[sq, 0] |= bit
                if rr + cc == r + c:
                    out[sq, 1] |= bit
    return out


def _line_flip_counts() -> np.ndarray:
    # LINE_FLIPS[pos, idx]: discs flipped by playing square ``pos`` of a line of 8 in which the
    # mover holds the squares of bitmask ``idx`` and the opponent all the others.
    out = np.zeros((8, 256), dtype=np.uint8)
    for pos in range(8):
        for idx in range(256):
            n = 0
            for step in (-1, 1):
                run, k = 0, pos + step
                while 0 <= k < 8 and not idx >> k & 1:
                    run, k = run + 1, k + step
                if 0 <= k < 8:
                    n += run
            out[pos, idx] = n
    return out


DIAGONALS = _diagonals()
LINE_FLIPS = _line_flip_counts()
_BYTE = np.uint64(0xFF)
_S56 = np.uint64(56)
_GATHER_COLUMN = np.uint64(0x0102040810204080)
"""Times a column shifted to column a, it lands in the top byte with row k at bit k."""


@kernel()
def _count_last_flips(x: np.uint64, sq: int) -> int:
    # Discs ``x`` flips by playing ``sq`` on a full 8x8 board: each line through ``sq`` is
    # gathered into a byte (a diagonal by a multiply, each square landing on its column's bit;
    # squares missing from a short diagonal read as the opponent's and never end a run).
    r = sq >> 3
    c = sq & 7
    row = (x >> np.uint64(8 * r)) & _BYTE
    col = (((x >> np.uint64(c)) & COL_A) * _GATHER_COLUMN) >> _S56
    d9 = ((x & DIAGONALS[sq, 0]) * COL_A) >> _S56
    d7 = ((x & DIAGONALS[sq, 1]) * COL_A) >> _S56
    n = int(LINE_FLIPS[c, row]) + int(LINE_FLIPS[r, col]) + int(LINE_FLIPS[c, d9])
    return n + int(LINE_FLIPS[c, d7])


@kernel()
def _end_margin(p: np.uint64, o: np.uint64, empties: int) -> int:
    # The final margin when the caller already knows the number of empty squares.
    return margin_with_empties(int(popcount(p)) - int(popcount(o)), empties)


@kernel()
def _last1(p: np.uint64, o: np.uint64, sq: int) -> int:
    # One empty square left: whoever can play it does (the side to move first).
    pc = popcount(p)
    oc = popcount(o)
    around = NEIGHBOURS[sq]
    full = (p | o) == ~(U1 << np.uint64(sq))  # 8x8: count flips from the lines alone
    n = 0
    if around & o:
        n = _count_last_flips(p, sq) if full else popcount(flips(p, o, sq))
    if n > 0:
        return int(pc - oc + 2 * n + 1)
    if around & p:
        n = _count_last_flips(o, sq) if full else popcount(flips(o, p, sq))
    if n > 0:
        return int(pc - oc - 2 * n - 1)
    return _end_margin(p, o, 1)


@kernel()
def _solve2(
    p: np.uint64, o: np.uint64, alpha: int, beta: int, x1: int, x2: int, ctl: np.ndarray
) -> int:
    # Two empties: each side's two tries written out, no move generation; fail-soft.
    ctl[NODES] += 1
    best = -DISC_INF
    if NEIGHBOURS[x1] & o:
        f = flips(p, o, x1)
        if f:
            ctl[NODES] += 1
            np_, no = apply_flips(p, o, x1, f)
            best = -_last1(np_, no, x2)
            if best >= beta:
                return best
    if NEIGHBOURS[x2] & o:
        f = flips(p, o, x2)
        if f:
            ctl[NODES] += 1
            np_, no = apply_flips(p, o, x2, f)
            v = -_last1(np_, no, x1)
            if v > best:
                best = v
    if best != -DISC_INF:
        return best
    # A pass: the opponent tries the same squares and we take the lower score.
    worst = DISC_INF
    if NEIGHBOURS[x1] & p:
        f = flips(o, p, x1)
        if f:
            ctl[NODES] += 1
            pp, po = apply_flips(o, p, x1, f)  # the opponent plays: we are to move
            worst = _last1(pp, po, x2)
            if worst <= alpha:
                return worst
    if NEIGHBOURS[x2] & p:
        f = flips(o, p, x2)
        if f:
            ctl[NODES] += 1
            pp, po = apply_flips(o, p, x2, f)
            v = _last1(pp, po, x1)
            if v < worst:
                worst = v
    if worst != DISC_INF:
        return worst
    return _end_margin(p, o, 2)


@kernel()
def _quadrant(sq: int) -> int:
    return ((sq >> 5) << 1) | ((sq >> 2) & 1)


_SOLVE3_SIG = "int64(uint64, uint64, int64, int64, int64, int64, int64, boolean, int64[::1])"
_SMALL_SIG = "int64(uint64, uint64, int64, int64, uint64, uint64, int64, int64[::1])"
"""Explicit signatures: numba's cache of a recursive function is reliable only with one."""


@kernel(_SOLVE3_SIG)
def _solve3(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    x1: int,
    x2: int,
    x3: int,
    passed: bool,
    ctl: np.ndarray,
) -> int:
    # Three empties, the one alone in its quadrant first (parity); fail-soft.
    ctl[NODES] += 1
    q1 = _quadrant(x1)
    q2 = _quadrant(x2)
    q3 = _quadrant(x3)
    if q1 == q2 and q3 != q1:
        x1, x3 = x3, x1
    elif q1 == q3 and q2 != q1:
        x1, x2 = x2, x1
    best = -DISC_INF
    for k in range(3):
        sq = x1 if k == 0 else x2 if k == 1 else x3
        if NEIGHBOURS[sq] & o == 0:
            continue
        f = flips(p, o, sq)
        if f == 0:
            continue
        ya = x2 if k == 0 else x1
        yb = x2 if k == 2 else x3
        np_, no = apply_flips(p, o, sq, f)
        v = -_solve2(np_, no, -beta, -max(alpha, best), ya, yb, ctl)
        if v > best:
            best = v
            if v >= beta:
                return best
    if best != -DISC_INF:
        return best
    if passed:
        return _end_margin(p, o, 3)
    # ``not passed`` is True here; a literal True would make numba compile a second,
    # unlinkable specialisation of this recursive kernel.
    return -_solve3(o, p, -beta, -alpha, x1, x2, x3, not passed, ctl)


@kernel(_SMALL_SIG)
def _small(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    mask: np.uint64,
    empties: np.uint64,
    n: int,
    ctl: np.ndarray,
) -> int:
    # 4..SMALL_EMPTIES empties: walk the empty squares, odd regions first; fail-soft.
    ctl[NODES] += 1
    best = -DISC_INF
    odd = odd_regions(empties)
    for phase in range(2):
        rem = empties & odd if phase == 0 else empties & ~odd
        while rem:
            sq = int(lowest_square(rem))
            rem &= rem - U1
            if NEIGHBOURS[sq] & o == 0:
                continue
            f = flips(p, o, sq)
            if f == 0:
                continue
            b = U1 << np.uint64(sq)
            np_, no = apply_flips(p, o, sq, f)
            if n == 4:
                e = empties ^ b
                x1 = int(lowest_square(e))
                e &= e - U1
                x2 = int(lowest_square(e))
                e &= e - U1
                x3 = int(lowest_square(e))
                v = -_solve3(np_, no, -beta, -max(alpha, best), x1, x2, x3, False, ctl)
            else:
                v = -_small(np_, no, -beta, -max(alpha, best), mask, empties ^ b, n - 1, ctl)
            if v > best:
                best = v
                if v >= beta:
                    return best
    if best == -DISC_INF:
        if legal_moves(o, p, mask) == 0:
            return final_margin(p, o, mask)
        return -_small(o, p, -beta, -alpha, mask, empties, n, ctl)
    return best


@kernel()
def solve_small(
    p: np.uint64,
    o: np.uint64,
    alpha: int,
    beta: int,
    mask: np.uint64,
    empties: np.uint64,
    n: int,
    ctl: np.ndarray,
) -> int:
    """Exact score (discs) of (p, o) with its ``n`` <= ``SMALL_EMPTIES`` ``empties``, fail-soft
    within (alpha, beta)."""
    if n == 0:
        ctl[NODES] += 1
        return final_margin(p, o, mask)
    x1 = int(lowest_square(empties))
    if n == 1:
        ctl[NODES] += 1
        return _last1(p, o, x1)
    e = empties & (empties - U1)
    x2 = int(lowest_square(e))
    if n == 2:
        return _solve2(p, o, alpha, beta, x1, x2, ctl)
    if n == 3:
        e &= e - U1
        return _solve3(p, o, alpha, beta, x1, x2, int(lowest_square(e)), False, ctl)
    return _small(p, o, alpha, beta, mask, empties, n, ctl)

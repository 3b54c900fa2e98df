"""Numba kernels on side-relative bitboards.

A position is a pair ``(p, o)`` of uint64: the discs of the side to move and of its opponent.
Bit ``8 * row + col`` is a square; a board size is a ``mask`` of valid squares (see
:mod:`bitflip.core.geometry`), so one implementation serves 8x8, 6x6 and 4x4.

Every constant and shift count here is an ``np.uint64``: numba turns ``int64 op uint64`` into
float64 without a warning.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.extending import intrinsic

from bitflip.core.geometry import PASS

U0 = np.uint64(0)
U1 = np.uint64(1)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)
_S14 = np.uint64(14)
_S16 = np.uint64(16)
_S18 = np.uint64(18)
_S28 = np.uint64(28)
_S32 = np.uint64(32)
_S63 = np.uint64(63)
_S4 = np.uint64(4)

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
"""Every square of the 64-bit board (the 8x8 mask; smaller boards use :mod:`geometry` masks)."""
NOT_A = np.uint64(0xFEFEFEFEFEFEFEFE)
"""Squares not in column a: valid landing squares of a shift toward column h."""
NOT_H = np.uint64(0x7F7F7F7F7F7F7F7F)
"""Squares not in column h: valid landing squares of a shift toward column a."""

# --- bit intrinsics (LLVM's ctpop / cttz / ctlz: one instruction each) -----------------------


def _bit_intrinsic(llvm_op: str) -> Any:
    """A numba intrinsic uint64 -> uint64 running one LLVM bit instruction (ctpop/cttz/ctlz)."""

    def impl(typingctx: Any, x: Any) -> tuple[Any, Any]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if llvm_op == "ctpop":
                return builder.ctpop(args[0])
            # True: the result for 0 may be undefined (no caller passes 0), so no branch.
            return getattr(builder, llvm_op)(args[0], context.get_constant(types.boolean, True))

        return types.uint64(types.uint64), codegen

    impl.__name__ = impl.__qualname__ = f"_{llvm_op}"
    return intrinsic(impl)


_ctpop = _bit_intrinsic("ctpop")
_cttz = _bit_intrinsic("cttz")
_ctlz = _bit_intrinsic("ctlz")


@njit(cache=True)
def popcount(x: np.uint64) -> int:
    """Number of set bits."""
    return np.int64(_ctpop(np.uint64(x)))  # type: ignore[return-value]  # an int64 in numba


@njit(cache=True)
def lowest_square(x: np.uint64) -> int:
    """Index of the lowest set bit; x must not be 0."""
    return np.int64(_cttz(np.uint64(x)))  # type: ignore[return-value]  # an int64 in numba


@njit(cache=True)
def square_bit(sq: int) -> np.uint64:
    return U1 << np.uint64(sq)


@njit(cache=True)
def random_square(moves: np.uint64) -> int:
    """A uniformly random square of ``moves`` (not 0), drawn with numba's ``np.random`` state.

    Every random mover (rollouts, openings, environments, Q-learning) draws through this, so a
    seed gives the same game everywhere.
    """
    for _ in range(np.random.randint(popcount(moves))):
        moves &= moves - U1
    return lowest_square(moves)


# --- move generation -------------------------------------------------------------------------


@njit(cache=True)
def _moves_dir_left(
    p: np.uint64, o_d: np.uint64, empty: np.uint64, s: np.uint64, s2: np.uint64
) -> np.uint64:
    # Runs of opponent discs from p in one direction, grown 1, 2, then 2 squares at a time
    # (Edax's doubling trick); a move lands on the empty square just past a run.
    x = o_d & (p << s)
    x |= o_d & (x << s)
    pre = o_d & (o_d << s)
    x |= pre & (x << s2)
    x |= pre & (x << s2)
    return empty & (x << s)


@njit(cache=True)
def _moves_dir_right(
    p: np.uint64, o_d: np.uint64, empty: np.uint64, s: np.uint64, s2: np.uint64
) -> np.uint64:
    x = o_d & (p >> s)
    x |= o_d & (x >> s)
    pre = o_d & (o_d >> s)
    x |= pre & (x >> s2)
    x |= pre & (x >> s2)
    return empty & (x >> s)


@njit(cache=True)
def legal_moves(p: np.uint64, o: np.uint64, mask: np.uint64) -> np.uint64:
    """Bitboard of the legal moves of the side to move (0: it must pass or the game is over)."""
    empty = mask & ~(p | o)
    oh = o & NOT_A  # toward column h (shifts +1, +9, -7) must not land on column a
    oa = o & NOT_H  # toward column a (shifts -1, +7, -9) must not land on column h
    m = _moves_dir_left(p, oh, empty & NOT_A, _S1, _S2)
    m |= _moves_dir_right(p, oa, empty & NOT_H, _S1, _S2)
    m |= _moves_dir_left(p, o, empty, _S8, _S16)
    m |= _moves_dir_right(p, o, empty, _S8, _S16)
    m |= _moves_dir_left(p, oh, empty & NOT_A, _S9, _S18)
    m |= _moves_dir_right(p, oa, empty & NOT_H, _S9, _S18)
    m |= _moves_dir_left(p, oa, empty & NOT_H, _S7, _S14)
    m |= _moves_dir_right(p, oh, empty & NOT_A, _S7, _S14)
    return m


# --- flips -----------------------------------------------------------------------------------


def _build_rays() -> np.ndarray:
    # RAYS[sq, d] for d < 4: the ray from ``sq`` toward higher bits along one axis; d >= 4: the
    # same axis toward lower bits. They serve every size: a square off a smaller board is never
    # the mover's disc, so a run that reaches it never flips.
    rays = np.zeros((64, 8), dtype=np.uint64)
    for d, (dr, dc) in enumerate(((0, 1), (1, 0), (1, 1), (1, -1))):
        for sq in range(64):
            r, c = divmod(sq, 8)
            for sign, k in ((1, d), (-1, 4 + d)):
                rr, cc, ray = r + sign * dr, c + sign * dc, 0
                while 0 <= rr < 8 and 0 <= cc < 8:
                    ray |= 1 << (8 * rr + cc)
                    rr, cc = rr + sign * dr, cc + sign * dc
                rays[sq, k] = np.uint64(ray)
    return rays


RAYS = _build_rays()
_TOP = np.uint64(1 << 63)


@njit(cache=True)
def flips(p: np.uint64, o: np.uint64, sq: int) -> np.uint64:
    """Discs flipped by the side to move playing ``sq`` (0 if the move flips nothing).

    On each ray the first square that is not the opponent's (the outflank) must be ours. No
    branches: a mispredicted branch costs more than the whole computation of a ray.
    """
    f = U0
    not_o = ~o
    rays = RAYS[sq]
    for d in range(4):
        # Toward higher bits the outflank is the lowest set bit of the stops.
        ray = rays[d]
        stop = not_o & ray
        t = stop & (U0 - stop) & p
        f |= (t - np.uint64(t != U0)) & ray
        # Toward lower bits it is the highest (bit 0 stands in when there is none: it is
        # then outside the ray or the opponent's, so never ours on the ray).
        ray = rays[4 + d]
        t = (_TOP >> _ctlz((not_o & ray) | U1)) & p & ray
        f |= ray & (U0 - (t << _S1))
    return f


@njit(cache=True, inline="always")
def apply_flips(p: np.uint64, o: np.uint64, sq: int, f: np.uint64) -> tuple[np.uint64, np.uint64]:
    """The position after the side to move plays ``sq`` flipping ``f`` (from :func:`flips`),
    seen from the new side to move: the one place a move's discs are placed. Inlined, so a
    search that needs the flips anyway pays nothing for the call."""
    return o ^ f, p | f | (U1 << np.uint64(sq))


@njit(cache=True)
def play(p: np.uint64, o: np.uint64, sq: int) -> tuple[np.uint64, np.uint64]:
    """The position after the side to move plays ``sq``, seen from the new side to move."""
    return apply_flips(p, o, sq, flips(p, o, sq))


@njit(cache=True, inline="always")
def play_or_pass(p: np.uint64, o: np.uint64, move: int) -> tuple[np.uint64, np.uint64]:
    """The position after ``move``, a square or ``PASS``, seen from the new side to move."""
    if move == PASS:
        return o, p
    return play(p, o, move)


@njit(cache=True, inline="always")
def game_over(p: np.uint64, o: np.uint64, mask: np.uint64) -> bool:
    """Whether neither side has a legal move (the game is over)."""
    return bool(legal_moves(p, o, mask) == U0 and legal_moves(o, p, mask) == U0)


@njit(cache=True)
def margin_with_empties(diff: int, empties: int) -> int:
    """A finished game's disc difference ``diff`` with the ``empties`` given to the winner."""
    if diff > 0:
        return diff + empties
    if diff < 0:
        return diff - empties
    return 0


@njit(cache=True)
def final_margin(p: np.uint64, o: np.uint64, mask: np.uint64) -> int:
    """The side to move's final disc margin in a finished game, empties to the winner.

    The one place the rule lives: every search, learner and record reader calls this (or
    :func:`margin_with_empties` when it holds counts instead of bitboards).
    """
    return margin_with_empties(int(popcount(p)) - int(popcount(o)), int(popcount(mask & ~(p | o))))


# --- symmetries ------------------------------------------------------------------------------


@njit(cache=True)
def flip_vertical8(x: np.uint64) -> np.uint64:
    """Row r -> row 7 - r (a byte swap)."""
    k1 = np.uint64(0x00FF00FF00FF00FF)
    k2 = np.uint64(0x0000FFFF0000FFFF)
    x = ((x >> _S8) & k1) | ((x & k1) << _S8)
    x = ((x >> _S16) & k2) | ((x & k2) << _S16)
    return (x >> _S32) | (x << _S32)


@njit(cache=True)
def mirror_horizontal8(x: np.uint64) -> np.uint64:
    """Column c -> column 7 - c."""
    k1 = np.uint64(0x5555555555555555)
    k2 = np.uint64(0x3333333333333333)
    k4 = np.uint64(0x0F0F0F0F0F0F0F0F)
    x = ((x >> _S1) & k1) | ((x & k1) << _S1)
    x = ((x >> _S2) & k2) | ((x & k2) << _S2)
    return ((x >> _S4) & k4) | ((x & k4) << _S4)


@njit(cache=True)
def transpose8(x: np.uint64) -> np.uint64:
    """(row, col) -> (col, row): the mirror in the a1-h8 diagonal."""
    k1 = np.uint64(0x5500550055005500)
    k2 = np.uint64(0x3333000033330000)
    k4 = np.uint64(0x0F0F0F0F00000000)
    t = k4 & (x ^ (x << _S28))
    x ^= t ^ (t >> _S28)
    t = k2 & (x ^ (x << _S14))
    x ^= t ^ (t >> _S14)
    t = k1 & (x ^ (x << _S7))
    x ^= t ^ (t >> _S7)
    return x


NUM_SYMMETRIES = 8
SYMMETRY_INVERSE = (0, 1, 2, 3, 4, 6, 5, 7)
"""``SYMMETRY_INVERSE[s]`` undoes symmetry ``s``."""


@njit(cache=True)
def transform(x: np.uint64, sym: int, size: int) -> np.uint64:
    """Apply symmetry ``sym`` (0-7) to a bitboard of a ``size x size`` board.

    Bit 2 of ``sym`` transposes, then bit 1 flips the rows, then bit 0 mirrors the columns;
    0 is the identity.
    """
    if sym & 4:
        x = transpose8(x)
    if sym & 2:
        x = flip_vertical8(x) >> np.uint64(8 * (8 - size))
    if sym & 1:
        x = mirror_horizontal8(x) >> np.uint64(8 - size)
    return x


# --- one call per Board move -----------------------------------------------------------------
# Explicit signatures: the Board passes and gets plain Python ints, which numba converts to
# uint64 itself (its dispatch of np.uint64 objects costs 3x more).


@njit("UniTuple(uint64, 3)(uint64, uint64, int64, uint64)", cache=True)
def move_and_next(
    p: np.uint64, o: np.uint64, sq: int, mask: np.uint64
) -> tuple[np.uint64, np.uint64, np.uint64]:
    """What ``Board.push`` needs in one call: the discs ``sq`` flips (0: not a legal move if
    ``sq`` is empty), the next side's legal moves, and, when it has none, its opponent's."""
    f = flips(p, o, sq)
    np_, no_ = apply_flips(p, o, sq, f)
    nxt = legal_moves(np_, no_, mask) if f != U0 else U0
    after = legal_moves(no_, np_, mask) if f != U0 and nxt == U0 else U0
    return f, nxt, after


@njit("UniTuple(uint64, 2)(uint64, uint64, uint64)", cache=True)
def moves_and_after_pass(
    p: np.uint64, o: np.uint64, mask: np.uint64
) -> tuple[np.uint64, np.uint64]:
    """The side to move's legal moves and, when it has none, its opponent's (0: game over)."""
    m = legal_moves(p, o, mask)
    return m, (legal_moves(o, p, mask) if m == U0 else U0)


def child(p: int, o: int, sq: int) -> tuple[int, int]:
    """:func:`play` for Python ints: (p, o) after the side to move plays ``sq``, seen from the
    new side to move."""
    np_, no = play(np.uint64(p), np.uint64(o), sq)
    return int(np_), int(no)


def squares_of(bits: int) -> list[int]:
    """The squares of a Python-int bit set, lowest first (legal moves, empties)."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out

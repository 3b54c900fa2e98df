"""Batch replay of recorded games in numba: legality, implicit passes, positions, final discs.

The one replay of recorded games: every format reader checks its games through :func:`replay`
(WTHOR streams 130,000 games in one call, transcripts and GGF call it with one game at a time),
and the training-data builders ask it for the positions before each move
(``positions=True``). It is the one place that decides whether a recorded move is legal and
where a pass must be inserted.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from bitflip.core import bitboard as bb
from bitflip.core.bitboard import U0, U1
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS

END = -1
"""Marks the end of a game's moves in the input array."""

OK = 0
OFF_BOARD = 1
ILLEGAL = 2
BAD_PASS = 3
GAME_OVER = 4

REASONS = {
    OFF_BOARD: "is not a square of the board",
    ILLEGAL: "is illegal",
    BAD_PASS: "is a pass but the side to move has a legal move",
    GAME_OVER: "comes after the end of the game",
}


@njit(cache=True)
def _why_no_pass(p: np.uint64, o: np.uint64, mask: np.uint64, if_mover_can: int) -> int:
    """OK when the side to move must pass here; else ``if_mover_can`` or GAME_OVER."""
    if bb.legal_moves(p, o, mask) != U0:
        return if_mover_can
    if bb.legal_moves(o, p, mask) == U0:
        return GAME_OVER
    return OK


@njit(cache=True)
def _replay_kernel(
    moves: np.ndarray,
    starts: tuple[np.ndarray, np.ndarray, np.ndarray],
    mask: np.uint64,
    games: tuple[np.ndarray, ...],
    positions: tuple[np.ndarray, ...],
) -> None:
    # starts: black, white and white-to-move per game. games: per game, the moves with passes
    # (out, n_out), where and why it broke off (bad, reason), final discs and whether it is
    # over. positions: pos_* of shape (games, plies) when positions are wanted, (0, 0) when
    # not: the position before each played (non-pass) move, its mover (True: white) and its
    # ply (passes counted), n_pos per game.
    black0, white0, white_first = starts
    out, n_out, bad, reason, black, white, over = games
    pos_p, pos_o, pos_white, pos_ply, n_pos = positions
    keep = pos_p.shape[0] > 0
    n_games, length = moves.shape
    for g in range(n_games):
        if white_first[g]:
            p, o = white0[g], black0[g]
        else:
            p, o = black0[g], white0[g]
        black_to_move = not white_first[g]
        k = 0
        j = 0
        bad[g] = -1
        reason[g] = 0
        for i in range(length):
            m = moves[g, i]
            if m < 0:
                break
            # An explicit pass, a move (after an implicit pass if only the opponent can play
            # it), or the reason the record breaks off here.
            f = U0
            bit = U0
            passes = True
            if m == PASS:
                why = _why_no_pass(p, o, mask, BAD_PASS)
            elif m > 63 or (mask >> np.uint64(m)) & U1 == U0:
                why = OFF_BOARD
            else:
                bit = U1 << np.uint64(m)
                f = U0 if (p | o) & bit else bb.flips(p, o, m)
                why = OK
                passes = f == U0
                if passes:
                    why = _why_no_pass(p, o, mask, ILLEGAL)
                    if why == OK and not (p | o) & bit:
                        f = bb.flips(o, p, m)
                    if why == OK and f == U0:
                        why = ILLEGAL
            if why != OK:
                bad[g] = i
                reason[g] = why
                break
            if passes:
                out[g, k] = PASS
                k += 1
                p, o = o, p
                black_to_move = not black_to_move
            if m == PASS:
                continue
            if keep:
                pos_p[g, j] = p
                pos_o[g, j] = o
                pos_white[g, j] = not black_to_move
                pos_ply[g, j] = k
                j += 1
            p, o = o ^ f, p | f | bit
            black_to_move = not black_to_move
            out[g, k] = m
            k += 1
        n_out[g] = k
        n_pos[g] = j
        if black_to_move:
            black[g], white[g] = bb.popcount(p), bb.popcount(o)
        else:
            black[g], white[g] = bb.popcount(o), bb.popcount(p)
        over[g] = bb.legal_moves(p, o, mask) == U0 and bb.legal_moves(o, p, mask) == U0


@dataclass(frozen=True)
class ReplayedPositions:
    """The positions before each played move, games in order, moves in order within a game.

    Only games that replayed to their last recorded move are included.
    """

    player: np.ndarray
    """Discs of the side to move (uint64)."""
    opponent: np.ndarray
    white: np.ndarray
    """True where white is to move."""
    ply: np.ndarray
    """Moves (passes included) played before the position (int16)."""
    game: np.ndarray
    """Index of the game in the input (int64)."""


@dataclass(frozen=True)
class Replay:
    """What replaying a batch of games found, one entry per game.

    ``moves[g, :length[g]]`` are the moves with every pass written out; ``bad[g]`` is the
    index (in the input) of the first move that could not be played, or -1; ``black`` and
    ``white`` count the discs where the replay stopped; ``over`` says whether that position
    ends the game. With ``positions=True``, ``positions`` holds the position before every
    played move (passes have none).
    """

    moves: np.ndarray
    length: np.ndarray
    bad: np.ndarray
    reason: np.ndarray
    black: np.ndarray
    white: np.ndarray
    over: np.ndarray
    positions: ReplayedPositions | None = None

    def game_moves(self, g: int) -> list[Move]:
        return [int(m) for m in self.moves[g, : self.length[g]].tolist()]

    def black_margin(self, squares: int = 64) -> np.ndarray:
        """Black's disc margin where each replay stopped, the empties given to the winner.

        The array form of :func:`bitflip.core.bitboard.margin_with_empties` (int64); it is a
        final score only where ``over`` is true. ``squares``: the board's number of squares.
        """
        b = self.black.astype(np.int64)
        w = self.white.astype(np.int64)
        diff = b - w
        return np.asarray(diff + np.sign(diff) * (squares - b - w))

    def why(self, g: int) -> str:
        return REASONS.get(int(self.reason[g]), "is illegal")


def replay(
    moves: np.ndarray,
    mask: int,
    black0: np.ndarray | None = None,
    white0: np.ndarray | None = None,
    white_first: np.ndarray | None = None,
    start: tuple[int, int] | None = None,
    positions: bool = False,
) -> Replay:
    """Replay ``moves`` (int16, shape (games, plies), END-padded; PASS = 64) on a board size.

    Start positions default to ``start`` = (black, white) bitboards for every game (black to
    move); pass per-game arrays to start elsewhere. ``positions`` also collects the position
    before every move of the games that replay legally (see :class:`ReplayedPositions`).
    """
    moves = np.ascontiguousarray(moves, dtype=np.int16)
    n, length = moves.shape
    if black0 is None or white0 is None:
        if start is None:
            raise ValueError("replay needs a start position")
        black0 = np.full(n, start[0], dtype=np.uint64)
        white0 = np.full(n, start[1], dtype=np.uint64)
    if white_first is None:
        white_first = np.zeros(n, dtype=np.bool_)
    out = np.full((n, 2 * length + 1), END, dtype=np.int16)
    n_out = np.zeros(n, dtype=np.int32)
    bad = np.full(n, -1, dtype=np.int32)
    reason = np.zeros(n, dtype=np.int8)
    black = np.zeros(n, dtype=np.int32)
    white = np.zeros(n, dtype=np.int32)
    over = np.zeros(n, dtype=np.bool_)
    shape = (n, length) if positions else (0, 0)
    pos_p = np.zeros(shape, dtype=np.uint64)
    pos_o = np.zeros(shape, dtype=np.uint64)
    pos_white = np.zeros(shape, dtype=np.bool_)
    pos_ply = np.zeros(shape, dtype=np.int16)
    n_pos = np.zeros(n, dtype=np.int32)
    if n:
        _replay_kernel(
            moves,
            (
                np.ascontiguousarray(black0, dtype=np.uint64),
                np.ascontiguousarray(white0, dtype=np.uint64),
                np.ascontiguousarray(white_first, dtype=np.bool_),
            ),
            np.uint64(mask),
            (out, n_out, bad, reason, black, white, over),
            (pos_p, pos_o, pos_white, pos_ply, n_pos),
        )
    found = None
    if positions:
        # Row-major order keeps games in order and moves in order within each game.
        keep = (np.arange(length)[None, :] < n_pos[:, None]) & (bad < 0)[:, None]
        game = np.broadcast_to(np.arange(n, dtype=np.int64)[:, None], (n, length))
        found = ReplayedPositions(
            pos_p[keep], pos_o[keep], pos_white[keep], pos_ply[keep], game[keep]
        )
    return Replay(out, n_out, bad, reason, black, white, over, found)


def replay_one(moves: list[Move], board: Board) -> Replay:
    """Replay one game's moves from ``board`` (its position, not its stack)."""
    arr = np.array([moves if moves else [END]], dtype=np.int16)
    return replay(
        arr,
        board.geometry.mask,
        black0=np.array([board.black], dtype=np.uint64),
        white0=np.array([board.white], dtype=np.uint64),
        white_first=np.array([board.turn == 1], dtype=np.bool_),
    )


__all__ = ["END", "PASS", "Replay", "ReplayedPositions", "replay", "replay_one"]


def explain(board: Board, moves: list[Move], bad: int) -> str:
    """Why ``moves[bad]`` cannot be played after ``moves[:bad]`` from ``board`` (slow path)."""
    b = board.copy(stack=False)
    for m in moves[:bad]:
        if m != PASS and b.legal_mask() == 0 and not b.is_game_over():
            b.push(PASS)
        b.push(m)
    m = moves[bad]
    if m != PASS and b.legal_mask() == 0 and not b.is_game_over():
        b.push(PASS)
    try:
        b.push(m)
    except ValueError as exc:
        return str(exc)
    return f"move {m} is illegal"  # not reached: the kernel and Board agree on legality

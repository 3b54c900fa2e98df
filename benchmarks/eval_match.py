"""Match two evaluations at equal fixed depth: a plain alpha-beta (numba), XOT openings,
colours swapped, so that only the evaluation differs.

Run: PYTHONPATH=src .venv/bin/python benchmarks/eval_match.py patterns features
         [--depth 4] [--openings 100] [--xot ../shared/data/xot/openingssmall.txt]

``--depth-b D`` gives the second evaluation its own depth: one evaluation against itself a ply
apart (``default default --depth 5 --depth-b 4``) measures what a full-width ply is worth.

Prints wins/draws/losses of the first evaluation and its score (wins + draws / 2) with a 95%
normal interval. This is a check of the evaluations, not the engine: the engine's search
(``bitflip.search``) adds ordering, a transposition table and an exact endgame. That is why
it keeps its own plain negamax: the engine's exact endgame would play the last moves for both
sides and hide part of the difference (and RESULTS.md's numbers were made with this one).
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np
from numba import njit

from bitflip.core.bitboard import FULL, U1, flips, legal_moves, lowest_square, popcount
from bitflip.core.board import Board
from bitflip.eval.evaluator import EVAL_SCALE, evaluate, load_evaluation

INF = 1 << 30


@njit(cache=True)
def _negamax(
    p: np.uint64, o: np.uint64, depth: int, alpha: int, beta: int, kind: int, w: np.ndarray
) -> int:
    moves = legal_moves(p, o, FULL)
    if moves == 0:
        if legal_moves(o, p, FULL) == 0:
            return (popcount(p) - popcount(o)) * EVAL_SCALE * 1000
        return -_negamax(o, p, depth, -beta, -alpha, kind, w)
    if depth == 0:
        return evaluate(p, o, FULL, kind, w)
    best = -INF
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        f = flips(p, o, sq)
        v = -_negamax(o ^ f, p | f | (U1 << np.uint64(sq)), depth - 1, -beta, -alpha, kind, w)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    return best


@njit(cache=True)
def best_move(p: np.uint64, o: np.uint64, depth: int, kind: int, w: np.ndarray) -> int:
    """The move with the best fixed-depth score (lowest square on ties)."""
    moves = legal_moves(p, o, FULL)
    best = -INF
    best_sq = -1
    alpha = -INF
    while moves:
        sq = lowest_square(moves)
        moves &= moves - U1
        f = flips(p, o, sq)
        v = -_negamax(o ^ f, p | f | (U1 << np.uint64(sq)), depth - 1, -INF, -alpha, kind, w)
        if v > best:
            best = v
            best_sq = sq
            alpha = max(alpha, v)
    return best_sq


Side = tuple[int, np.ndarray, int]
"""A player: evaluation kind, weights, search depth."""


def play_game(board: Board, black: Side, white: Side) -> int:
    """Black's final disc margin."""
    while not board.is_game_over():
        if board.legal_mask() == 0:
            board.push(64)
            continue
        kind, w, depth = black if board.turn == 0 else white
        p, o = (np.uint64(x) for x in board.side_bitboards())
        board.push(int(best_move(p, o, depth, kind, w)))
    outcome = board.outcome()
    assert outcome is not None
    return outcome.margin


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("first")
    ap.add_argument("second")
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--depth-b", type=int, default=None, help="the second's depth (else --depth)")
    ap.add_argument("--openings", type=int, default=100)
    ap.add_argument("--xot", default="../shared/data/xot/openingssmall.txt")
    args = ap.parse_args()
    da = args.depth
    db = args.depth if args.depth_b is None else args.depth_b
    if min(da, db) < 1:
        ap.error(f"depths must be at least 1, not {min(da, db)}")
    a, b = load_evaluation(args.first), load_evaluation(args.second)
    ea, eb = (a.kind, a.weights, da), (b.kind, b.weights, db)
    lines = [x.strip() for x in Path(args.xot).read_text().splitlines() if x.strip()]
    lines = lines[: args.openings]
    wins = draws = losses = 0
    t0 = time.perf_counter()
    for line in lines:
        for first_is_black in (True, False):
            board = Board()
            for i in range(0, len(line), 2):
                board.push(line[i : i + 2])
            margin = play_game(board, *((ea, eb) if first_is_black else (eb, ea)))
            m = margin if first_is_black else -margin
            wins += m > 0
            draws += m == 0
            losses += m < 0
    n = wins + draws + losses
    score = (wins + draws / 2) / n
    ci = 1.96 * math.sqrt(score * (1 - score) / n)
    print(
        f"{a.name} (depth {da}) vs {b.name} (depth {db}), {len(lines)} XOT openings x 2 colours: "
        f"+{wins} ={draws} -{losses}, score {score:.1%} +- {ci:.1%} "
        f"({time.perf_counter() - t0:.0f} s)"
    )


if __name__ == "__main__":
    main()

"""Where bitflip's selective win/loss/draw proofs lose games: the exact value of each position from
its first proof to the exact solve, in the games it did not win.

A level with selective proofs (``SearchPlan.selective_wld_empties``; the default's at 23-25
empties) answers with the first move its ProbCut-cut endgame search finds to win (or draw), and
reports the value as 1.00 (or 0.00). Such a proof is likely, not sure: in a game it then does not
win, either the position was not won (the proof misjudged it) or it was, and a proof's move
threw the win away. This script tells the two apart. For each game of the records in which side
A's first report at ``--empties`` is a likely win (``--draws``: a likely draw) and A did not win
(``--draws``: any result), it solves exactly, with the engine's solver, the win/loss/draw value
for A before and after each of A's moves from that proof down to ``--until`` empties.

Run: PYTHONPATH=src python benchmarks/proof_errors.py MATCH.jsonl.gz [MORE ...] \\
         [--empties 23 25] [--until 19] [--draws] [--workers 2]

Prints, over the games examined: the exact value at the first proof by its empties, and the
first move that made A's value worse (its empties, the value before -> after). A position at
23-25 empties solves in about 1-10 s on one core.

``--both N`` asks the same of both sides, whatever they reported, in the first N games of the
records: the exact value before every move from the upper ``--empties`` down to ``--until``, and
each move that made its mover's value worse, by side and empties (the points it cost: a win
thrown to a draw half a game, to a loss a whole one).
"""

from __future__ import annotations

import argparse
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from match_errors import match_games

from bitflip.core.board import Board
from bitflip.core.geometry import PASS

Sample = tuple[int, float, int, int]
"""One of A's moves: empties before it, the value A reported, exact value before and after."""


def a_moves(game: dict[str, Any]) -> list[tuple[int, int, str]]:
    """A's moves after the opening: (index in the game, empties before it, square), passes
    skipped (an engine reports no value for a pass)."""
    moves = [game["moves"][i : i + 2] for i in range(0, len(game["moves"]), 2)]
    opening = len(game["opening"]) // 2
    a_side = 0 if game["a_color"] == "black" else 1
    out, side, played = [], 0, 0
    for i, move in enumerate(moves):
        if move.lower() != "pa":
            if i >= opening and side == a_side:
                out.append((i, 60 - played, move))
            played += 1
        side ^= 1
    return out


def first_proof(game: dict[str, Any], lo: int, hi: int, value: float) -> int | None:
    """Index into :func:`a_moves` of A's first report of ``value`` at ``lo``-``hi`` empties."""
    reports = (game.get("evals") or {}).get("A", [])
    moves = a_moves(game)
    if len(reports) != len(moves):
        return None  # a record whose values do not line up with the moves: not examined
    for k, ((_, empties, _), v) in enumerate(zip(moves, reports, strict=True)):
        if lo <= empties <= hi and v == value:
            return k
    return None


def _wld(board: Board) -> int:
    # Exact win (1), draw (0) or loss (-1) for the side to move.
    from bitflip.search.exact import solve

    if board.is_game_over():
        margin = board.disc_count(board.turn) - board.disc_count(board.turn.other)
        return (margin > 0) - (margin < 0)
    p, o = board.side_bitboards()
    v = solve(p, o, (1 << 64) - 1, -1, 1)
    return (v > 0) - (v < 0)


def examine(game: dict[str, Any], start: int, until: int) -> list[Sample]:
    """Exact values around A's moves from its ``start``-th move down to ``until`` empties."""
    import bitflip.search.exact as exact

    exact.TT_MB = 256  # before the first solve: positions of 25 empties
    moves = [game["moves"][i : i + 2] for i in range(0, len(game["moves"]), 2)]
    reports = game["evals"]["A"]
    out: list[Sample] = []
    examined = list(zip(a_moves(game), reports, strict=True))[start:]
    for (index, empties, square), reported in examined:
        if empties < until:
            break
        board = Board()
        for move in moves[:index]:
            board.push(PASS if move.lower() == "pa" else move)
        before = _wld(board)
        board.push(square)
        out.append((empties, reported, before, -_wld(board)))
    return out


def value_drops(game: dict[str, Any], hi: int, until: int) -> list[tuple[str, int, int, int]]:
    """Every move from ``hi`` empties down to ``until`` that made its mover's exact value worse:
    (side "A" or "B", empties before it, value before, value after), values for the mover."""
    import bitflip.search.exact as exact

    exact.TT_MB = 256
    moves = [game["moves"][i : i + 2] for i in range(0, len(game["moves"]), 2)]
    a_side = 0 if game["a_color"] == "black" else 1
    board = Board()
    out: list[tuple[str, int, int, int]] = []
    before: int | None = None  # the mover's value, known from the previous move's solve
    for i, move in enumerate(moves):
        empties = board.empties
        side = "A" if i % 2 == a_side else "B"
        if move.lower() == "pa":
            board.push(PASS)
            before = -before if before is not None else None
            continue
        if until <= empties <= hi:
            if before is None:
                before = _wld(board)
            board.push(move)
            after = -_wld(board)
            if after < before:
                out.append((side, empties, before, after))
            before = -after  # the next mover's value
        else:
            board.push(move)
            before = None
    return out


def main_both(args: argparse.Namespace) -> None:
    """``--both``: each side's worse moves over the first N games."""
    hi = args.empties[1]
    games = [game for path in args.records for game in match_games(path)][: args.both]
    tally = Counter[tuple[object, ...]]()
    points = Counter[str]()
    with ProcessPoolExecutor(args.workers) as pool:
        for drops in pool.map(value_drops, games, [hi] * len(games), [args.until] * len(games)):
            for side, empties, before, after in drops:
                tally[(side, empties, f"{before} -> {after}")] += 1
                points[side] += (before - after) / 2
    print(f"{len(games)} games, exact values from {hi} empties down to {args.until}")
    for key, count in sorted(tally.items(), key=str):
        print(*key, ":", count)
    for side in "AB":
        share = 100 * points[side] / len(games)
        print(f"{side}: {points[side]:.1f} points thrown ({share:.2f} a 100 games)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", type=Path, nargs="+")
    ap.add_argument("--empties", type=int, nargs=2, default=[23, 25], metavar=("LO", "HI"))
    ap.add_argument("--until", type=int, default=19, help="the last empties examined")
    ap.add_argument("--draws", action="store_true", help="likely draws, whatever the result")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--both", type=int, default=0, metavar="N", help="both sides, N games")
    args = ap.parse_args()
    if args.both:
        main_both(args)
        return
    lo, hi = args.empties
    value = 0.0 if args.draws else 1.0
    jobs, seen, results = [], 0, Counter[str]()
    for path in args.records:
        for game in match_games(path):
            k = first_proof(game, lo, hi, value)
            if k is None:
                continue
            seen += 1
            results[game["result_a"]] += 1
            if args.draws or game["result_a"] != "W":
                jobs.append((game, k))
    print(f"{seen} games with a first likely {'draw' if args.draws else 'win'} at {lo}-{hi} "
          f"empties: {dict(results)}; examining {len(jobs)}")  # fmt: skip
    tally = Counter[tuple[object, ...]]()
    with ProcessPoolExecutor(args.workers) as pool:
        futures = [pool.submit(examine, game, k, args.until) for game, k in jobs]
        for future in futures:
            samples = future.result()
            if not samples:
                continue
            tally[("exact value at the first proof", samples[0][0], samples[0][2])] += 1
            drop = next((s for s in samples if s[3] < s[2]), None)
            if drop is not None:
                tally[("first worse move", drop[0], f"{drop[2]} -> {drop[3]}")] += 1
            else:
                tally[("no worse move down to", args.until)] += 1
    for key, count in sorted(tally.items(), key=str):
        print(*key, ":", count)


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as exc:  # a bad record or an illegal move in one: say which
        raise SystemExit(f"proof_errors: {exc}") from None

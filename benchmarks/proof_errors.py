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

from match_errors import match_games, plies

from bitflip.core.board import Board

Sample = tuple[int, float, int, int]
"""One of A's moves: empties before it, the value A reported, exact value before and after."""


def a_empties(game: dict[str, Any]) -> list[int]:
    """The empties before each of A's moves after the opening, passes skipped (an engine reports
    no value for a pass): the moves of A's reported values, one to one."""
    return [
        board.empties
        for board, move, mover, past_opening in plies(game)
        if past_opening and mover == "A" and move.lower() != "pa"
    ]


def first_proof(game: dict[str, Any], lo: int, hi: int, value: float) -> int | None:
    """Index into A's reported values of its first report of ``value`` at ``lo``-``hi`` empties."""
    reports = (game.get("evals") or {}).get("A", [])
    empties = a_empties(game)
    if len(reports) != len(empties):
        return None  # a record whose values do not line up with the moves: not examined
    for k, (e, v) in enumerate(zip(empties, reports, strict=True)):
        if lo <= e <= hi and v == value:
            return k
    return None


def exact_wld(board: Board) -> int:
    """Exact win (1), draw (0) or loss (-1) for the side to move, from a table large enough for
    positions of 25 empties (set before this process's first solve)."""
    import bitflip.search.exact as exact

    exact.TT_MB = 256
    if board.is_game_over():
        margin = board.disc_count(board.turn) - board.disc_count(board.turn.other)
        return (margin > 0) - (margin < 0)
    p, o = board.side_bitboards()
    v = exact.solve(p, o, (1 << 64) - 1, -1, 1)
    return (v > 0) - (v < 0)


def value_after(board: Board, move: str) -> int:
    """The mover's exact value after ``move``; the board is left as it was."""
    board.push(move)
    try:
        return -exact_wld(board)
    finally:
        board.pop()


def examine(game: dict[str, Any], start: int, until: int) -> list[Sample]:
    """Exact values around A's moves from its ``start``-th reported move down to ``until``
    empties."""
    reports = iter(game["evals"]["A"][start:])
    k = 0
    out: list[Sample] = []
    for board, move, mover, past_opening in plies(game):
        if not (past_opening and mover == "A" and move.lower() != "pa"):
            continue
        k += 1
        if k <= start:
            continue
        if board.empties < until:
            break
        out.append((board.empties, next(reports), exact_wld(board), value_after(board, move)))
    return out


def value_drops(game: dict[str, Any], hi: int, until: int) -> list[tuple[str, int, int, int]]:
    """Every move from ``hi`` empties down to ``until`` that made its mover's exact value worse:
    (side "A" or "B", empties before it, value before, value after), values for the mover."""
    out: list[tuple[str, int, int, int]] = []
    before: int | None = None  # the mover's value, known from the previous move's solve
    for board, move, mover, _ in plies(game):
        if move.lower() == "pa":
            before = -before if before is not None else None
        elif until <= board.empties <= hi:
            if before is None:
                before = exact_wld(board)
            after = value_after(board, move)
            if after < before:
                out.append((mover, board.empties, before, after))
            before = -after  # the next mover's value
        else:
            before = None
    return out


def main_both(args: argparse.Namespace) -> None:
    """``--both``: each side's worse moves over the first N games."""
    hi = args.empties[1]
    games = [game for path in args.records for game in match_games(path)][: args.both]
    tally = Counter[tuple[object, ...]]()
    points: dict[str, float] = {"A": 0.0, "B": 0.0}
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

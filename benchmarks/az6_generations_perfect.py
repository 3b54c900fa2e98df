"""Does each accepted generation of a 6x6 run, alone, play the solved game from the start?

Every accepted net of each run plays itself from the start as the ``mcts`` agent users get
(``mcts:net=NET,size=6,sims=N``: no exact solver, finished games valued as the net's run did),
and each of its moves with at most ``--solve-from`` empties is checked by a full solve of
every move (is it one of the best?). 6x6 under perfect play ends 16-20 (White by 4); a game
that ends 16-20 with no move lost in the checked part is necessary for perfect play (the
moves before ``--solve-from`` need ``az6_vs_exact.py``'s window searches to be proved).

    PYTHONPATH=src python benchmarks/az6_generations_perfect.py runs/az-6x6-endgame \\
        --sims 400 --solve-from 20 --csv perfect.csv

``--checkpoints`` checks every candidate a run trained (``checkpoints/``) instead, accepted or
not; ``--every K`` only every K-th net (and the last). Prints one line per net (its training
minutes from ``RUN/timing``, the score, the moves that lost the exact value as
``empties:square:value-kept/best``) and writes the CSV.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

from az_curve import generation_minutes, generation_times

from bitflip.agents import make_agent
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.search.exact import solve_moves


def self_play(net: Path, sims: int, solve_from: int) -> tuple[str, str, list[str]]:
    """The net's game against itself from the start: score, moves and the moves that lost."""
    agent = make_agent(f"mcts:net={net},size=6,sims={sims}", seed=0)
    b = Board(size=6)
    mask = b.geometry.mask
    names, lost = [], []
    while not b.is_game_over():
        move = agent.select_move(b)
        empties = b.empties
        if move != PASS and empties <= solve_from:
            p, o = b.side_bitboards()
            values = solve_moves(p, o, mask)
            if values[move] != max(values):
                square = b.geometry.square_name(move)
                lost.append(f"{empties}:{square}:{int(values[move])}/{int(max(values))}")
        names.append("pa" if move == PASS else b.geometry.square_name(move))
        b.push(move)
    out = b.outcome()
    assert out is not None
    return f"{out.black}-{out.white}", "".join(names), lost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path, help="run directories (with accepted/)")
    ap.add_argument("--sims", type=int, default=400, help="simulations per move")
    ap.add_argument("--solve-from", type=int, default=20, help="full solves at <= N empties")
    ap.add_argument("--csv", type=Path, help="CSV of the results")
    ap.add_argument(
        "--checkpoints", action="store_true", help="every candidate (checkpoints/), not accepted/"
    )
    ap.add_argument("--every", type=int, default=1, help="every k-th net only (the last always)")
    args = ap.parse_args()
    rows: list[dict[str, object]] = []
    for run in args.runs:
        times = generation_times(run)
        folder = run / ("checkpoints" if args.checkpoints else "accepted")
        pattern = "it[0-9][0-9][0-9][0-9].json" if args.checkpoints else "[0-9][0-9][0-9][0-9].json"
        records = sorted(folder.glob(pattern))
        records = [r for i, r in enumerate(records) if i % args.every == 0 or r == records[-1]]
        for rec in records:
            info = json.loads(rec.read_text())
            if args.checkpoints:
                info["iteration"] = int(rec.stem[2:])
            t0 = time.time()
            score, game, lost = self_play(folder / info["net"], args.sims, args.solve_from)
            minutes = (times.get(info["iteration"], float("inf")) / 60 if args.checkpoints
                       else generation_minutes(rec, times))  # fmt: skip
            rows.append({"run": run.name, "generation": rec.stem,
                         "iteration": info["iteration"], "minutes": round(minutes, 1),
                         "net": info["net"], "score": score, "lost": " ".join(lost),
                         "game": game})  # fmt: skip
            print(f"{run.name} {rec.stem} (it {info['iteration']:3d}, "
                  f"{minutes:5.1f} min) {info['net']}: {score}, lost at <= {args.solve_from} "
                  f"empties: {' '.join(lost) or 'none'} ({time.time() - t0:.0f} s)",
                  flush=True)  # fmt: skip
    if args.csv and rows:
        with args.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()

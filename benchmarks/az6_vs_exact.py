"""The shipped 6x6 AlphaZero net against exact play.

6x6 Othello is solved: with perfect play White wins 20-16 (Feinstein, 1993). The net plays
itself from the start (no noise, most visited move); the final score is set against 16-20, and
from ``--solve-from`` empties on, every move is checked with the exact solver
(:mod:`bitflip.learn.exact`): does it keep the exact value of the position?

    PYTHONPATH=src python benchmarks/az6_vs_exact.py --sims 400 --solve-from 14
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from bitflip.agents import make_agent
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.learn.exact import solve_moves

NET = Path(__file__).resolve().parents[1] / "src" / "bitflip" / "data" / "az-049e93023567.pt"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sims", type=int, default=400)
    ap.add_argument("--solve-from", type=int, default=14)
    args = ap.parse_args()
    agent = make_agent(f"mcts:net={NET},sims={args.sims}", seed=0)
    b = Board(size=6)
    mask = np.uint64(b.geometry.mask)
    checked = kept = 0
    first_value = None
    line = []
    while not b.is_game_over():
        move = agent.select_move(b)
        empties = bin(b.empty).count("1")
        if move != PASS and empties <= args.solve_from:
            p, o = (np.uint64(x) for x in b.side_bitboards())
            exact = solve_moves(p, o, mask)
            value = int(max(exact))
            if first_value is None:
                black_view = value if b.turn == 0 else -value
                first_value = (empties, black_view)
            checked += 1
            kept += int(exact[move] == value)
        line.append(b.geometry.square_name(move))
        b.push(move)
    out = b.outcome()
    assert out is not None
    print(f"net ({args.sims} sims) vs itself from the start: {out.black}-{out.white} "
          f"(perfect play: 16-20)")  # fmt: skip
    print("game:", "".join(line))
    if first_value is not None:
        e, v = first_value
        print(f"exact value at {e} empties in that game: black {v:+d}; "
              f"net kept the exact value in {kept}/{checked} solved moves")  # fmt: skip


if __name__ == "__main__":
    main()

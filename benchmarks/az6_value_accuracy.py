"""How well a 6x6 AlphaZero net's value head knows the endgame, against the exact solver.

Games are played from the start: ``--random-plies`` random moves, then moves sampled from the
net's policy; positions with 4-20 empties are kept with probability ``--keep`` and solved
exactly (:func:`bitflip.search.exact.solve`). The net's value is compared with the exact
margin on the scale the net was trained on, ``(1 - x) * sign + x * margin / 36`` with ``x``
its run's ``train.value_margin``, and with the sign of the margin (does it know who wins?).

    PYTHONPATH=src python benchmarks/az6_value_accuracy.py NET --games 60

Prints, by band of empties: positions, mean absolute error, right sign of the result.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator

import numpy as np

from bitflip.core.board import Board
from bitflip.nn.checkpoint import load_az_model
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.search.exact import solve

BANDS = ((4, 8), (9, 12), (13, 16), (17, 20))


def net_games(
    pv: NetPolicyValue, games: int, random_plies: int, rng: np.random.Generator
) -> Iterator[tuple[Board, float]]:
    """Every position of ``games`` 6x6 games from the start (``random_plies`` random moves, then
    moves sampled from the net's policy), with the net's value, yielded before its move is
    chosen; the caller may draw from ``rng`` in between (the same draws as before this helper)."""
    for _ in range(games):
        b = Board(size=6)
        ply = 0
        while not b.is_game_over():
            moves = list(b.legal_moves)
            p, o = b.side_bitboards()
            pol, val = pv.evaluate(np.array([p], np.uint64), np.array([o], np.uint64))
            yield b, float(val[0])
            if ply < random_plies:
                move = moves[rng.integers(len(moves))]
            else:
                w = np.array([pol[0][m] for m in moves]) + 1e-9
                move = moves[rng.choice(len(moves), p=w / w.sum())]
            b.push(move)
            ply += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("net", help="a 6x6 AlphaZero net file")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--random-plies", type=int, default=6, help="random moves from the start")
    ap.add_argument("--keep", type=float, default=0.3, help="share of positions solved")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    pv = NetPolicyValue.from_file(args.net, "cpu")
    config = load_az_model(args.net).lineage.get("config", {})
    x = float(config.get("train", {}).get("value_margin", 0.0)) if config else 0.0
    rng = np.random.default_rng(args.seed)
    rows = []
    for b, value in net_games(pv, args.games, args.random_plies, rng):
        empties = b.empties
        if 4 <= empties <= 20 and rng.random() < args.keep:
            p, o = b.side_bitboards()
            margin = solve(p, o, b.geometry.mask)
            rows.append((empties, value, (1 - x) * np.sign(margin) + x * margin / 36))
    r = np.array(rows)
    print(f"{args.net}: value target (1 - {x}) * sign + {x} * margin / 36, {args.games} games")
    for lo, hi in BANDS:
        s = r[(r[:, 0] >= lo) & (r[:, 0] <= hi)]
        mae = np.abs(s[:, 1] - s[:, 2]).mean()
        sign = (np.sign(s[:, 1]) == np.sign(s[:, 2])).mean()
        print(
            f"{lo:2d}-{hi:2d} empties: {len(s):4d} positions, MAE {mae:.3f}, right sign {sign:.2f}"
        )


if __name__ == "__main__":
    main()

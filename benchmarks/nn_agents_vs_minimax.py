"""Match a network agent against ``minimax:depth=2`` from XOT openings, colours swapped.

Usage (from the repo root, shared data beside it):
    PYTHONPATH=src python benchmarks/nn_agents_vs_minimax.py --agent policy:net=builtin \
        --openings 100 [--xot ../shared/data/xot/openingssmall.txt]

Each opening is played twice (the network as black, then as white); a game's score is
1 for a win, 0.5 for a draw. Prints one line per 20 games and a summary.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from bitflip.agents import make_agent
from bitflip.core.board import BLACK, Board


def play(black, white, opening: str) -> int:  # type: ignore[no-untyped-def]
    """Disc difference (black - white, empties to the winner) of one game."""
    board = Board()
    for i in range(0, len(opening), 2):
        board.push(opening[i : i + 2])
    while not board.is_game_over():
        agent = black if board.turn == BLACK else white
        board.push(agent.select_move(board))
    outcome = board.outcome()
    assert outcome is not None
    return outcome.black - outcome.white


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default="policy:net=builtin")
    ap.add_argument("--opponent", default="minimax:depth=2")
    ap.add_argument("--openings", type=int, default=100)
    ap.add_argument("--xot", default="../shared/data/xot/openingssmall.txt")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    with open(args.xot) as f:
        lines = [s.strip() for s in f if s.strip()]
    rng = np.random.default_rng(args.seed)
    openings = [lines[i] for i in rng.choice(len(lines), args.openings, replace=False)]
    net = make_agent(args.agent, seed=args.seed)
    opp = make_agent(args.opponent, seed=args.seed)
    wins = draws = losses = 0
    t0 = time.time()
    for k, opening in enumerate(openings):
        for net_black in (True, False):
            diff = play(net, opp, opening) if net_black else -play(opp, net, opening)
            wins += diff > 0
            draws += diff == 0
            losses += diff < 0
        games = 2 * (k + 1)
        if games % 20 == 0:
            print(f"{games} games: +{wins} ={draws} -{losses}  ({time.time() - t0:.0f}s)")
    n = wins + draws + losses
    score = (wins + 0.5 * draws) / n
    print(
        f"{args.agent} vs {args.opponent}: {n} games, +{wins} ={draws} -{losses}, "
        f"win rate {wins / n:.1%}, score {score:.1%}"
    )


if __name__ == "__main__":
    main()

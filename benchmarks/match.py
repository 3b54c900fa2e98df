"""A small match: an agent against opponents over XOT openings, colours swapped.

``PYTHONPATH=src python benchmarks/match.py --agent engine --against minimax:depth=4 positional
--openings 10`` plays each opening twice (once per colour) against each opponent and prints
wins, draws and losses of the agent and its mean disc margin.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bitflip.agents import make_agent
from bitflip.core.board import Board


def openings(data: Path | None, n: int) -> list[list[str]]:
    if data is not None and (data / "xot" / "openingssmall.txt").is_file():
        lines = (data / "xot" / "openingssmall.txt").read_text().split()
        step = max(1, len(lines) // n)
        return [[ln[i : i + 2] for i in range(0, len(ln), 2)] for ln in lines[::step][:n]]
    return [[]] * n


def play(black: str, white: str, opening: list[str], seed: int) -> int:
    agents = [make_agent(black, seed=seed), make_agent(white, seed=seed + 1)]
    b = Board()
    for m in opening:
        b.push(m)
    while not b.is_game_over():
        b.push(agents[b.turn].select_move(b))
    out = b.outcome()
    assert out is not None
    return out.margin


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default="engine")
    ap.add_argument("--against", nargs="+", default=["minimax:depth=4", "positional"])
    ap.add_argument("--openings", type=int, default=10)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    args = ap.parse_args()
    ops = openings(args.data if args.data.is_dir() else None, args.openings)
    for opp in args.against:
        w = d = lo = 0
        margins = []
        for k, op in enumerate(ops):
            for agent_black in (True, False):
                m = play(args.agent, opp, op, k) if agent_black else -play(opp, args.agent, op, k)
                margins.append(m)
                w += m > 0
                d += m == 0
                lo += m < 0
        n = len(margins)
        print(f"{args.agent} vs {opp}: {w} wins, {d} draws, {lo} losses of {n} "
              f"({100 * (w + d / 2) / n:.1f}%), mean margin {sum(margins) / n:+.1f}")  # fmt: skip


if __name__ == "__main__":
    main()

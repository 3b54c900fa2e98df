"""Self-play throughput: batched MCTS over many games vs one game, one leaf per network call.

Both sides use the same net, the same simulations per move and the same search code; the only
difference is how many leaves one network call evaluates. Positions are searched moves.

    PYTHONPATH=src python benchmarks/selfplay.py --size 6 --sims 64 --games 256 --device cpu

Results are recorded in benchmarks/selfplay.md.
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np
import torch

from bitflip.nn.alphazero import AZNet, AZNetConfig
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.search.mcts import BatchedMCTS, MCTSConfig
from bitflip.search.mcts.games import play_games


def measure(ev: NetPolicyValue, games: int, cfg: MCTSConfig, rounds: int) -> tuple[float, int, int]:
    """Positions per second over ``rounds`` calls of ``games`` lockstep games."""
    mcts = BatchedMCTS(ev, games, cfg, seed=1)
    positions = 0
    calls0 = ev.calls
    t0 = time.perf_counter()
    for r in range(rounds):
        out = play_games([mcts], np.zeros((games, 2), np.int64), record=True, temp_moves=8,
                         noise=True, seed=r)  # fmt: skip
        positions += len(out.player)
    dt = time.perf_counter() - t0
    return positions / dt, positions, ev.calls - calls0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=6)
    ap.add_argument("--sims", type=int, default=64)
    ap.add_argument("--games", type=int, default=256, help="concurrent games of the batched run")
    ap.add_argument("--single-games", type=int, default=2, help="games of the one-leaf baseline")
    ap.add_argument("--channels", type=int, default=128)
    ap.add_argument("--device", default="cpu")
    args = ap.parse_args()
    torch.manual_seed(0)
    net = AZNet(AZNetConfig(size=args.size, channels=args.channels, fc1=256, fc2=128))
    ev = NetPolicyValue(net, args.device)
    cfg = MCTSConfig(sims=args.sims)
    measure(ev, 2, MCTSConfig(sims=4), 1)  # compile the kernels, warm up torch
    single, n1, c1 = measure(ev, 1, cfg, args.single_games)
    print(f"single game, 1 leaf/call : {single:9.1f} positions/s ({n1} positions, {c1} calls)",
          flush=True)  # fmt: skip
    batched, n2, c2 = measure(ev, args.games, cfg, 1)
    print(f"machine: {platform.processor() or platform.machine()}, torch {torch.__version__}, "
          f"device {args.device}, threads {torch.get_num_threads()}")  # fmt: skip
    print(f"net: 6x6 report net, {args.channels} channels; sims/move {args.sims}")
    print(
        f"{args.games} games batched     : {batched:9.1f} positions/s ({n2} positions, {c2} calls)"
    )
    print(f"speed-up                 : {batched / single:9.1f}x")


if __name__ == "__main__":
    main()

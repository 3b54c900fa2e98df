"""Steps per second of the vectorised numba environment (random legal moves on every board).

PYTHONPATH=src python benchmarks/vector_env.py --boards 4096 --steps 200
"""

from __future__ import annotations

import argparse
import time

from bitflip.envs.vector import VectorOthello, random_actions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--size", type=int, default=8)
    args = ap.parse_args()
    env = VectorOthello(args.boards, args.size)
    _, _, legal = env.reset()
    env.step(random_actions(legal, 0))  # compile
    t0 = time.perf_counter()
    for i in range(args.steps):
        env.step(random_actions(env.legal, i))
    dt = time.perf_counter() - t0
    rate = args.boards * args.steps / dt
    print(f"{args.boards} boards x {args.steps} steps, {args.size}x{args.size}: "
          f"{rate:,.0f} board-steps/s (random action choice included)")  # fmt: skip


if __name__ == "__main__":
    main()

"""The Q-learning report's table on 4x4, 6x6 and 8x8: random vs random, trained vs random,
trained vs trained (self-play table against the table trained against random).

    PYTHONPATH=src python benchmarks/qlearning_table.py --episodes 4:200000,6:300000,8:100000

Results are recorded in benchmarks/qlearning.md.
"""

from __future__ import annotations

import argparse
import time

from bitflip.learn.qlearning import QConfig, QTable, evaluate, train


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", default="4:200000,6:300000,8:100000")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--table-bits", type=int, default=23)
    args = ap.parse_args()
    print("| size | episodes | table | pairs stored | line | wins | draws | losses |")
    print("|---|---|---|---|---|---|---|---|")
    for item in args.episodes.split(","):
        size, episodes = (int(x) for x in item.split(":"))
        tables = {}
        for opp in ("self", "random"):
            cfg = QConfig(size=size, episodes=episodes, opponent=opp, table_bits=args.table_bits,
                          epsilon=0.3, epsilon_end=0.02)  # fmt: skip
            t0 = time.time()
            tables[opp] = train(QTable.empty(cfg))
            print(f"<!-- {size}x{size} {opp}: {time.time() - t0:.0f}s -->", flush=True)
        n = args.games
        rows = [
            ("-", "random vs random", evaluate(None, None, size, n, 1)),
            ("self", "self-play table vs random", evaluate(tables["self"], None, size, n, 1)),
            ("random", "vs-random table vs random", evaluate(tables["random"], None, size, n, 1)),
            ("both", "self-play table vs vs-random table",
             evaluate(tables["self"], tables["random"], size, n, 1)),
        ]  # fmt: skip
        for tname, line, (w, d, lost) in rows:
            used = tables[tname].used if tname in tables else "-"
            cells = f"{size}x{size} | {episodes} | {tname} | {used} | {line} | {w} | {d} | {lost}"
            print(f"| {cells} |", flush=True)


if __name__ == "__main__":
    main()

"""One network call at torch's thread counts: one thread, all threads, and bitflip's choice.

    PYTHONPATH=src python benchmarks/torch_threads.py [--busy] [--batches 1,8,64,512,4096]

Times ``NetPolicyValue.evaluate`` with the shipped 8x8 net on the CPU at each batch size: with
torch pinned to one thread, pinned to every core, and at torch's default count, where
``bitflip.nn.threads`` picks the threads per call. The three are interleaved round by round,
so a load that moves affects them alike; a time is the median of the rounds. ``--busy`` runs a
busy-loop process on every other core meanwhile. Results are in RESULTS-python-api.md.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

import numpy as np
import torch

from bitflip.core.board import Board
from bitflip.nn.agents import shipped_az_net
from bitflip.nn.policy_value import NetPolicyValue

SETTINGS = {"1 thread": 1, "all threads": os.cpu_count() or 1, "bitflip's choice": 0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--busy", action="store_true", help="a busy loop on every other core")
    ap.add_argument("--batches", default="1,8,64,512,4096")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    default = torch.get_num_threads()
    ev = NetPolicyValue.from_file(shipped_az_net(8), "cpu")

    @torch.inference_mode()
    def fixed(p: np.ndarray, o: np.ndarray) -> None:
        """``ev.evaluate``'s work at torch's current thread count (no choice per call)."""
        ev._forward(p, o, np.zeros((len(p), 65), np.float32), np.zeros(len(p), np.float32))

    b = Board()
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range((os.cpu_count() or 1) - 1)] if args.busy else []  # fmt: skip
    try:
        print(f"torch {torch.__version__}, default threads {default}, {os.cpu_count()} cores, "
              f"busy loops {len(busy)}, load average {os.getloadavg()[0]:.2f}")  # fmt: skip
        print("\n| positions | " + " | ".join(SETTINGS) + " |\n|---|" + "---|" * len(SETTINGS))
        for n in map(int, args.batches.split(",")):
            p, o = np.full(n, b.black, np.uint64), np.full(n, b.white, np.uint64)
            times: dict[str, list[float]] = {k: [] for k in SETTINGS}
            for _ in range(args.rounds):
                for name, k in SETTINGS.items():
                    torch.set_num_threads(k or default)
                    run = ev.evaluate if k == 0 else fixed
                    run(p, o)  # warm up at this count
                    t0 = time.perf_counter()
                    run(p, o)
                    times[name].append(time.perf_counter() - t0)
            cells = [f"{np.median(v) * 1e3:.2f} ms" for v in times.values()]
            print(f"| {n} | " + " | ".join(cells) + " |", flush=True)
        print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
        torch.set_num_threads(default)


if __name__ == "__main__":
    main()

"""Labels a second and self-play games a second: the local process pool against Ray on the
same cores (issue 36).

Each round runs the same job three times, in turn: on ``Backend("local", workers=N)`` (spawned
processes), on ``Backend("ray", workers=N)`` (a local Ray instance with N CPUs, started and
stopped by the job, as ``--backend ray`` without an address does), and on Ray already running
with N CPUs (as on a cluster: ``ray-running``); the order rotates between rounds. The clock
covers the whole job, worker start-up included (the pool's spawned processes import bitflip as
Ray's workers do). Output: one markdown row per job and backend.

    PYTHONPATH=src python benchmarks/distributed.py --workers 2 --rounds 2
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bitflip.jobs import Backend


def label_run(backend: Backend, folder: Path, args: argparse.Namespace) -> float:
    """Seconds to label ``args.positions`` WTHOR positions (chunks of ``args.chunk``)."""
    from bitflip.datadir import find
    from bitflip.learn.eval_labels import LabelConfig, draw_positions, make_labels

    cfg = LabelConfig(
        wthor=str(find("wthor/WTH_2001.wtb")), positions=args.positions, chunk=args.chunk,
        level=args.level, min_empties=14, max_empties=50, out=str(folder),
    )  # fmt: skip
    draw_positions(cfg)  # once before the clock: WTHOR reading is the driver's, either way
    t0 = time.perf_counter()
    make_labels(cfg, backend=backend)
    return time.perf_counter() - t0


def selfplay_run(backend: Backend, folder: Path, args: argparse.Namespace) -> float:
    """Seconds for one self-play step of ``args.games`` games (shards of ``args.concurrent``)."""
    from bitflip.learn.az_config import config_from_dict
    from bitflip.learn.az_rundir import RunDir
    from bitflip.learn.az_selfplay_step import selfplay_step

    cfg = config_from_dict({
        "run": {"dir": str(folder), "device": "cpu", "seed": 1},
        "net": {"size": 6, "channels": 16, "fc1": 32, "fc2": 32},
        "mcts": {"sims": args.sims},
        "selfplay": {"games_per_iteration": args.games, "concurrent_games": args.concurrent},
    })  # fmt: skip
    cfg = replace(cfg, selfplay=replace(cfg.selfplay, backend=backend.name))
    run = RunDir(cfg.dir)
    from bitflip.learn.az_rundir import initial_net

    initial_net(cfg, run)  # the generation-0 net, before the clock
    t0 = time.perf_counter()
    selfplay_step(cfg, run, 0, backend=backend)
    return time.perf_counter() - t0


def timed(fn: Any, name: str, folder: Path, args: argparse.Namespace) -> float:
    """``fn``'s seconds on the backend ``name``."""
    if name != "ray-running":
        return float(fn(Backend(name, workers=args.workers), folder, args))
    import ray

    ray.init(num_cpus=args.workers, include_dashboard=False, log_to_driver=False)
    try:
        return float(fn(Backend("ray"), folder, args))
    finally:
        ray.shutdown()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", default="labels,selfplay")
    ap.add_argument("--positions", type=int, default=400, help="labels: positions")
    ap.add_argument("--chunk", type=int, default=25, help="labels: positions a task")
    ap.add_argument("--level", type=int, default=6, help="labels: engine level")
    ap.add_argument("--games", type=int, default=32, help="self-play: games")
    ap.add_argument("--concurrent", type=int, default=4, help="self-play: games a shard")
    ap.add_argument("--sims", type=int, default=32, help="self-play: simulations a move")
    args = ap.parse_args()
    runs = {"labels": (label_run, args.positions, "labels/s"),
            "selfplay": (selfplay_run, args.games, "games/s")}  # fmt: skip
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    print(f"{now}, {platform.machine()}, {args}")
    print("| job | backend | seconds per round | rate (best round) |")
    print("|---|---|---|---|")
    for job in args.jobs.split(","):
        fn, count, unit = runs[job]
        names = ["local", "ray", "ray-running"]
        times: dict[str, list[float]] = {name: [] for name in names}
        for r in range(args.rounds):
            for name in names[r % 3 :] + names[: r % 3]:
                with tempfile.TemporaryDirectory() as tmp:
                    times[name].append(timed(fn, name, Path(tmp), args))
        for name, ts in times.items():
            shown = ", ".join(f"{t:.1f}" for t in ts)
            print(f"| {job} | {name} | {shown} | {count / min(ts):.2f} {unit} |", flush=True)


if __name__ == "__main__":
    main()

"""``bitflip train alphazero --config FILE``: self-play, train and gate in turn, resumable."""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Callable

from bitflip.cli._numbers import COUNT, COUNT_OR_ZERO, MINUTES
from bitflip.cli._subcommand import Subparsers, add_subcommand


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "train alphazero")
    p.add_argument("--config", help="TOML config (see configs/alphazero-6x6.toml)")
    p.add_argument("--out", "--dir", dest="out", help="run folder (overrides the config's dir)")
    p.add_argument("--iterations", type=COUNT, help="iterations to reach (overrides the config)")
    p.add_argument("--device", help="cpu, cuda or auto (overrides the config)")
    p.add_argument(
        "--backend", choices=("local", "ray"), help="where self-play runs (overrides the config)"
    )
    p.add_argument("--ray-address", help="Ray cluster to join, as HOST:6379 (overrides)")
    p.add_argument(
        "--init-net",
        metavar="NET",
        help="generation 0 of a new run folder: 'builtin' (the shipped net for the size) or a "
        "net file (overrides the config's init_net; a run with accepted nets keeps its own)",
    )
    p.add_argument("--step", choices=("selfplay", "train", "gate"), help="run only this step")
    p.add_argument(
        "--iteration", type=COUNT_OR_ZERO, help="iteration of --step (default: the next one)"
    )
    p.add_argument("--evaluate", metavar="NET", help="a net to evaluate instead of training")
    p.add_argument(
        "--reproduce",
        metavar="NET",
        help="train NET again from the run config and iteration its file records (into --out, "
        "default runs/reproduce-<name>; resumable) and compare the weights; --config not needed",
    )
    p.add_argument(
        "--vs",
        default="random,greedy,minimax:depth=3",
        help="opponents for --evaluate, separated by ';' or ',' between specs without '='",
    )
    p.add_argument("--games", type=COUNT, default=20, help="games per opponent for --evaluate")
    p.add_argument("--sims", type=COUNT, default=100, help="simulations per move for --evaluate")
    p.add_argument(
        "--max-minutes",
        type=MINUTES,
        help="stop after this long, cleanly, whatever step is running; the same command resumes",
    )
    p.add_argument(
        "--plot", metavar="PNG", help="write the run's gating score per iteration and exit"
    )
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.set_defaults(func=run)


def _split_specs(text: str) -> list[str]:
    if ";" in text:
        return [s.strip() for s in text.split(";") if s.strip()]
    out: list[str] = []
    for part in text.split(","):
        if "=" in part and out and ":" in out[-1]:
            out[-1] += "," + part
        else:
            out.append(part.strip())
    return out


def run(args: argparse.Namespace) -> int:
    from bitflip.learn import alphazero as az
    from bitflip.learn.az_config import load_config
    from bitflip.learn.az_rundir import RunDir
    from bitflip.learn.timelimit import TimeLimitReached

    if args.reproduce:
        return _reproduce(args)
    if not args.config:
        raise ValueError("bitflip train alphazero needs --config FILE (or --reproduce NET)")
    cfg = load_config(
        args.config,
        {"dir": args.out, "iterations": args.iterations, "device": args.device,
         "init_net": args.init_net},
    )  # fmt: skip
    if args.backend is not None or args.ray_address is not None:
        sp = cfg.selfplay
        sp = dataclasses.replace(
            sp, backend=args.backend or sp.backend, ray_address=args.ray_address or sp.ray_address
        )
        cfg = dataclasses.replace(cfg, selfplay=sp)
    log = (lambda _: None) if args.quiet else (lambda s: print(s, flush=True))
    if args.evaluate:
        from bitflip.learn.az_eval import format_table, table1

        rows = table1(args.evaluate, _split_specs(args.vs), args.games, args.sims,
                      device=cfg.device, seed=cfg.seed)  # fmt: skip
        print(format_table(rows))
        return 0
    if args.plot:
        from bitflip.learn.az_eval import plot_gating

        print(plot_gating(cfg.dir, args.plot))
        return 0
    if args.step:
        run_dir = RunDir(cfg.dir)
        it = run_dir.iterations_done() if args.iteration is None else args.iteration
        step: dict[str, Callable[..., object]] = {
            "selfplay": az.selfplay_step, "train": az.train_step, "gate": az.gate_step
        }  # fmt: skip
        step[args.step](cfg, run_dir, it, log)
        return 0
    try:
        run_dir = az.run_loop(cfg, log, max_minutes=args.max_minutes)
    except TimeLimitReached as exc:
        print(f"{exc}: stopped; run the same command to resume", flush=True)
        return 0
    print(f"best net: {run_dir.best_net()}")
    return 0


def _reproduce(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from bitflip.learn import alphazero as az
    from bitflip.learn.az_reproduce import reproduction_config, weight_difference
    from bitflip.learn.timelimit import TimeLimitReached

    cfg, iteration = reproduction_config(args.reproduce, args.out)
    if args.device:
        cfg = replace(cfg, device=args.device)
    log = (lambda _: None) if args.quiet else (lambda s: print(s, flush=True))
    print(f"training {args.reproduce} again: {cfg.dir}, iterations 0-{iteration}", flush=True)
    try:
        run_dir = az.run_loop(cfg, log, max_minutes=args.max_minutes)
    except TimeLimitReached as exc:
        print(f"{exc}: stopped; run the same command to resume", flush=True)
        return 0
    made = run_dir.candidate(iteration)
    assert made is not None
    diff = weight_difference(made, args.reproduce)
    same = "the same weights" if diff == 0 else f"weights that differ by up to {diff:.3g}"
    print(f"iteration {iteration} made {made}: {same} as {args.reproduce}")
    return 0

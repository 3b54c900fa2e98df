"""``bitflip train qlearning --config FILE --out TABLE``: tabular Q-learning and its table."""

from __future__ import annotations

import argparse

from bitflip.cli._numbers import COUNT
from bitflip.cli._subcommand import Subparsers, add_subcommand


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "train qlearning")
    p.add_argument("--config", required=True, help="TOML config (see configs/qlearning.toml)")
    p.add_argument("--out", required=True, help="table file to write (.npz); resumed if present")
    p.add_argument("--size", type=int, choices=(4, 6, 8), help="board size (overrides the config)")
    p.add_argument("--episodes", type=COUNT, help="training games (overrides the config)")
    p.add_argument("--opponent", choices=("self", "random"), help="overrides the config")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace
    from pathlib import Path

    from bitflip.learn.qlearning import QTable, evaluate, load_qconfig, train

    cfg = load_qconfig(args.config)
    over = {"size": args.size, "episodes": args.episodes, "opponent": args.opponent}
    cfg = replace(cfg, **{k: v for k, v in over.items() if v is not None})
    out = Path(args.out)
    table = QTable.load(out) if out.exists() else QTable.empty(cfg)
    old = table.config
    if (old.size, old.symmetric, old.table_bits) != (cfg.size, cfg.symmetric, cfg.table_bits):
        raise ValueError(
            f"{out} was trained with size={old.size}, symmetric={old.symmetric}, "
            f"table_bits={old.table_bits}; the config says otherwise (use another --out)"
        )
    table = QTable(table.keys, table.values, cfg, table.episodes_done)
    step = max(1000, cfg.episodes // 20)
    while table.episodes_done < cfg.episodes:  # save as it goes: a killed run resumes
        train(table, episodes=step, progress=not args.quiet)
        table.save(out)
    n = cfg.eval_games
    fill = table.used / len(table.keys)
    print(
        f"{cfg.size}x{cfg.size}, {table.episodes_done} games vs {cfg.opponent}, "
        f"{table.used} pairs stored ({fill:.1%} of the table)"
    )
    rows = [
        ("random vs random", evaluate(None, None, cfg.size, n, cfg.seed)),
        ("trained vs random", evaluate(table, None, cfg.size, n, cfg.seed)),
        ("trained vs trained", evaluate(table, table, cfg.size, 2, cfg.seed)),
    ]
    print(f"{'':<20} {'wins':>6} {'draws':>6} {'losses':>6}")
    for name, (w, d, lost) in rows:
        print(f"{name:<20} {w:>6} {d:>6} {lost:>6}")
    return 0

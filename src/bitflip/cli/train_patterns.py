"""``bitflip train patterns --config configs/patterns.toml``: fit the pattern evaluation."""

from __future__ import annotations

import argparse

from bitflip._progress import ProgressLine
from bitflip.cli._numbers import COUNT, COUNT_OR_ZERO
from bitflip.cli._subcommand import Subparsers, add_subcommand
from bitflip.datadir import find


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "train patterns")
    p.add_argument("--config", required=True, help="TOML file (see configs/patterns.toml)")
    p.add_argument("--wthor", help="WTHOR folder or .wtb file (overrides the config)")
    p.add_argument(
        "--extra",
        action="append",
        metavar="WTB",
        help="extra .wtb file or folder (repeatable; replaces the config's list)",
    )
    p.add_argument("--no-extra", action="store_true", help="ignore the config's extra sources")
    p.add_argument("--out", help="run folder (overrides the config)")
    p.add_argument("--epochs", type=COUNT, help="epochs (overrides the config)")
    p.add_argument("--max-games", type=COUNT_OR_ZERO, help="use at most this many games (0: all)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from bitflip.learn.patterns_config import PatternsFitConfig
    from bitflip.learn.patterns_fit import fit_patterns

    cfg = PatternsFitConfig.from_toml(args.config)

    def located(path: str) -> str:
        # A config path under ../shared/data/ names a data set: it is looked up in the data
        # folders ($BITFLIP_DATA first), as every data path is.
        prefix = "../shared/data/"
        return str(find(path[len(prefix) :] if path.startswith(prefix) else path))

    cfg.wthor = str(find(args.wthor)) if args.wthor else located(cfg.wthor)
    cfg.extra = [] if args.no_extra else [located(e) for e in (args.extra or cfg.extra)]
    if args.out:
        cfg.out = args.out
    if args.epochs is not None:
        cfg.epochs = args.epochs
    if args.max_games is not None:
        cfg.max_games = args.max_games
    cfg.check()

    bars: dict[str, ProgressLine] = {}

    def progress(done: int, total: int, what: str) -> None:
        bar = bars.get(what)
        if bar is None:
            for old in bars.values():
                old.close()
            bars.clear()
            bar = bars[what] = ProgressLine(f"{what}:")
        bar.update(done, total, " chunks" if "chunks" in what else " positions")

    def log(msg: str) -> None:
        for bar in bars.values():
            bar.close()
        bars.clear()
        print(msg, flush=True)

    result = fit_patterns(cfg, progress, log)
    log(
        f"held-out MAE {result.holdout_mae:.2f} discs over {result.holdout_positions} positions "
        f"of {result.holdout_games} games (predicting 0: {result.baseline_mae:.2f})"
    )
    print(f"weights: {result.weights_path}\ncard: {result.card_path}")
    return 0

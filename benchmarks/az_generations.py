"""Strength per accepted generation of an AlphaZero run: each net against fixed opponents.

Gating only says that a net beat its predecessor; this plays every accepted generation of a
run directory against the same registry agents (the report's Table 1, batched MCTS, colours
swapped, random openings) and plots the score per generation, so progress is measured on a
fixed scale. Nets in the retired ``bitflip-az-net`` format are converted in a temporary
directory first.

    PYTHONPATH=src python benchmarks/az_generations.py runs/az-8x8-cpu \\
        --vs random --vs minimax:depth=2 --games 20 --sims 50 --out gens.png --csv gens.csv
"""

from __future__ import annotations

import argparse
import csv
import json
import tempfile
import time
from pathlib import Path

from bitflip.learn.az_eval import table1
from bitflip.nn.checkpoint import CheckpointError, convert_legacy_az, load_model


def usable(net: Path, tmp: Path) -> Path:
    """The net itself, or a converted copy of a file in the retired format."""
    try:
        load_model(net)
    except CheckpointError as exc:
        if "retired" not in str(exc):
            raise
        return convert_legacy_az(net, tmp)
    return net


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path, help="run directory (with accepted/)")
    ap.add_argument("--vs", action="append", help="opponent spec (repeatable)")
    ap.add_argument("--games", type=int, default=20, help="games per opponent and generation")
    ap.add_argument("--sims", type=int, default=50, help="simulations per move of the net")
    ap.add_argument("--opening-plies", type=int, default=4, help="random plies before play")
    ap.add_argument("--out", type=Path, help="PNG plot of score per generation")
    ap.add_argument("--csv", type=Path, help="CSV of the results")
    args = ap.parse_args()
    opponents = args.vs or ["random", "minimax:depth=2"]
    records = sorted((args.run / "accepted").glob("[0-9][0-9][0-9][0-9].json"))
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for rec in records:
            info = json.loads(rec.read_text())
            net = usable(args.run / "accepted" / info["net"], Path(tmp))
            t0 = time.time()
            for row in table1(net, opponents, args.games, args.sims, device="cpu",
                              opening_plies=args.opening_plies, seed=1):  # fmt: skip
                r = row.result
                rows.append({"generation": int(rec.stem), "iteration": info["iteration"],
                             "net": info["net"], "opponent": row.opponent, "wins": r.wins,
                             "draws": r.draws, "losses": r.losses, "score": r.score})  # fmt: skip
                print(f"gen {int(rec.stem):2d} (it {info['iteration']:3d}) {row}", flush=True)
            print(f"  {time.time() - t0:.0f}s", flush=True)
    if args.csv:
        with args.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
    if args.out:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        fig, ax = plt.subplots(figsize=(7, 4))
        for opp in opponents:
            pts = [(r["generation"], r["score"]) for r in rows if r["opponent"] == opp]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=f"vs {opp}")
        ax.set_xlabel("accepted generation")
        ax.set_ylabel(f"score ({args.games} games, {args.sims} sims/move)")
        ax.set_ylim(-0.02, 1.02)
        ax.axhline(0.5, color="black", lw=0.5)
        ax.legend(fontsize=8)
        fig.tight_layout()
        fig.savefig(args.out, dpi=110)
        print(args.out)


if __name__ == "__main__":
    main()

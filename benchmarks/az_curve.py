"""Elo over training time: every accepted generation of AlphaZero runs against fixed opponents.

For each run directory (PUCT or Gumbel root, with or without exact endgame targets...), every
accepted net plays ``--games`` games against each ``--vs`` agent (batched MCTS, colours
swapped, random openings). All results go into one maximum-likelihood Elo fit
(:mod:`bitflip.arena.ratings`) anchored at the first opponent, so every generation of every
run is on one scale. Its training time is the sum of the step times in ``RUN/timing/`` up to
the iteration that produced it (runs without them: file times since ``accepted/0000.json``).

    PYTHONPATH=src python benchmarks/az_curve.py runs/az6-puct runs/az6-gumbel \\
        --vs random --vs minimax:depth=2 --games 20 --sims 16 --csv curve.csv --out curve.png

Writes a CSV (run, generation, iteration, seconds, elo, ci, score, games) and a plot of Elo
against training minutes, one line per run: the best net in force, as a step, from each
accepted generation to the next and on to the run's last iteration. The net searches as its
run did (``mcts.root`` of ``RUN/config.json``) unless ``--root`` says otherwise.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from pathlib import Path

from bitflip.arena.ratings import fit_elo, head_to_head
from bitflip.learn.az_eval import table1


def generation_times(run: Path) -> dict[int, float]:
    """Training seconds when each iteration had finished (gating included)."""
    timing = sorted((run / "timing").glob("it[0-9][0-9][0-9][0-9].json"))
    out: dict[int, float] = {}
    total = 0.0
    if timing:
        for t in timing:
            total += sum(float(v) for v in json.loads(t.read_text()).values())
            out[int(t.stem[2:])] = total
        return out
    start = (run / "accepted" / "0000.json").stat().st_mtime
    for g in sorted((run / "gating").glob("it[0-9][0-9][0-9][0-9].json")):
        out[int(g.stem[2:])] = g.stat().st_mtime - start
    return out


def generation_minutes(record: Path, times: dict[int, float]) -> float:
    """Training minutes when the generation of an ``accepted/NNNN.json`` record was made."""
    it = int(json.loads(record.read_text())["iteration"])
    return 0.0 if it < 0 else times.get(it, float("inf")) / 60


def run_root(run: Path) -> tuple[str, int]:
    """The search root and gumbel_m a run's self-play used (PUCT for older runs)."""
    try:
        mcts = json.loads((run / "config.json").read_text()).get("mcts", {})
    except FileNotFoundError:
        mcts = {}
    return str(mcts.get("root", "puct")), int(mcts.get("gumbel_m", 16))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=Path, nargs="+", help="run directories (with accepted/)")
    ap.add_argument("--vs", action="append", help="opponent spec (repeatable; first = Elo 0)")
    ap.add_argument("--games", type=int, default=20, help="games per opponent and generation")
    ap.add_argument("--sims", type=int, default=16, help="simulations per move of the nets")
    ap.add_argument("--root", choices=("run", "puct", "gumbel"), default="run",
                    help="the nets' root search (run: as in each run's config)")  # fmt: skip
    ap.add_argument("--opening-plies", type=int, default=4, help="random plies before play")
    ap.add_argument("--every", type=int, default=1, help="every Nth generation (and the last)")
    ap.add_argument("--max-minutes", type=float, default=float("inf"),
                    help="only generations made within this many training minutes")  # fmt: skip
    ap.add_argument("--csv", type=Path, help="CSV of the curve")
    ap.add_argument("--out", type=Path, help="PNG plot of Elo over training time")
    args = ap.parse_args()
    opponents = args.vs or ["random", "greedy", "minimax:depth=2"]
    games: list[tuple[str, str, float]] = []
    points: list[dict[str, object]] = []
    ends: dict[str, float] = {}  # each run's training minutes at its last iteration
    for run in args.runs:
        times = generation_times(run)
        ends[run.name] = min(max(times.values(), default=0.0) / 60, args.max_minutes)
        root, m = run_root(run)
        root = root if args.root == "run" else args.root
        records = sorted((run / "accepted").glob("[0-9][0-9][0-9][0-9].json"))
        records = [r for r in records if generation_minutes(r, times) <= args.max_minutes]
        chosen = [r for i, r in enumerate(records) if i % args.every == 0 or r == records[-1]]
        for rec in chosen:
            info = json.loads(rec.read_text())
            it = int(info["iteration"])
            name = f"{run.name}/{int(rec.stem)}"
            t0 = time.time()
            rows = table1(run / "accepted" / info["net"], opponents, args.games, args.sims,
                          device="cpu", opening_plies=args.opening_plies, seed=1, root=root,
                          gumbel_m=m)  # fmt: skip
            score = 0.0
            for row in rows:
                r = row.result
                games += [(name, row.opponent, 1.0)] * r.wins + [(name, row.opponent, 0.5)] * (
                    r.draws
                ) + [(name, row.opponent, 0.0)] * r.losses  # fmt: skip
                score += r.score / len(rows)
            seconds = 0.0 if it < 0 else times.get(it, float("nan"))
            points.append({"run": run.name, "generation": int(rec.stem), "iteration": it,
                           "seconds": round(seconds, 1), "name": name,
                           "score": round(score, 3)})  # fmt: skip
            print(f"{name:<28} it {it:3d} {seconds / 60:7.1f} min  score {score:.3f}  "
                  f"({time.time() - t0:.0f}s, {root})", flush=True)  # fmt: skip
    table = fit_elo(head_to_head(games), anchor=opponents[0])
    for pt in points:
        rating = table[str(pt["name"])]
        pt["elo"], pt["ci"], pt["games"] = round(rating.elo), round(rating.ci), rating.games
    for opp in opponents:
        print(f"{opp:<28} Elo {table[opp].elo:6.0f} +- {table[opp].ci:.0f}")
    if table.regularized:
        print("(some player won or lost every game: one virtual draw per pair was added)")
    fields = ["run", "generation", "iteration", "seconds", "elo", "ci", "score", "games"]
    for pt in points:
        print(", ".join(f"{k}={pt[k]}" for k in fields))
    if args.csv:
        with args.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
            w.writeheader()
            w.writerows(points)
    if args.out:
        _plot(points, args, opponents, ends)


def _plot(
    points: list[dict[str, object]], args: argparse.Namespace, opponents: list[str],
    ends: dict[str, float],
) -> None:  # fmt: skip
    """Elo of each accepted generation (points), and the best net in force (dashed steps) up to
    the run's last iteration: under a strict gate a run can keep one net for a long time."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for run in dict.fromkeys(str(p["run"]) for p in points):
        pts = [p for p in points if p["run"] == run]
        x = [float(str(p["seconds"])) / 60 for p in pts]
        y = [float(str(p["elo"])) for p in pts]
        ci = [float(str(p["ci"])) for p in pts]
        drawn = ax.errorbar(x, y, yerr=ci, fmt="o", capsize=2, label=run)
        end = max(ends.get(run, x[-1]), x[-1])
        ax.step([*x, end], [*y, y[-1]], where="post", ls="--", color=drawn[0].get_color())
    ax.set_xlabel("training time (minutes)")
    anchor = opponents[0] if len(opponents[0]) <= 30 else "first --vs agent"
    ax.set_ylabel(f"Elo ({anchor} = 0; {args.games} games per opponent)")
    ax.axhline(0, color="black", lw=0.5)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(args.out)


if __name__ == "__main__":
    main()

"""How good are an 8x8 AlphaZero net's own choices, move by move, as the engine values them?

A net's strength at many simulations rests on its value head ranking positions, which its loss
on self-play games (a noisy final result) tells poorly. This probe takes midgame positions from
a run's self-play shards, scores every legal move with the engine (``Engine.hint`` at
``--level``, discs from the mover's view), and for each net reports how many discs its
one-ply choices give up against the engine's best move: the move whose child the value head
likes best (``value``) and the policy head's first move (``policy``), by band of empties.
A screen, not a measure of strength: on the 8x8 run it ranked nets a disc a move apart as
matches did (800 simulations against level 6), but nets 0.3-0.6 discs apart played alike
(``benchmarks/az_curve.md``, the seventh session).

    OMP_NUM_THREADS=1 PYTHONPATH=src python benchmarks/az_move_probe.py NET.pt [NET.pt ...] \\
        --run runs/az8-ladder --iterations 340:347 --positions 1000 --level 10 --labels L.json.gz

The positions and the engine's scores are written to ``--labels`` (JSON, gzipped if the name
ends in .gz); when that file exists, its positions and scores are used and nothing is searched,
so nets can be compared later, on any machine:
``--labels benchmarks/results/az-8x8-ladder/probe-l10.json.gz`` holds the command above's 1,000
positions (2 minutes of level 10). The first net is the reference of the paired differences.
``--symmetries K`` probes each net averaged over the first K board symmetries (2, 4 or 8) as
well: the mean of its values and priors over those orientations of each position.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from pathlib import Path

import numpy as np

from bitflip.core.arrays import transform_many
from bitflip.core.board import Board, Color
from bitflip.engine import Engine
from bitflip.learn.az_rundir import RunDir
from bitflip.learn.shards import read_shards
from bitflip.nn.alphazero import action_squares, symmetry_action_table
from bitflip.nn.policy_value import NetPolicyValue
from bitflip.search.limits import Limit

BANDS = ((20, 29), (30, 39), (40, 52))


def positions(run: Path, its: range, count: int, seed: int) -> list[Board]:
    """``count`` positions with 20-52 empties and >= 2 moves whose every child is a position
    with moves for its mover, drawn from the self-play shards of iterations ``its``."""
    batch = read_shards(RunDir(run).shard_paths(its))
    rng = np.random.default_rng(seed)
    out: list[Board] = []
    for i in rng.permutation(len(batch.player)):
        p, o = int(batch.player[i]), int(batch.opponent[i])
        if not 20 <= 64 - (p | o).bit_count() <= 52:
            continue
        b = Board()
        black, white = (p, o) if batch.side[i] == 0 else (o, p)
        b.black, b.white = black, white
        b.turn = Color.BLACK if batch.side[i] == 0 else Color.WHITE
        children = b.children()
        if len(children) < 2 or any(not c.legal_moves for c in children):
            continue
        out.append(b)
        if len(out) == count:
            break
    return out


def engine_scores(boards: list[Board], level: int) -> list[dict[int, float]]:
    """Every legal move's score (discs, mover's view) at ``level``, one dict a position."""
    engine = Engine(level)
    out = []
    for k, b in enumerate(boards):
        engine.new_game()
        engine.set_position(b)
        out.append({int(s.move): float(s.score) for s in engine.hint(64, Limit(level=level))})
        if (k + 1) % 50 == 0:
            print(f"  engine: {k + 1}/{len(boards)} positions", flush=True)
    return out


class SymmetricNet:
    """A net averaged over the first ``k`` symmetries of ``transform`` (a group for k = 1, 2,
    4, 8): values averaged, each orientation's priors mapped back to the position's moves."""

    def __init__(self, net: NetPolicyValue, k: int) -> None:
        self.net, self.k = net, k
        self.table = symmetry_action_table(net.size)  # [s, a]: where s sends action a
        self.columns = action_squares(net.size)  # the policy's column of each action

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n, size = len(p), self.net.size
        syms = np.repeat(np.arange(self.k, dtype=np.int64), n)
        tp = transform_many(np.tile(p, self.k), syms, size)
        policy, values = self.net.evaluate(tp, transform_many(np.tile(o, self.k), syms, size))
        mean = np.mean([policy[s * n : (s + 1) * n][:, self.columns][:, self.table[s]]
                        for s in range(self.k)], axis=0)  # fmt: skip
        out = np.zeros((n, policy.shape[1]), np.float32)
        out[:, self.columns] = mean
        return out, values.reshape(self.k, n).mean(axis=0)


def probe(
    net: NetPolicyValue | SymmetricNet, boards: list[Board], scores: list[dict[int, float]]
) -> dict[str, np.ndarray]:
    """Print the discs a move that the net's value and policy choices give up; return them,
    position by position, for paired comparisons."""
    loss: dict[str, list[list[float]]] = {
        "value": [[] for _ in BANDS],
        "policy": [[] for _ in BANDS],
    }
    each: dict[str, list[float]] = {"value": [], "policy": []}
    agree = {"value": 0, "policy": 0}
    for b, sc in zip(boards, scores, strict=True):
        moves = sorted(sc)
        kids = [b.copy(stack=False) for _ in moves]
        for kid, m in zip(kids, moves, strict=True):
            kid.push(m)
        sides = [k.side_bitboards() for k in kids]
        kp = np.array([s[0] for s in sides], np.uint64)
        ko = np.array([s[1] for s in sides], np.uint64)
        _, child_values = net.evaluate(kp, ko)
        p, o = b.side_bitboards()
        policy, _ = net.evaluate(np.array([p], np.uint64), np.array([o], np.uint64))
        best = max(sc.values())
        choice = {
            "value": moves[int(np.argmin(child_values))],
            "policy": max(moves, key=lambda m: policy[0, m]),
        }
        band = next(i for i, (lo, hi) in enumerate(BANDS) if lo <= b.empties <= hi)
        for head, m in choice.items():
            loss[head][band].append(best - sc[m])
            each[head].append(best - sc[m])
            agree[head] += sc[m] == best
    n = len(boards)
    for head in ("value", "policy"):
        cells = [f"{lo}-{hi}: {np.mean(v):.2f} ({len(v)})" for (lo, hi), v in
                 zip(BANDS, loss[head], strict=True) if v]  # fmt: skip
        every = [x for v in loss[head] for x in v]
        print(f"  {head:6s} discs lost a move {np.mean(every):.2f} +- "
              f"{1.96 * np.std(every) / np.sqrt(n):.2f}, best move {100 * agree[head] / n:.0f}%;"
              f" by empties {', '.join(cells)}", flush=True)  # fmt: skip
    return {head: np.array(v) for head, v in each.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("nets", nargs="+", type=Path)
    ap.add_argument("--run", type=Path, help="an AlphaZero run directory to draw positions from")
    ap.add_argument("--iterations", default="", help="A:B, the shards' iterations to draw from")
    ap.add_argument("--positions", type=int, default=400)
    ap.add_argument("--level", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--labels", type=Path, help="the engine's scores (JSON or .json.gz)")
    ap.add_argument("--symmetries", type=int, nargs="*", default=[], choices=(2, 4, 8),
                    help="also probe each net averaged over this many symmetries")  # fmt: skip
    args = ap.parse_args()
    if args.labels and args.labels.exists():
        # Labelled before: its positions and scores, whatever made them.
        raw = args.labels.read_bytes()
        cached = json.loads(gzip.decompress(raw) if args.labels.suffix == ".gz" else raw)
        boards = [Board(text) for text in cached["key"]["positions"]]
        scores = [{int(m): s for m, s in d.items()} for d in cached["scores"]]
        print(f"{len(boards)} positions labelled at level {cached['key']['level']}: {args.labels}")
    else:
        if args.run is None or ":" not in args.iterations:
            raise SystemExit("new labels need --run DIR and --iterations A:B")
        a, _, b = args.iterations.partition(":")
        boards = positions(args.run, range(int(a), int(b)), args.positions, args.seed)
        t0 = time.perf_counter()
        scores = engine_scores(boards, args.level)
        print(f"engine level {args.level}: {len(boards)} positions in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)  # fmt: skip
        if args.labels:
            key = {"run": str(args.run), "iterations": args.iterations, "seed": args.seed,
                   "level": args.level, "positions": [x.obf() for x in boards]}  # fmt: skip
            text = json.dumps({"key": key, "scores": scores}).encode()
            args.labels.write_bytes(gzip.compress(text) if args.labels.suffix == ".gz" else text)
    first: dict[str, np.ndarray] = {}
    for path in args.nets:
        plain = NetPolicyValue.from_file(path, "cpu")
        for k in [1, *args.symmetries]:
            print(f"{path.name}" + (f", averaged over {k} symmetries:" if k > 1 else ":"))
            lost = probe(plain if k == 1 else SymmetricNet(plain, k), boards, scores)
            if not first:
                first = lost
                continue
            for head, v in lost.items():
                d = v - first[head]
                half = 1.96 * d.std() / np.sqrt(len(d))
                print(f"    {head} against {args.nets[0].name}: {d.mean():+.2f} +- "
                      f"{half:.2f} discs a move", flush=True)  # fmt: skip


if __name__ == "__main__":
    try:
        main()
    except (OSError, ValueError) as exc:  # a missing run, shard or net; a corrupt file
        raise SystemExit(f"az_move_probe: error: {exc}") from None

"""Discs each engine's move gives up against perfect play, on positions near the end.

A screen of the evaluation where the late midgame's searches read it: a search of depth 2-8 from
a position with 19-24 empties evaluates leaves with 11-22 empties, the leaves of the default
level's searches at 25-36 empties (``benchmarks/RESULTS-ntest.md``, step 21). Every position
is solved exactly, and so is every move a player chooses (cached in ``--cache``, so a second
run only solves what is new); the report gives each player's mean loss a move (the position's
exact margin minus the chosen move's), the share of moves that lose value, and each player's
difference from the first one (``--base K``: the K-th), paired position by position, with a 95%
interval.

Run from the repository root (the exact values of the positions and of the moves chosen are
kept in the cache, so later runs on the same positions only search):

``PYTHONPATH=src python benchmarks/move_loss.py --positions 200 --empties 24 24 --seed 2 \
--cache exact-24-s2.json bitflip:4 ntest:4 bitflip:4:0:CANDIDATE.npz``

Players: ``bitflip:DEPTH[:SEL[:EVAL]]`` is bitflip's searcher at that depth, Multi-ProbCut at
SEL percent (0 or absent: none), the evaluation EVAL (a name or a weights file; default the
shipped one), a fresh table a position, no exact solve; ``ntest:DEPTH`` is NTest over NBoard
(``--ntest DIR``: its run directory), ``set depth DEPTH`` with its own ProbCut and endgame
schedule, one process that keeps its table. WTHOR 2023 is the default file because the
shipped fit leaves it out.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
from level_times import wthor_positions
from time_to_depth import ggf

from bitflip.core.bitboard import FULL, legal_moves, play, popcount
from bitflip.core.geometry import geometry
from bitflip.engine import load_engine_evaluation
from bitflip.search import exact
from bitflip.search.driver import Searcher
from bitflip.search.exact import solve
from bitflip.search.plan import SearchPlan, probcut_t
from bitflip.search.probcut import load_table

ROOT = Path(__file__).resolve().parents[1]
NTEST_DIR = ROOT.parent / "ref" / "ntest"


class Player(Protocol):
    name: str

    def move(self, p: int, o: int) -> int: ...

    def close(self) -> None: ...


class BitflipPlayer:
    """bitflip's searcher at a fixed depth, from a fresh table a position."""

    def __init__(self, depth: int, sel: int, evaluation: str) -> None:
        ev = load_engine_evaluation(evaluation)
        self.searcher = Searcher(ev, tt_mb=64, mpc=load_table(ev.name))
        self.plan = SearchPlan(max_depth=depth, probcut_t=probcut_t(sel or None))
        label = "" if evaluation == "default" else f", {Path(evaluation).name}"
        self.name = f"bitflip depth {depth}" + (f" at {sel}%" if sel else "") + label

    def move(self, p: int, o: int) -> int:
        self.searcher.clear()
        result, _ = self.searcher.search(p, o, int(FULL), self.plan)
        return int(result.move)

    def close(self) -> None:
        pass


class NTestPlayer:
    """Stock NTest over NBoard at ``set depth``; its own ProbCut and endgame schedule."""

    def __init__(self, depth: int, cwd: Path) -> None:
        if not (cwd / "ntest").is_file():
            raise SystemExit(f"move_loss.py: no NTest at {cwd / 'ntest'} (--ntest DIR)")
        self.proc = subprocess.Popen(
            ["./ntest"], cwd=cwd, text=True, bufsize=1,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self._send("nboard 2")
        self._send(f"set depth {depth}")
        self.name = f"NTest depth {depth}"

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def move(self, p: int, o: int) -> int:
        self._send(f"set game {ggf(p, o)}")
        self._send("go")
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("==="):  # "=== E3/-0.18/0.06": move, value, seconds
                return geometry(8).parse_square(line.split()[1].split("/")[0])
        raise RuntimeError("NTest closed its output")

    def close(self) -> None:
        self._send("quit")
        self.proc.wait(timeout=30)


def make_player(spec: str, ntest_dir: Path) -> Player:
    kind, _, rest = spec.partition(":")
    fields = rest.split(":") if rest else []
    try:
        numbers = [int(x) for x in fields[:2]]
    except ValueError:
        numbers = []
    if kind == "bitflip" and 1 <= len(fields) <= 3 and len(numbers) == min(len(fields), 2):
        evaluation = fields[2] if len(fields) > 2 else "default"
        try:
            return BitflipPlayer(numbers[0], numbers[1] if len(numbers) > 1 else 0, evaluation)
        except (OSError, ValueError) as exc:  # a missing or foreign weights file, a bad name
            raise SystemExit(f"move_loss.py: player {spec!r}: {exc}") from None
    if kind == "ntest" and len(fields) == 1 and len(numbers) == 1:
        return NTestPlayer(numbers[0], ntest_dir)
    raise SystemExit(f"move_loss.py: bad player {spec!r} (bitflip:DEPTH[:SEL[:EVAL]], ntest:DEPTH)")


@dataclass
class Position:
    p: int
    o: int
    empties: int
    exact: dict[str, int]
    """Exact margins for the side to move: ``"best"`` (the position's) and, by square, the
    margin after each move a player chose (solved when first asked for)."""


def read_cache(path: Path) -> dict[str, dict[str, int]]:
    """A cache this script wrote (SystemExit, one line, for anything else)."""
    try:
        data = path.read_bytes()
        cache = json.loads(gzip.decompress(data) if path.suffix == ".gz" else data)
    except (OSError, EOFError, ValueError) as exc:  # gzip's BadGzipFile is an OSError
        raise SystemExit(f"move_loss.py: --cache {path}: not a cache file ({exc})") from None
    if not isinstance(cache, dict) or not all(isinstance(v, dict) for v in cache.values()):
        raise SystemExit(f"move_loss.py: --cache {path}: not a cache of this script")
    return cache


class Positions:
    """Positions of the WTHOR file's games with their exact values, cached in a JSON file."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.path: Path | None = args.cache
        self.cache: dict[str, dict[str, int]] = {}
        if self.path and self.path.is_file():
            self.cache = read_cache(self.path)
        lo, hi = args.empties
        # Twice as many drawn as wanted: positions with one legal move are dropped.
        try:
            drawn = wthor_positions(args.wthor, 2 * args.positions, args.seed, lo, hi)
        except (OSError, ValueError) as exc:
            raise SystemExit(f"move_loss.py: --wthor {args.wthor}: {exc}") from None
        self.items: list[Position] = []
        for p, o in drawn:
            if popcount(np.uint64(legal_moves(np.uint64(p), np.uint64(o), FULL))) < 2:
                continue
            entry = self.cache.setdefault(f"{p:016x}{o:016x}", {})
            if "best" not in entry:
                entry["best"] = int(solve(p, o, FULL))
            self.items.append(Position(p, o, 64 - (p | o).bit_count(), entry))
            print(f"\rexact: {len(self.items)}/{args.positions}", end="", file=sys.stderr)
            if len(self.items) % 20 == 0:
                self.save()
            if len(self.items) == args.positions:
                break
        print(file=sys.stderr)
        self.save()

    def loss(self, pos: Position, sq: int) -> int:
        """Discs the move ``sq`` gives up against the position's exact value."""
        if not 0 <= sq < 64 or not legal_moves(np.uint64(pos.p), np.uint64(pos.o), FULL) >> sq & 1:
            raise RuntimeError(f"illegal move {sq} in position {pos.p:016x} {pos.o:016x}")
        if str(sq) not in pos.exact:
            q, r = play(np.uint64(pos.p), np.uint64(pos.o), sq)
            pos.exact[str(sq)] = -int(solve(q, r, FULL))
        return pos.exact["best"] - pos.exact[str(sq)]

    def save(self) -> None:
        if self.path:
            data = json.dumps(self.cache).encode()
            packed = gzip.compress(data, mtime=0) if self.path.suffix == ".gz" else data
            self.path.write_bytes(packed)  # mtime 0: an unchanged cache keeps its bytes


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return m, 1.96 * math.sqrt(var / n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("players", nargs="+", help="bitflip:DEPTH[:SEL[:EVAL]] or ntest:DEPTH")
    ap.add_argument("--wthor", type=Path, default=ROOT.parent / "shared/data/wthor/WTH_2023.wtb")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--empties", type=int, nargs=2, default=[20, 22], metavar=("LO", "HI"))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", type=Path, help="JSON file (.gz: gzipped) of exact scores, extended")
    ap.add_argument("--ntest", type=Path, default=NTEST_DIR, help="NTest's run directory")
    ap.add_argument("--base", type=int, default=1, help="pair every player with the BASE-th")
    args = ap.parse_args()
    if args.positions < 1:
        ap.error(f"--positions must be at least 1, not {args.positions}")
    lo, hi = args.empties
    if not 1 <= lo <= hi <= 30:
        ap.error(f"--empties wants 1 <= LO <= HI <= 30 (exact solves), not {lo} {hi}")
    if not args.wthor.is_file():
        ap.error(f"--wthor {args.wthor}: no such file")
    if not 1 <= args.base <= len(args.players):
        ap.error(f"--base must name one of the {len(args.players)} players, not {args.base}")
    players = [make_player(spec, args.ntest) for spec in args.players]
    exact.TT_MB = 64  # the solver's table: deep solves at 24+ empties want more than 4 MB
    store = Positions(args)
    positions = store.items
    losses: list[list[int]] = []
    for player in players:
        row = []
        for k, pos in enumerate(positions):
            row.append(store.loss(pos, player.move(pos.p, pos.o)))
            if k % 20 == 19:
                store.save()
            print(f"\r{player.name}: {k + 1}/{len(positions)}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        player.close()
        store.save()
        losses.append(row)
    print(f"{len(positions)} positions with {lo}-{hi} empties from {args.wthor.name} "
          f"(seed {args.seed})\n")  # fmt: skip
    base = losses[args.base - 1]
    paired_with = players[args.base - 1].name
    print(f"| player | discs lost a move (95%) | moves losing value | paired with {paired_with} |")
    print("|---|---|---|---|")
    for player, row in zip(players, losses, strict=True):
        m, ci = mean_ci([float(x) for x in row])
        bad = sum(1 for x in row if x > 0)
        diff = [float(a - b) for a, b in zip(row, base, strict=True)]
        dm, dci = mean_ci(diff)
        paired = "" if row is base else f"{dm:+.2f} +- {dci:.2f}"
        print(f"| {player.name} | {m:.2f} +- {ci:.2f} | {bad} ({100 * bad / len(row):.0f}%) "
              f"| {paired} |")  # fmt: skip


if __name__ == "__main__":
    main()

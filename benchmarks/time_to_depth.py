"""Time and nodes to reach each depth: bitflip (ProbCut on and off) against NTest.

Run from the repository root:

``PYTHONPATH=src python benchmarks/time_to_depth.py --wthor ../shared/data/wthor/WTH_2004.wtb
--positions 40 --depths 8 16 --bitflip-sel 95 0 --ntest ../ref/ntest-stats --ntest-prune 4 0
--out ttd.jsonl``

bitflip: one iterative-deepening search a position and setting, from a fresh table, to the
deepest depth; each finished iteration reports the nodes and CPU seconds so far, which is the
cost of reaching that depth. ``--bitflip-sel`` lists ProbCut confidences in percent (0: off),
``--bitflip-mode`` ProbCut check modes (``bitflip.search.control.MPC_MODE``: 0 both sides,
1 flat, 2 pretest (the default, the engine's), 3 both), ``--bitflip-tt-mb`` table sizes; every
combination is a setting.

NTest: a build patched outside the repository (see ``benchmarks/RESULTS-ntest.md``) that prints
``nodestats NODES EVALS FLIPS SOLVERNODES WALL CPU`` after each ``go`` and reads
``NTEST_PRUNE_MIDGAME`` (its MPC width index: 4 = 1.0 sigma, its default; 0 = none). NTest
searches every depth again from a new table (``set depth`` makes a new player), which is its
cost of reaching that depth. Without ProbCut NTest stops one ply short of ``set depth``, so it
is asked for one more.

Positions: random positions of the WTHOR file's games with ``--min-empties`` to
``--max-empties`` empties (more than 26, so NTest at depth 16 or less searches them as
midgame). Prints a Markdown table a depth for each setting: mean nodes and CPU seconds, nodes a
second (sums over positions) and the effective branching factor a ply sqrt(N(d) / N(d-2))
(ratio of sums); then each setting's time and nodes over the first setting's, as geometric
means of per-position ratios. The settings take turns position by position, so each ratio is
taken under one load of the shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import time
from collections import defaultdict
from pathlib import Path

from level_times import wthor_positions

from bitflip.core.bitboard import FULL
from bitflip.engine import load_engine_evaluation
from bitflip.search.control import MPC_FLAT, MPC_PRETEST
from bitflip.search.driver import Searcher
from bitflip.search.limits import SearchInfo
from bitflip.search.plan import SearchPlan, probcut_t
from bitflip.search.probcut import load_table

Position = tuple[int, int]
"""The side to move's discs and the opponent's (bit 0 = a1, bit 63 = h8)."""


def ggf(p: int, o: int) -> str:
    """A GGF game whose start position is (p, o) with the side to move playing black."""
    cells = "".join("*" if p >> i & 1 else "O" if o >> i & 1 else "-" for i in range(64))
    rows = " ".join(cells[r * 8 : r * 8 + 8] for r in range(8))
    return f"(;GM[Othello]PC[x]PB[a]PW[b]RE[?]TI[0:00//0:00]TY[8]BO[8 {rows} *];)"


class BitflipRunner:
    """bitflip's searcher at one ProbCut confidence (percent, 0: off)."""

    def __init__(self, depths: list[int], sel: int, tt_mb: int = 64, mode: int = 0) -> None:
        evaluation = load_engine_evaluation()
        self.searcher = Searcher(evaluation, tt_mb=tt_mb, mpc=load_table(evaluation.name))
        self.name = f"bitflip, ProbCut {f'{sel}%' if sel else 'off'}"
        if tt_mb != 64:
            self.name += f", {tt_mb} MB table"
        if mode:
            flags = [n for bit, n in ((MPC_FLAT, "flat"), (MPC_PRETEST, "pretest")) if mode & bit]
            self.name += f", {'+'.join(flags)} checks"
        self.sel = sel
        self.depths = depths
        t = probcut_t(sel or None)
        self.plan = SearchPlan(max_depth=max(depths), probcut_t=t, probcut_mode=mode)
        start = (0x0000000810000000, 0x0000001008000000)
        warm = SearchPlan(max_depth=4, probcut_t=t, probcut_mode=mode)
        self.searcher.search(*start, int(FULL), warm)  # compile

    def run(self, k: int, p: int, o: int) -> list[dict]:
        """One iterative deepening from a fresh table: a row a depth reached."""
        self.searcher.clear()
        c0 = time.process_time()
        seen: list[tuple[int, int, float, float]] = []

        def info(i: SearchInfo) -> None:
            seen.append((i.depth, i.nodes, time.process_time() - c0, i.time))

        self.searcher.search(p, o, int(FULL), self.plan, on_info=info)
        return [
            dict(engine="bitflip", sel=self.sel, pos=k, depth=d, nodes=n, cpu=c, wall=w)
            for d, n, c, w in seen
            if d in self.depths
        ]


CENTRE = 0x0000001818000000
ONE_EMPTY = ggf(((1 << 63) - 1) & ~CENTRE, CENTRE)
"""A finished game but for h8, which nobody can take: NTest answers it without searching."""


class NTest:
    """A patched NTest over NBoard, one process."""

    def __init__(self, cwd: Path, prune: int) -> None:
        env = {"NTEST_PRUNE_MIDGAME": str(prune), "PATH": "/usr/bin:/bin"}
        self.proc = subprocess.Popen(
            ["./ntest"], cwd=cwd, env=env, text=True, bufsize=1,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        self.send("nboard 2")
        self.last_value = 0.0
        """The value of the last ``go``'s move (discs, side to move's view)."""

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def go(self, depth: int, game: str) -> tuple[float, float, float, float]:
        """(nodes, evals, wall s, CPU s) of a search of ``game`` at ``depth``.

        ``set depth`` makes a new player whose table is allocated at its first ``go`` (35 ms
        of CPU for 64 MB): a search of a position with one empty square takes that first.
        """
        self.send(f"set depth {depth}")
        self.send(f"set game {ONE_EMPTY}")
        self.send("go")
        self._read()
        self.send(f"set game {game}")
        self.send("go")
        return self._read()

    def _read(self) -> tuple[float, float, float, float]:
        assert self.proc.stdout is not None
        stats = None
        for line in self.proc.stdout:
            if line.startswith("nodestats"):
                f = line.split()
                stats = (float(f[1]), float(f[2]), float(f[5]), float(f[6]))
            elif line.startswith("==="):
                # "=== E3/-0.18/0.06": move, value (empty when 0), seconds
                fields = line.split()[1].split("/")
                self.last_value = float(fields[1]) if len(fields) > 1 and fields[1] else 0.0
                break
        if stats is None:
            raise RuntimeError("NTest printed no nodestats line: is it the patched build?")
        return stats

    def close(self) -> None:
        self.send("quit")
        self.proc.wait(timeout=30)


def run_ntest(engine: NTest, prune: int, k: int, p: int, o: int, depths: list[int]) -> list[dict]:
    """A search a depth, each from a new table (NTest has no per-iteration report)."""
    rows = []
    for d in depths:
        # Without ProbCut NTest stops one ply short of ``set depth``.
        nodes, evals, wall, cpu = engine.go(d if prune else d + 1, ggf(p, o))
        rows.append(dict(engine="ntest", sel=prune, pos=k, depth=d, nodes=nodes, evals=evals,
                         cpu=cpu, wall=wall))  # fmt: skip
    return rows


def table(rows: list[dict], title: str) -> str:
    by_depth: dict[int, list[dict]] = defaultdict(list)
    for r in rows:
        by_depth[r["depth"]].append(r)
    n_pos = len({r["pos"] for r in rows})
    out = [f"{title} ({n_pos} positions)", "",
           "| depth | mean nodes | mean CPU ms | max CPU ms | Mnodes/s | EBF (2 plies) |",
           "|---|---|---|---|---|---|"]  # fmt: skip
    sums = {d: sum(r["nodes"] for r in rs) for d, rs in by_depth.items()}
    for d in sorted(by_depth):
        rs = by_depth[d]
        nodes = sums[d]
        cpu = sum(r["cpu"] for r in rs)
        ebf = f"{math.sqrt(nodes / sums[d - 2]):.2f}" if d - 2 in sums and len(rs) == n_pos else ""
        out.append(
            f"| {d} | {nodes / len(rs):,.0f} | {1000 * cpu / len(rs):.1f} | "
            f"{1000 * max(r['cpu'] for r in rs):.0f} | {nodes / cpu / 1e6:.2f} | {ebf} |"
        )
    return "\n".join(out)


def ratios(rows: dict[str, list[dict]]) -> str:
    """Each setting's CPU time and nodes to each depth over the first setting's: geometric
    means over positions of the per-position ratios (robust to the load, which the two
    searches of a position share)."""
    names = list(rows)
    base = {(r["pos"], r["depth"]): r for r in rows[names[0]]}
    out = [f"Ratios to {names[0]} (geometric means over positions)", "",
           "| setting | depth | CPU time ratio | nodes ratio |", "|---|---|---|---|"]  # fmt: skip
    for name in names[1:]:
        by_depth: dict[int, list[tuple[float, float]]] = defaultdict(list)
        for r in rows[name]:
            b = base.get((r["pos"], r["depth"]))
            if b is not None and b["cpu"] > 0 and r["cpu"] > 0:
                by_depth[r["depth"]].append((r["cpu"] / b["cpu"], r["nodes"] / b["nodes"]))
        for d in sorted(by_depth):
            xs = by_depth[d]
            gt = math.exp(sum(math.log(t) for t, _ in xs) / len(xs))
            gn = math.exp(sum(math.log(n) for _, n in xs) / len(xs))
            out.append(f"| {name} | {d} | {gt:.2f} | {gn:.2f} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--wthor", type=Path, required=True)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--min-empties", type=int, default=30)
    ap.add_argument("--max-empties", type=int, default=50)
    ap.add_argument("--depths", type=int, nargs=2, default=[8, 16], metavar=("FROM", "TO"))
    ap.add_argument("--bitflip-sel", type=int, nargs="*", default=[95, 0])
    ap.add_argument("--bitflip-tt-mb", type=int, nargs="+", default=[64], help="table sizes")
    ap.add_argument(
        "--bitflip-mode",
        type=int,
        nargs="+",
        default=[SearchPlan().probcut_mode],
        help="ProbCut check modes (bitflip.search.control: 0 both sides, 1 flat, 2 pretest "
        "(the engine's, default), 3 flat and pretest)",
    )
    ap.add_argument("--ntest", type=Path, help="run directory of the patched NTest")
    ap.add_argument("--ntest-prune", type=int, nargs="*", default=[4, 0])
    ap.add_argument("--out", type=Path, help="append every measurement as a JSON line")
    args = ap.parse_args()
    if args.min_empties <= 26:
        ap.error("--min-empties must be above 26 (NTest's selective solve starts there)")
    pos = wthor_positions(args.wthor, args.positions, args.seed, args.min_empties, args.max_empties)
    depths = list(range(args.depths[0], args.depths[1] + 1))
    # Position by position, every engine in turn: the load of the shared machine changes
    # slowly, so each position's times are taken under about the same load.
    runners = [
        BitflipRunner(depths, s, mb, mode)
        for s in args.bitflip_sel
        for mb in args.bitflip_tt_mb
        for mode in args.bitflip_mode
    ]
    ntests = [(NTest(args.ntest, prune), prune) for prune in args.ntest_prune] if args.ntest else []
    rows: dict[str, list[dict]] = defaultdict(list)
    try:
        for k, (p, o) in enumerate(pos):
            for r in runners:
                rows[r.name] += r.run(k, p, o)
            for engine, prune in ntests:
                rows[f"NTest, MPC index {prune}"] += run_ntest(engine, prune, k, p, o, depths)
    finally:
        for engine, _ in ntests:
            engine.close()
    for title, rs in rows.items():
        print(table(rs, title) + "\n", flush=True)
    print(ratios(rows))
    if args.out is not None:
        with args.out.open("a") as f:
            for rs in rows.values():
                for r in rs:
                    f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()

"""What a level's selective proof at one count of empties costs, pass by pass, and what a node
budget on it would throw: side A's positions of match records searched again.

Two modes:

- ``search``: each of side A's first positions at ``--empties`` (as ``endgame_positions.py``
  picks them) searched by the level from a fresh table, twice: as the level plays it (each
  endgame pass's rank, nodes, seconds and answer) and with its selective proof off (the move
  of the midgame search alone). Writes ``OUT`` (one position a line) and, for
  ``endgame_positions.py value``, the moves of each way in ``OUT.level.jsonl`` and
  ``OUT.midgame.jsonl``.
- ``budget``: from ``search`` files and the ``value`` cache that solved those moves, the points
  the level's moves throw and the time they take, against the midgame search alone and against
  a proof that gives up past a node budget (the midgame search then picks the move; its time
  is the budget's share of the proof's, at the proof's own speed, plus the midgame's).

Run (from the repository root, ``PYTHONPATH=src:benchmarks``):
    python benchmarks/proof_passes.py search RECORDS... --empties 25 --out P.jsonl
    python benchmarks/endgame_positions.py value RECORDS... --empties 25 --games 200 \\
        --moves P.jsonl.level.jsonl P.jsonl.midgame.jsonl --cache C.json
    python benchmarks/proof_passes.py budget P.jsonl --cache C.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from contextlib import ExitStack
from dataclasses import replace
from pathlib import Path
from typing import Any

from endgame_positions import positions
from match_errors import records

BUDGETS = (2, 5, 10, 20, 40, 80)
"""Node budgets of ``budget`` mode, in millions."""


def search(args: argparse.Namespace) -> None:
    import bitflip.search.driver as driver
    from bitflip.core.bitboard import FULL
    from bitflip.engine import load_engine_evaluation
    from bitflip.search.control import EG_RANK, NODES
    from bitflip.search.levels import level_spec
    from bitflip.search.plan import level_plan
    from bitflip.search.probcut import load_table

    evaluation = load_engine_evaluation("default")
    searcher = driver.Searcher(evaluation, tt_mb=64, mpc=load_table(evaluation.name))
    passes: list[dict[str, Any]] = []
    solve_root = driver.Searcher._solve_root

    def timed_pass(self: driver.Searcher, *a: Any, **k: Any) -> Any:
        # Each endgame pass over the root: its rank, nodes, seconds and best move's score.
        ctl, t0 = self.ctx.ctl, time.perf_counter()
        n0 = int(ctl[NODES])
        res = solve_root(self, *a, **k)
        best = max(res, key=lambda r: r.score) if res else None
        passes.append({
            "rank": int(ctl[EG_RANK]), "nodes": int(ctl[NODES]) - n0,
            "s": time.perf_counter() - t0, "score": best.score if best else None,
        })  # fmt: skip
        return res

    driver.Searcher._solve_root = timed_pass  # type: ignore[method-assign]
    spec = level_spec(args.level)
    with ExitStack() as files:
        out = files.enter_context(args.out.open("w"))
        outs = {
            way: files.enter_context(Path(f"{args.out}.{way}.jsonl").open("w"))
            for way in ("level", "midgame")
        }
        for path, k, board, _, played in positions(args.records, args.empties, args.games):
            p, o = board.side_bitboards()
            row: dict[str, Any] = {"record": path, "game": k, "played": played}
            plan = level_plan(spec, board.empties)
            # Proofs off: the selective ones end one empty below this position.
            midgame = replace(plan, selective_wld_empties=min(plan.selective_wld_empties,
                                                              board.empties - 1))  # fmt: skip
            for way, way_plan in (("level", plan), ("midgame", midgame)):
                searcher.clear()
                passes.clear()
                t0 = time.perf_counter()
                result, _ = searcher.search(p, o, int(FULL), way_plan)
                seconds = time.perf_counter() - t0
                move = board.geometry.square_name(result.move).lower()
                row[way] = {"move": move, "s": seconds, "nodes": result.nodes,
                            "passes": list(passes)}  # fmt: skip
                line = {"record": path, "game": k, "move": move, "s": seconds}
                outs[way].write(json.dumps(line) + "\n")
            out.write(json.dumps(row) + "\n")
            out.flush()


def budget(args: argparse.Namespace) -> None:
    cache: dict[str, int] = records(args.cache)[0] if args.cache.exists() else {}
    rows = [r for f in args.passes for r in records(f)]

    def thrown(r: dict[str, Any], way: str) -> float | None:
        key = f"{r['record']}|{r['game']}"
        after = cache.get(f"{key}|{r[way]['move']}")
        return None if after is None else (cache[f"{key}|root"] - after) / 2

    rows = [r for r in rows if thrown(r, "level") is not None and thrown(r, "midgame") is not None]
    if not rows:
        raise SystemExit("proof_passes: no position has both its moves in the cache")
    level_s = [r["level"]["s"] for r in rows]
    print(f"{len(rows)} positions")
    print(f"level: {sum(thrown(r, 'level') or 0 for r in rows):.1f} points thrown, "
          f"{statistics.mean(level_s):.3f} s a position")  # fmt: skip
    print(f"midgame search alone: {sum(thrown(r, 'midgame') or 0 for r in rows):.1f} points, "
          f"{statistics.mean(r['midgame']['s'] for r in rows):.3f} s")  # fmt: skip
    for millions in BUDGETS:
        nodes, points, seconds, over = millions * 1_000_000, 0.0, 0.0, 0
        for r in rows:
            proof = sum(p["nodes"] for p in r["level"]["passes"])
            if proof <= nodes:
                points += thrown(r, "level") or 0
                seconds += r["level"]["s"]
                continue
            over += 1
            rate = r["level"]["nodes"] / max(r["level"]["s"], 1e-9)
            points += thrown(r, "midgame") or 0
            seconds += nodes / rate + r["midgame"]["s"]
        share = seconds / sum(level_s)
        print(f"budget {millions}M nodes: {over} proofs give up, {points:.1f} points, "
              f"{seconds / len(rows):.3f} s a position ({share:.2f}x)")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("search")
    s.add_argument("records", type=Path, nargs="+")
    s.add_argument("--empties", type=int, default=25)
    s.add_argument("--games", type=int, default=200, help="the first N games of each record")
    s.add_argument("--level", type=int, default=14)
    s.add_argument("--out", type=Path, required=True)
    b = sub.add_parser("budget")
    b.add_argument("passes", type=Path, nargs="+", help="files of search mode")
    b.add_argument("--cache", type=Path, required=True)
    args = ap.parse_args()
    {"search": search, "budget": budget}[args.mode](args)


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as exc:  # a bad record or cache: say which
        raise SystemExit(f"proof_passes: {exc}") from None

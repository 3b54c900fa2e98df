"""Side A's positions at one count of empties in match records, searched again one by one: the
move and time of bitflip's level there, of NTest, and whether each move keeps the position's
exact win/loss/draw value.

From each game's first position at ``--empties`` with A to move after the opening (the first
100 games of each record with ``--games 100``), in one of three modes:

- ``search``: bitflip's level (``--level``, the default's by default) searches the position with
  a fresh table (times are the dearer cold-table ones: in a game the previous move's search has
  filled it), or with ``--warm K`` after replaying A's own searches of the last K plies (even)
  on the same tables, as in the game; ``--full`` proves win/loss/draw fully there instead of
  selectively. The engine is
  the one ``PYTHONPATH`` finds, so a scratch worktree with a changed constant runs the same way.
- ``ntest DIR``: NTest from ``DIR`` (built as ``../shared/tools/README.md`` says), one NBoard
  process at ``--ntest-depth``, answers the same positions (games share nothing in its table);
  its time is the CPU time it reports.
- ``value``: the exact value before each position and after every move a ``--out`` file of the
  other modes names (and the recorded one), solved once each and kept in ``--cache``; prints,
  for each file, the moves that made the mover's value worse and the points they cost.

Run (from the repository root, ``PYTHONPATH=src:benchmarks``):
    python benchmarks/endgame_positions.py search RECORDS... --out F.jsonl [--full]
    python benchmarks/endgame_positions.py ntest ../ref/ntest RECORDS... --out N.jsonl
    python benchmarks/endgame_positions.py value RECORDS... --moves F.jsonl N.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from match_errors import match_games, plies, records
from proof_errors import exact_wld, value_after

from bitflip._atomic import atomic_path
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats import ggf
from bitflip.formats.record import GameRecord

Position = tuple[str, int, Board, list[int], str]
"""(record, game index, board, the moves from the start (squares, PASS), A's move there)."""


def positions(records: list[Path], empties: int, games: int) -> Iterator[Position]:
    """Each game's first position at ``empties`` with A to move after the opening."""
    for path in records:
        for k, game in enumerate(match_games(path)[:games]):
            history: list[int] = []
            for board, move, mover, past_opening in plies(game):
                is_pass = move.lower() == "pa"
                if past_opening and mover == "A" and not is_pass and board.empties == empties:
                    yield str(path), k, board.copy(), history, move.lower()
                    break
                history.append(PASS if is_pass else board.parse_move(move))


def earlier_positions(board: Board, plies: int) -> list[Board]:
    """The positions 2, 4, ... up to ``plies`` plies before ``board`` (same side to move), the
    oldest first, back to the first pass or the start of the game."""
    found, b = [], board.copy()
    try:
        for _ in range(plies // 2):
            if b.pop() == PASS or b.pop() == PASS:
                break
            found.append(b.copy())
    except IndexError:  # the start of the game
        pass
    return found[::-1]


def search(args: argparse.Namespace) -> None:
    from bitflip.core.bitboard import FULL
    from bitflip.engine import load_engine_evaluation
    from bitflip.search.driver import Searcher
    from bitflip.search.levels import level_spec
    from bitflip.search.plan import level_plan
    from bitflip.search.probcut import load_table

    evaluation = load_engine_evaluation("default")
    searcher = Searcher(evaluation, tt_mb=64, mpc=load_table(evaluation.name))
    spec = level_spec(args.level)
    with args.out.open("w") as out:
        for path, k, board, _, played in positions(args.records, args.empties, args.games):
            plan = level_plan(spec, board.empties)
            if args.full:
                plan = replace(plan, wld_empties=max(plan.wld_empties, board.empties))
            searcher.clear()
            for earlier in earlier_positions(board, args.warm):
                p, o = earlier.side_bitboards()
                searcher.search(p, o, int(FULL), level_plan(spec, earlier.empties))
            p, o = board.side_bitboards()
            t0 = time.process_time()
            result, _ = searcher.search(p, o, int(FULL), plan)
            seconds = time.process_time() - t0
            move = board.geometry.square_name(result.move).lower()
            row = {
                "record": path,
                "game": k,
                "played": played,
                "move": move,
                "s": seconds,
                "nodes": result.nodes,
            }
            out.write(json.dumps(row) + "\n")


def ntest(args: argparse.Namespace) -> None:
    proc = subprocess.Popen(
        ["./ntest"], cwd=args.dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True,
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None
    stdin, stdout = proc.stdin, proc.stdout

    def send(line: str) -> None:
        stdin.write(line + "\n")
        stdin.flush()

    def read_until(prefix: str) -> str:
        while line := stdout.readline():
            if line.startswith(prefix):
                return line.strip()
        raise SystemExit(f"endgame_positions: NTest in {args.dir} exited")

    pings = 0

    def sync() -> None:
        nonlocal pings
        pings += 1
        send(f"ping {pings}")
        read_until(f"pong {pings}")

    send("nboard 2")
    send(f"set depth {args.ntest_depth}")
    sync()
    with args.out.open("w") as out:
        for path, k, _, history, played in positions(args.records, args.empties, args.games):
            send(f"set game {ggf.dump_game(GameRecord(moves=history))}")
            sync()
            send("go")
            answer = read_until("===")  # "=== F8/-4.00/0.27": move, value, CPU seconds
            move, _, seconds = answer[3:].strip().split("/")
            row = {"record": path, "game": k, "played": played, "move": move.lower(),
                   "s": float(seconds)}  # fmt: skip
            out.write(json.dumps(row) + "\n")
            out.flush()
    send("quit")


def value(args: argparse.Namespace) -> None:
    # The cache is one JSON object on one line; the runs' rows one object a line.
    cache: dict[str, int] = records(args.cache)[0] if args.cache.exists() else {}
    runs = {f: records(f) for f in args.moves}
    found: dict[tuple[str, int], set[str]] = defaultdict(set)  # the moves each run chose
    for rows in runs.values():
        for r in rows:
            found[(r["record"], r["game"])].add(r["move"])
    boards = {
        (path, k): (board, played)
        for path, k, board, _, played in positions(args.records, args.empties, args.games)
    }
    for (path, k), (board, played) in boards.items():
        key = f"{path}|{k}"
        solved = len(cache)
        if f"{key}|root" not in cache:
            cache[f"{key}|root"] = exact_wld(board)
        for move in sorted({played} | found[(path, k)]):
            if f"{key}|{move}" not in cache:
                cache[f"{key}|{move}"] = value_after(board, move)
        if len(cache) > solved:  # kept after each position, so a killed run resumes there
            with atomic_path(args.cache) as tmp:
                tmp.write_text(json.dumps(cache))
    recorded = [
        {"record": p, "game": k, "move": pl, "s": 0.0} for (p, k), (_, pl) in boards.items()
    ]
    for name, rows in [("recorded moves", recorded), *((str(f), r) for f, r in runs.items())]:
        rows = [r for r in rows if (r["record"], r["game"]) in boards]
        drops = [
            cache[f"{r['record']}|{r['game']}|root"]
            - cache[f"{r['record']}|{r['game']}|{r['move']}"]
            for r in rows
        ]
        worse = [d for d in drops if d > 0]
        times = [r["s"] for r in rows]
        print(
            f"{name}: {len(rows)} positions, {len(worse)} moves made the value worse "
            f"({sum(worse) / 2:.1f} points); seconds a position: mean "
            f"{statistics.mean(times):.3f}, median {statistics.median(times):.3f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="mode", required=True)
    for mode in ("search", "ntest", "value"):
        p = sub.add_parser(mode)
        if mode == "ntest":
            p.add_argument("dir", type=Path, help="NTest's run directory")
            p.add_argument("--ntest-depth", type=int, default=16)
        p.add_argument("records", type=Path, nargs="+")
        p.add_argument("--empties", type=int, default=23)
        p.add_argument("--games", type=int, default=100, help="the first N games of each record")
        if mode == "value":
            p.add_argument("--moves", type=Path, nargs="+", required=True)
            p.add_argument("--cache", type=Path, default=Path("endgame_values.json"))
        else:
            p.add_argument("--out", type=Path, required=True)
        if mode == "search":
            p.add_argument("--level", type=int, default=14)
            p.add_argument("--full", action="store_true", help="a full proof at --empties")
            p.add_argument(
                "--warm",
                type=int,
                default=0,
                help="first replay A's own searches from this many plies before (even), so the "
                "tables are as warm as in the game",
            )
    args = ap.parse_args()
    {"search": search, "ntest": ntest, "value": value}[args.mode](args)


if __name__ == "__main__":
    try:
        main()
    except (ValueError, OSError) as exc:  # a bad record or an illegal move in one: say which
        raise SystemExit(f"endgame_positions: {exc}") from None

"""Where a match was lost: every move of both sides scored by a stronger engine level.

Reads the game records of ``../shared/tools/nboard_match.py`` (its ``--out`` JSON lines) or of
``bitflip arena --db`` (``--side-a SPEC`` names side A there),
searches every position after the opening with ``Engine(level=LEVEL)`` and reports, by number
of empties, each side's mean loss a move (the reference score before the move minus the score
after it, from the mover's view) and the moves that turned a won or drawn position into a draw
or a loss where the reference is exact (at most the level's exact depth before and after).

Run from the repository root, one process a match file (they take about 7 s a game at level
16 on one core of the 2-core development VM), then the report over all of them:

``PYTHONPATH=src python benchmarks/match_errors.py score MATCH.jsonl --cache A.scores.jsonl``
``PYTHONPATH=src python benchmarks/match_errors.py report A.scores.jsonl B.scores.jsonl``

The cache keeps one line per scored game, so a killed run goes on where it stopped. The
side called A in the match is "a", the other "b". A search from the side to move at even
depth reads a little low (the odd/even effect), so both sides' mean losses lean negative by
about the same amount: compare the two sides, not the numbers with zero.
"""

from __future__ import annotations

import argparse
import gzip
import json
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bitflip.core.board import Board

BUCKETS = ((45, 60), (37, 44), (31, 36), (25, 30), (23, 24), (21, 22), (0, 20))


def records(path: Path) -> list[dict[str, Any]]:
    """The JSON objects of a JSON-lines file, plain or gzipped, one a line (ValueError naming
    the file and the bad line; OSError where it cannot be read)."""
    text = gzip.decompress(path.read_bytes()).decode() if path.suffix == ".gz" else path.read_text()
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}:{n}: not a JSON line ({e.msg})") from None
        if not isinstance(rec, dict):
            raise ValueError(f"{path}:{n}: not a JSON object")
        out.append(rec)
    return out


def match_games(path: Path, side_a: str = "") -> list[dict[str, Any]]:
    """The game records of a match's ``--out`` file; or of a ``bitflip arena --db`` file
    (``.db``), where A is the agent whose spec starts with ``side_a``."""
    if path.suffix != ".db":
        return [rec for rec in records(path) if rec.get("type") == "game"]
    if not side_a:
        raise ValueError(f"{path}: an arena database needs --side-a (A's spec or its start)")
    import sqlite3

    try:
        rows = (
            sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            .execute(
                "select key, opening, black, white, moves, margin from games where error is null"
            )
            .fetchall()
        )
    except sqlite3.Error as e:
        raise ValueError(f"{path}: not a readable arena database ({e})") from None
    games = []
    for key, opening, black, white, moves, margin in rows:
        if black.startswith(side_a) == white.startswith(side_a):
            raise ValueError(f"{path}: game {key}: --side-a {side_a!r} names both or neither side")
        a_black = black.startswith(side_a)
        games.append({
            "game": key, "opening": opening, "moves": moves,
            "a_color": "black" if a_black else "white",
            "disc_diff_a": margin if a_black else -margin,
        })  # fmt: skip
    return games


def plies(game: dict[str, Any]) -> Iterator[tuple[Board, str, str, bool]]:
    """Replay a game record ply by ply: the board before each ply, the ply ("pa" for a pass),
    who plays it ("A" or "B") and whether it is past the opening. The board is the same object
    throughout, played on once the caller asks for the next ply."""
    from bitflip.core.board import Board
    from bitflip.core.geometry import PASS

    moves = [game["moves"][i : i + 2] for i in range(0, len(game["moves"]), 2)]
    first = len(game["opening"]) // 2
    a_black = game["a_color"] == "black"
    board = Board()
    for k, move in enumerate(moves):
        yield board, move, "A" if (board.turn == 0) == a_black else "B", k >= first
        board.push(PASS if move.lower() == "pa" else move)


def score(match: Path, cache: Path, level: int, side_a: str = "") -> None:
    """Search every position after the opening of every game; append a line a game."""
    from bitflip.engine import Engine
    from bitflip.search.levels import level_spec
    from bitflip.search.limits import Limit

    done = set()
    if cache.exists():
        done = {rec["game"] for rec in records(cache)}
    engine = Engine(level=level, tt_mb=128)
    # Where the level would prove only win/loss/draw, solve: a loss needs the margin.
    exact_from = level_spec(level).wld_depth
    t0 = time.perf_counter()
    games = match_games(match, side_a)
    with cache.open("a") as out:
        for n, g in enumerate(games, 1):
            if g["game"] in done:
                continue
            scored = []  # (empties, mover is A, score from the mover's view) before each move
            for b, m, mover, past_opening in plies(g):
                if past_opening and m != "pa":
                    engine.new_game()
                    engine.set_position(b)
                    empties = b.empties
                    limit = Limit(exact=True) if empties <= exact_from else None
                    scored.append((empties, mover == "A", engine.go(limit).score))
            rec = {
                "game": g["game"],
                "plies": scored,
                "final_a": g["disc_diff_a"],
                "exact_from": exact_from,
            }
            out.write(json.dumps(rec) + "\n")
            out.flush()
            print(f"game {g['game']} ({n}/{len(games)}) {time.perf_counter() - t0:.0f} s")


def report(caches: list[Path]) -> None:
    """Mean loss a move by empties for each side, and result-changing moves (exact ranges)."""
    loss: dict[str, dict[tuple[int, int], list[float]]] = {
        "a": defaultdict(list),
        "b": defaultdict(list),
    }
    flips: dict[str, Counter[int]] = {"a": Counter(), "b": Counter()}
    for path in caches:
        for rec in records(path):
            plies = rec["plies"]
            for k, (empties, mover_is_a, before) in enumerate(plies):
                if k + 1 < len(plies):
                    _, next_is_a, next_score = plies[k + 1]
                    after = next_score if next_is_a == mover_is_a else -next_score
                    after_exact = plies[k + 1][0] <= rec["exact_from"]
                else:  # the last searched move: the game's result
                    after = rec["final_a"] if mover_is_a else -rec["final_a"]
                    after_exact = True
                side = "a" if mover_is_a else "b"
                for lo, hi in BUCKETS:
                    if lo <= empties <= hi:
                        loss[side][(lo, hi)].append(before - after)
                sign = (before > 0) - (before < 0), (after > 0) - (after < 0)
                if empties <= rec["exact_from"] and after_exact and sign[1] < sign[0]:
                    flips[side][empties] += 1

    def cell(xs: list[float]) -> str:
        mean = sum(xs) / len(xs) if xs else 0.0
        return f"{mean:+.2f} ({len(xs)})"

    print("| empties | A: mean loss a move (moves) | B: mean loss a move (moves) |")
    print("|---|---|---|")
    for lo, hi in BUCKETS:
        print(f"| {lo}-{hi} | {cell(loss['a'][(lo, hi)])} | {cell(loss['b'][(lo, hi)])} |")
    for side in "ab":
        found = ", ".join(f"{n} at {e}" for e, n in sorted(flips[side].items(), reverse=True))
        print(f"{side.upper()}: moves that lost a proven result: {found or 'none'}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("score", help="score a match's games into a cache file")
    s.add_argument(
        "match",
        type=Path,
        help="nboard_match.py --out file (JSON lines), or a "
        "bitflip arena --db file (.db) with --side-a",
    )
    s.add_argument("--side-a", default="", help="in an arena database: A's spec (or its start)")
    s.add_argument("--cache", type=Path, required=True, help="scores, one line a game")
    s.add_argument("--level", type=int, default=16, help="reference engine level (16)")
    r = sub.add_parser("report", help="the losses by empties over cache files")
    r.add_argument("caches", type=Path, nargs="+")
    args = ap.parse_args()
    try:
        if args.cmd == "score":
            score(args.match, args.cache, args.level, args.side_a)
        else:
            report(args.caches)
    except (OSError, ValueError) as e:  # a missing or malformed file
        ap.exit(2, f"match_errors: error: {e}\n")
    except KeyError as e:
        ap.exit(2, f"match_errors: error: a record lacks the field {e}: not a match/score file\n")


if __name__ == "__main__":
    main()

"""Paired score difference of two players that met the same opponent on the same openings.

Two `nboard_match.py --out` records (plain or gzipped) with the same `--seed` hold the same
openings with the same colours; the difference of A's score game by game (same opening, same
colour) cancels most of the openings' noise, so it needs far fewer games than two independent
scores. Several pairs of records (other seeds) pool into one estimate.

Run: python benchmarks/paired.py OLD.jsonl NEW.jsonl [OLD2.jsonl NEW2.jsonl ...]

`bitflip arena --db` files (`.db`) pair the same way: two databases of one player against the
same opponent with the same `--seed` and `--openings`; the player is the side whose name is not
in both (the opponent's is), so `mcts:net=A.pt,...` and `mcts:net=A.pt,...,solver=true` pair.

Prints the number of paired games and NEW - OLD in points per 100 games with a 95% normal
interval.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import TYPE_CHECKING

from match_errors import match_games

if TYPE_CHECKING:
    from bitflip.arena.store import Store

POINTS = {"W": 1.0, "D": 0.5, "L": 0.0}


def games(path: Path) -> dict[tuple[str, str], float]:
    """A's points in each game of a record, by (opening, A's colour)."""
    out: dict[tuple[str, str], float] = {}
    for n, game in enumerate(match_games(path), 1):
        try:
            out[(str(game["opening_label"]), str(game["a_color"]))] = POINTS[game["result_a"]]
        except KeyError as exc:
            raise ValueError(f"{path}: game {n} has no valid {exc}") from None
    return out


def open_store(path: Path) -> Store:
    """The arena database at ``path`` (ValueError, one line, when it is missing or when this
    python cannot import bitflip)."""
    try:
        from bitflip.arena.store import Store
    except ModuleNotFoundError:  # run by a python without bitflip: say how instead of a traceback
        raise ValueError(
            f"{path}: arena databases need bitflip: run with the venv's python (.venv/bin/python)"
            " or PYTHONPATH=src"
        ) from None
    if not path.is_file():
        raise ValueError(f"{path}: no such arena database")
    return Store(path)


def arena_games(path: Path, opponent: str) -> dict[tuple[str, str], float]:
    """The player's points in each game of an arena database, by (opening, its colour); the
    player is whoever meets ``opponent``."""
    out: dict[tuple[str, str], float] = {}
    with open_store(path) as store:
        for g in store:
            if opponent not in (g.black, g.white) or g.black == g.white:
                continue
            black = g.white == opponent
            out[(g.opening, "black" if black else "white")] = g.score if black else 1 - g.score
    return out


def arena_names(path: Path) -> set[str]:
    with open_store(path) as store:
        return {name for g in store for name in (g.black, g.white)}


def paired_differences(old: Path, new: Path) -> list[float]:
    if old.suffix == ".db" and new.suffix == ".db":
        common = arena_names(old) & arena_names(new)
        if len(common) != 1:
            raise ValueError(f"{old} and {new} share {len(common)} players, not one opponent")
        opponent = common.pop()
        a, b = arena_games(old, opponent), arena_games(new, opponent)
    else:
        a, b = games(old), games(new)
    return [b[k] - a[k] for k in sorted(set(a) & set(b))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", type=Path, help="OLD NEW [OLD NEW ...]")
    args = ap.parse_args()
    if len(args.records) % 2:
        ap.error("give the records in pairs: OLD NEW [OLD NEW ...]")
    diffs: list[float] = []
    for old, new in zip(args.records[::2], args.records[1::2], strict=True):
        try:
            part = paired_differences(old, new)
        except (OSError, ValueError) as exc:
            ap.error(str(exc))
        print(f"{old.name} -> {new.name}: {len(part)} paired games")
        diffs += part
    n = len(diffs)
    if n < 2:
        ap.error("fewer than 2 games in common")
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
    half = 196 * sd / math.sqrt(n)
    print(f"{n} paired games: new - old = {100 * mean:+.1f} +- {half:.1f} points")


if __name__ == "__main__":
    main()

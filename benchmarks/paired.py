"""Paired score difference of two players that met the same opponent on the same openings.

Two `nboard_match.py --out` records (plain or gzipped) with the same `--seed` hold the same
openings with the same colours; the difference of A's score game by game (same opening, same
colour) cancels most of the openings' noise, so it needs far fewer games than two independent
scores. Several pairs of records (other seeds) pool into one estimate.

Run: python benchmarks/paired.py OLD.jsonl NEW.jsonl [OLD2.jsonl NEW2.jsonl ...]

Prints the number of paired games and NEW - OLD in points per 100 games with a 95% normal
interval.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from match_errors import match_games

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


def paired_differences(old: Path, new: Path) -> list[float]:
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

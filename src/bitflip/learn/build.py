"""Game files -> training shards (what ``bitflip data build`` runs).

Every WTHOR ``.wtb`` file becomes one shard ``wthor-<name>.npz`` whose positions carry the
file's year; extra game files (``.wtb``, ``.ggf``, ``.txt`` transcripts, or the eOthello
``.csv`` of the shared data) become ``extra-<name>.npz`` with year 0, so a split by year
always trains on them and never tests on them. A game whose move sequence already appeared
(in any file of the build) is dropped; positions are deduplicated later, after the split by
game, by :func:`bitflip.learn.datasets.dedup_policy` / :func:`~bitflip.learn.datasets.dedup_value`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bitflip._progress import track
from bitflip.core.geometry import PASS
from bitflip.formats.eothello import read_eothello_csv
from bitflip.formats.io import read_games
from bitflip.formats.wthor import read_header, read_wtb, wtb_files
from bitflip.learn.datasets import GameSource, positions_from_games
from bitflip.learn.shards import write_shard


@dataclass
class FileReport:
    """What one input file gave."""

    path: Path
    shard: Path
    games: int
    positions: int
    duplicates: int
    illegal: int
    unfinished: int


@dataclass
class BuildReport:
    files: list[FileReport] = field(default_factory=list)

    @property
    def positions(self) -> int:
        return sum(f.positions for f in self.files)

    @property
    def games(self) -> int:
        return sum(f.games for f in self.files)


def _load(path: Path) -> tuple[list[list[int]], list[int], list[int], int]:
    """(move lists, years, theoretical black counts or -1, theoretical depth) of a file."""
    if path.suffix.lower() == ".csv":
        games = read_eothello_csv(path)
        return games, [0] * len(games), [-1] * len(games), 0
    if path.suffix.lower() == ".wtb":
        header = read_header(path)
        recs = list(read_wtb(path, check=False))
        years = [header.year] * len(recs)
        theo = [-1 if r.theoretical_score is None else r.theoretical_score for r in recs]
        return [r.moves for r in recs], years, theo, header.depth

    recs = list(read_games(path))
    for r in recs:
        if r.size != 8 or r.start is not None:
            raise ValueError(f"{path}: only 8x8 games from the standard start can be used")
    return [r.moves for r in recs], [0] * len(recs), [-1] * len(recs), 0


def build(
    wthor: Path | None,
    extras: Sequence[Path],
    out: Path,
    log: Callable[[str], None] = print,
    progress: bool = True,
) -> BuildReport:
    """Convert the ``.wtb`` files of ``wthor`` (a folder or one file) and ``extras`` to shards."""
    inputs: list[tuple[Path, str]] = []
    if wthor is not None:
        if not wthor.exists():
            raise FileNotFoundError(f"no WTHOR folder or file {wthor}")
        files = wtb_files(wthor)
        if not files:
            raise FileNotFoundError(f"no .wtb files in {wthor}")
        inputs += [(f, "wthor") for f in files]
    for e in extras:
        if not e.is_file():
            raise FileNotFoundError(f"no extra game file {e}")
        inputs.append((e, "extra"))
    if not inputs:
        raise ValueError("nothing to build: give --wthor DIR and/or --extra FILES")
    seen: set[tuple[int, ...]] = set()
    report = BuildReport()
    for path, kind in track(inputs, "building shards", enabled=progress, unit=" files"):
        moves, years, theo, depth = _load(path)
        keep = []
        for i, ms in enumerate(moves):
            key = tuple(m for m in ms if m != PASS)
            if key in seen:
                continue
            seen.add(key)
            keep.append(i)
        source = GameSource(
            [moves[i] for i in keep],
            [years[i] if kind == "wthor" else 0 for i in keep],
            [theo[i] for i in keep],
            depth,
        )
        batch, stats = positions_from_games(source)
        shard = write_shard(out / f"{kind}-{path.stem}", batch, source=str(path.name))
        illegal = len(stats.illegal or [])
        report.files.append(
            FileReport(
                path,
                shard,
                stats.games,
                stats.positions,
                len(moves) - len(keep),
                illegal,
                stats.unfinished,
            )
        )
        if illegal:
            g, i = (stats.illegal or [])[0]
            log(
                f"{path}: {illegal} game(s) with an illegal move dropped "
                f"(first: game {keep[g] + 1}, move {i + 1})"
            )
    return report

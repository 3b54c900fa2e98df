"""Summaries of game databases: what ``bitflip db stats`` prints."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bitflip.formats import wthor
from bitflip.formats.io import read_games
from bitflip.formats.record import GameRecord

DB_SUFFIXES = (".wtb", ".ggf")
"""File types ``db stats`` picks up inside a folder."""


@dataclass
class DbStats:
    """Counts over the games of one or more files."""

    files: int = 0
    games: int = 0
    years: Counter[int] = field(default_factory=Counter)
    players: set[str] = field(default_factory=set)
    tournaments: set[str] = field(default_factory=set)
    black_wins: int = 0
    white_wins: int = 0
    draws: int = 0
    unfinished: int = 0
    margin_sum: int = 0
    """Sum of black's final disc margins (empties to the winner) over finished games."""
    abs_margin_sum: int = 0

    @property
    def finished(self) -> int:
        return self.black_wins + self.white_wins + self.draws

    def add_path(self, path: str | os.PathLike[str]) -> None:
        """Add a file, or every ``.wtb``/``.ggf`` file in a folder (recursively)."""
        p = Path(path)
        if p.is_dir():
            files = sorted(f for f in p.rglob("*") if f.suffix.lower() in DB_SUFFIXES)
            if not files:
                raise ValueError(f"{p}: no .wtb or .ggf files in this folder")
            for f in files:
                self.add_path(f)
            return
        if not p.exists():
            raise FileNotFoundError(f"{p}: no such file or folder")
        if p.suffix.lower() == ".wtb":
            self.add_wtb(p)
        else:
            self.add_records(read_games(p))

    def add_wtb(self, path: str | os.PathLike[str]) -> None:
        """Add a WTHOR file through its numpy columns (fast: one replay per file)."""
        games = wthor.load_wtb(path)
        rep = games.replay()
        games.check(rep)
        self.files += 1
        self.games += len(games)
        if len(games):
            self.years[games.header.year] += len(games)
        jou = wthor.find_name_file(path, "JOU")
        trn = wthor.find_name_file(path, "TRN")
        if jou is not None:
            names = wthor.read_names(jou)
            ids = np.unique(np.concatenate([games.black, games.white]))
            self.players.update(names[i] if i < len(names) else f"#{i}" for i in ids.tolist())
        else:  # no names: count ids, kept apart per file
            ids = np.unique(np.concatenate([games.black, games.white]))
            self.players.update(f"{path}#{i}" for i in ids.tolist())
        tids = np.unique(games.tournament).tolist()
        if trn is not None:
            tnames = wthor.read_names(trn)
            self.tournaments.update(tnames[i] if i < len(tnames) else f"#{i}" for i in tids)
        else:
            self.tournaments.update(f"{path}#{i}" for i in tids)
        done = rep.over
        self.unfinished += int((~done).sum())
        # Results from the replay (empties to the winner), not the stored byte: a few
        # databases (Logistello's book) split the empties of a finished game instead.
        margin = rep.black_margin()[done]
        self.black_wins += int((margin > 0).sum())
        self.white_wins += int((margin < 0).sum())
        self.draws += int((margin == 0).sum())
        self.margin_sum += int(margin.sum())
        self.abs_margin_sum += int(np.abs(margin).sum())

    def add_records(self, records: Iterable[GameRecord]) -> None:
        """Add games of any format (replayed to find finished games and results)."""
        self.files += 1
        for r in records:
            self.games += 1
            year = r.date[:4]
            if year.isdigit():
                self.years[int(year)] += 1
            self.players.update(n for n in (r.black, r.white) if n)
            if r.event:
                self.tournaments.add(r.event)
            outcome = r.board().outcome()
            if outcome is None:
                self.unfinished += 1
                continue
            m = outcome.margin
            self.black_wins += m > 0
            self.white_wins += m < 0
            self.draws += m == 0
            self.margin_sum += m
            self.abs_margin_sum += abs(m)

    def lines(self) -> list[str]:
        """The summary as aligned ``name: value`` lines."""
        n = self.finished
        years = sorted(self.years)
        span = f"{years[0]}-{years[-1]} ({len(years)} years)" if years else "-"

        def pct(k: int) -> str:
            return f"{k} ({100 * k / n:.1f}%)" if n else str(k)

        rows = [
            ("files", str(self.files)),
            ("games", str(self.games)),
            ("years", span),
            ("players", str(len(self.players))),
            ("tournaments", str(len(self.tournaments))),
            ("finished", str(n)),
            ("unfinished", str(self.unfinished)),
            ("black wins", pct(self.black_wins)),
            ("white wins", pct(self.white_wins)),
            ("draws", pct(self.draws)),
            ("avg black margin", f"{self.margin_sum / n:+.2f}" if n else "-"),
            ("avg disc margin", f"{self.abs_margin_sum / n:.2f}" if n else "-"),
        ]
        width = max(len(k) for k, _ in rows)
        return [f"{k + ':':<{width + 1}} {v}" for k, v in rows]

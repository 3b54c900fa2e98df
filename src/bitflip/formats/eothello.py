"""eOthello's CSV game export (``eOthello_game_id,winner,game_moves``), as on Kaggle.

``game_moves`` is one string of square names without separators (``f5d6c3...``); passes are
not written. Only the move lists are read: the training-data builder replays them.
"""

from __future__ import annotations

import csv
import os
from pathlib import Path

from bitflip.core.geometry import geometry


def read_eothello_csv(path: str | os.PathLike[str]) -> list[list[int]]:
    """Move lists of the eOthello CSV; ValueError names the line of a bad move string."""
    path = Path(path)
    g = geometry(8)
    games = []
    with path.open(newline="") as f:
        reader = csv.reader(f)
        header = next(reader, None)
        if header is None or "game_moves" not in header:
            raise ValueError(f"{path}: not an eOthello CSV (no game_moves column)")
        col = header.index("game_moves")
        for line_no, row in enumerate(reader, start=2):
            text = row[col].strip()
            if len(text) % 2:
                raise ValueError(f"{path}:{line_no}: odd-length move string {text[:20]!r}...")
            try:
                games.append([g.parse_square(text[i : i + 2]) for i in range(0, len(text), 2)])
            except ValueError as exc:
                raise ValueError(f"{path}:{line_no}: {exc}") from None
    return games

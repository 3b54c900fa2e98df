"""Openings that start a match later in the game: recorded games cut at a number of empties.

``python3 benchmarks/cut_games.py RECORD.jsonl EMPTIES > openings.txt`` reads the games of an
``nboard_match.py`` record (``--out``), cuts each one after ``60 - EMPTIES`` moves and prints
the distinct transcripts, one a line, for ``nboard_match.py --openings openings.txt
--opening-order first``. Games with a pass before the cut are left out (a transcript does not
say who passed).

What it is for (``benchmarks/RESULTS-ntest.md``, step 10): where in the game one engine loses
to another. Cut the games of a reference engine playing itself (NTest against NTest: positions
neither side of the measured match chose) at, say, 36 and 24 empties, then play the measured
match from the XOT openings (52 empties), from 36 and from 24. What the weaker side loses
between two starting points is the difference of its scores from them.
"""

from __future__ import annotations

import json
import sys


def cut_transcripts(lines: list[str], empties: int) -> list[str]:
    """The distinct games of a record cut at ``empties`` empty squares, in record order."""
    plies = 60 - empties
    seen: set[str] = set()
    out: list[str] = []
    for line in lines:
        game = json.loads(line)
        if game.get("type") != "game":
            continue
        moves = game["moves"]
        head = moves[: 2 * plies]
        if len(moves) < 2 * plies or "pa" in head.lower() or head in seen:
            continue
        seen.add(head)
        out.append(head)
    return out


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: cut_games.py RECORD.jsonl EMPTIES")
    with open(sys.argv[1]) as f:
        lines = f.readlines()
    for transcript in cut_transcripts(lines, int(sys.argv[2])):
        print(transcript)


if __name__ == "__main__":
    main()

"""Every distinct position (up to the 8 symmetries) N moves into the game, one transcript each.

    PYTHONPATH=src python benchmarks/ply_openings.py 5 > ply5.txt    # 322 lines

Openings for `bitflip arena --openings ply5.txt` when a match must start where an opening book
has something to say (XOT lines start 8 moves in, mostly past a book's well-played lines).
"""

from __future__ import annotations

import sys

from bitflip.core.board import Board


def openings(plies: int) -> list[str]:
    """One transcript (from f5, all first moves being alike) per distinct position."""
    seen: dict[tuple[int, ...], str] = {}

    def walk(board: Board, line: str) -> None:
        if len(line) // 2 == plies:
            key = min(
                (*(int(x) for x in board.transform(t).side_bitboards()), int(board.turn))
                for t in range(8)
            )
            seen.setdefault(key, line)
            return
        for move in board.legal_moves:
            child = board.copy()
            child.push(move)
            walk(child, line + board.geometry.square_name(move))

    start = Board()
    start.push("f5")
    walk(start, "f5")
    return list(seen.values())


if __name__ == "__main__":
    print("\n".join(openings(int(sys.argv[1]) if len(sys.argv) > 1 else 5)))

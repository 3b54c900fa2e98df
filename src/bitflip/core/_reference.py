"""Slow, obviously correct mailbox rules: used only by differential tests of the kernels."""

from __future__ import annotations

DIRECTIONS = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))


class ReferenceBoard:
    """A size x size grid of 0 (empty), 1 (side to move) and 2 (opponent)."""

    def __init__(self, size: int, player: set[tuple[int, int]], opponent: set[tuple[int, int]]):
        self.size = size
        self.player = set(player)
        self.opponent = set(opponent)

    def on_board(self, r: int, c: int) -> bool:
        return 0 <= r < self.size and 0 <= c < self.size

    def flips(self, r: int, c: int) -> set[tuple[int, int]]:
        if (r, c) in self.player or (r, c) in self.opponent:
            return set()
        flipped: set[tuple[int, int]] = set()
        for dr, dc in DIRECTIONS:
            run = []
            rr, cc = r + dr, c + dc
            while self.on_board(rr, cc) and (rr, cc) in self.opponent:
                run.append((rr, cc))
                rr, cc = rr + dr, cc + dc
            if run and self.on_board(rr, cc) and (rr, cc) in self.player:
                flipped.update(run)
        return flipped

    def moves(self) -> list[tuple[int, int]]:
        return [(r, c) for r in range(self.size) for c in range(self.size) if self.flips(r, c)]

    def play(self, r: int, c: int) -> ReferenceBoard:
        f = self.flips(r, c)
        assert f, "illegal move"
        mover = self.player | f | {(r, c)}
        return ReferenceBoard(self.size, self.opponent - f, mover)

    def passed(self) -> ReferenceBoard:
        return ReferenceBoard(self.size, self.opponent, self.player)

    def game_over(self) -> bool:
        return not self.moves() and not self.passed().moves()

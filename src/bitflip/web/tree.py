"""A move tree: every move ever played in a game, so that no variation is thrown away.

Node 0 is the start position; every other node is the position after one move from its
parent. Nodes are only ever added, so a node id names one position for the life of the game
(evaluations and analysis are kept by node). A node's first child is its main continuation;
later children are variations, in the order they were first played.
This module is pure data: no board, no I/O (see :mod:`bitflip.web.games`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bitflip.core.board import Move

ROOT = 0
NO_MOVE = -1
"""The root's move: it is reached by no move."""


@dataclass
class MoveTree:
    """Nodes as two parallel lists: the move into each node and its parent."""

    moves: list[Move] = field(default_factory=lambda: [NO_MOVE])
    parents: list[int] = field(default_factory=lambda: [NO_MOVE])

    def __len__(self) -> int:
        return len(self.moves)

    def children(self, node: int) -> list[int]:
        """The node's children, main continuation first."""
        return [i for i, p in enumerate(self.parents) if p == node]

    def child(self, node: int, move: Move) -> int | None:
        """The child of ``node`` reached by ``move``, if it was ever played."""
        for i in self.children(node):
            if self.moves[i] == move:
                return i
        return None

    def add(self, node: int, move: Move) -> int:
        """The child of ``node`` by ``move``: the existing one or a new node."""
        found = self.child(node, move)
        if found is not None:
            return found
        self.moves.append(move)
        self.parents.append(node)
        return len(self.moves) - 1

    def path_to(self, node: int) -> list[int]:
        """The nodes from the root to ``node``, both included."""
        if not 0 <= node < len(self.moves):
            raise IndexError(f"no node {node} in a tree of {len(self.moves)}")
        out = [node]
        while self.parents[out[-1]] != NO_MOVE:
            out.append(self.parents[out[-1]])
        return out[::-1]

    def main_continuation(self, node: int) -> list[int]:
        """The nodes after ``node`` following first children to a leaf."""
        out = []
        kids = self.children(node)
        while kids:
            out.append(kids[0])
            kids = self.children(kids[0])
        return out

    def main_line(self) -> list[int]:
        """The root and its main continuation: the game as first played."""
        return [ROOT, *self.main_continuation(ROOT)]

    def depth(self, node: int) -> int:
        return len(self.path_to(node)) - 1

    def line_moves(self, path: list[int]) -> list[Move]:
        """The moves along a path from the root."""
        return [self.moves[n] for n in path[1:]]

    @classmethod
    def linear(cls, moves: list[Move]) -> MoveTree:
        """A tree of one line; node ``i`` is the position after ``i`` moves."""
        return cls([NO_MOVE, *moves], [NO_MOVE, *range(len(moves))])

    def to_json(self) -> list[list[int]]:
        return [[p, m] for p, m in zip(self.parents, self.moves, strict=True)]

    @classmethod
    def from_json(cls, rows: list[list[int]]) -> MoveTree:
        """The tree of ``to_json``; raises ValueError on a parent that is not an earlier node."""
        tree = cls([], [])
        for i, (parent, move) in enumerate(rows):
            if (i == 0) != (parent == NO_MOVE) or parent >= i:
                raise ValueError(f"node {i} has parent {parent}")
            tree.parents.append(int(parent))
            tree.moves.append(int(move))
        if not tree.moves:
            raise ValueError("a move tree needs its root")
        return tree

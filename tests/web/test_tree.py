"""The move tree: nodes only added, first children are the main line."""

from __future__ import annotations

import pytest

from bitflip.web.tree import ROOT, MoveTree


def test_add_children_paths_and_main_line() -> None:
    t = MoveTree()
    a = t.add(ROOT, 37)
    b = t.add(a, 43)
    c = t.add(a, 45)  # a variation at the second move
    assert t.add(a, 43) == b  # the same move finds the same node
    assert t.children(a) == [b, c] and t.child(a, 45) == c and t.child(a, 0) is None
    assert t.path_to(c) == [ROOT, a, c] and t.depth(c) == 2
    d = t.add(b, 18)
    assert t.main_line() == [ROOT, a, b, d]
    assert t.main_continuation(a) == [b, d] and t.main_continuation(c) == []
    assert t.line_moves(t.path_to(c)) == [37, 45]
    with pytest.raises(IndexError):
        t.path_to(99)


def test_json_round_trip_and_bad_rows() -> None:
    t = MoveTree.linear([37, 43, 18])
    assert t.main_line() == [0, 1, 2, 3]
    back = MoveTree.from_json(t.to_json())
    assert back == t
    with pytest.raises(ValueError, match="parent"):
        MoveTree.from_json([[-1, -1], [2, 37]])  # a parent after its child
    with pytest.raises(ValueError, match="root"):
        MoveTree.from_json([])

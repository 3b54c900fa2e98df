"""Issue 34: after ``set depth 8``, ``hint`` ranked first a move that ``go`` did not play.

A selective search's scores depend on its window, so a multi-PV pass could rank another move
first at the same depth; the engine's ``hint`` now puts ``go``'s move first.
"""

from __future__ import annotations

import io

import pytest

from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.protocols.nboard import NBoardServer
from bitflip.search.limits import Limit

# Positions where the multi-PV pass of level 8 ranked first another move than go played.
DISAGREED = [
    "X-------XXX-----XXX----OX-XXXXO---XOXX--O-XXOOOOOOXOOOOOXXOOOOOO O",
    "----O-------O-----OOO---X-OOOOOOOOOOOXOOOOOOOXXOOXXXXXXXOX--XXXX X",
    "---O--OX--XOO-O----OXOXX--XOOOXX---OOXOO--OXXXO--O--XOOO---X---- X",
]


@pytest.mark.parametrize("obf", DISAGREED)
def test_hint_ranks_first_the_move_go_plays(obf: str) -> None:
    board = Board(obf)
    first = Engine(tt_mb=4)
    first.set_position(board)
    hints = first.hint(3, Limit(level=8))
    second = Engine(tt_mb=4)
    second.set_position(board)
    played = second.go(Limit(level=8))
    assert hints[0].move == played.move and hints[0].depth == played.depth == 8
    assert len({h.move for h in hints}) == 3


@pytest.mark.parametrize("obf", DISAGREED)
def test_nboard_hint_and_go_agree_at_the_same_depth(obf: str) -> None:
    out = io.StringIO()
    server = NBoardServer(Engine(tt_mb=4), out, err=io.StringIO(), clock=lambda: 0.0)
    server.board = Board(obf)
    for line in ("set depth 8", "hint 3", "go"):
        server.handle(line)
        server.wait()
    server.close()
    lines = out.getvalue().splitlines()
    searches = [s.split() for s in lines if s.startswith("search ")]
    played = next(s for s in lines if s.startswith("=== "))[4:].split("/")[0]
    assert len(searches) == 3 and searches[0][1] == played and searches[0][4] == "8"

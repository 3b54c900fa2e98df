"""Boards as SVG (core.svg): one circle a disc, a dot a legal move, the last move marked."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from bitflip.core.board import Board
from bitflip.core.svg import board_svg

NS = "{http://www.w3.org/2000/svg}"


def _circles(svg: str) -> list[dict[str, str]]:
    return [c.attrib for c in ET.fromstring(svg).iter(f"{NS}circle")]


def test_discs_legal_moves_and_the_last_move_are_drawn() -> None:
    b = Board()
    b.push(b.parse_move("f5"))
    circles = _circles(board_svg(b))
    discs = [c for c in circles if c["fill"] in ("#111", "#f4f4f4")]
    dots = [c for c in circles if c.get("opacity") == "0.35"]
    marks = [c for c in circles if c["fill"] == "#e33"]
    assert len(discs) == 5 and len([c for c in discs if c["fill"] == "#111"]) == 4
    assert len(dots) == len(b.legal_moves) == 3
    # f5 is column 5 and row 4 from 0: centres 20 (the coordinates' margin) + 40 a cell + 20.
    assert len(marks) == 1 and (marks[0]["cx"], marks[0]["cy"]) == ("240.0", "200.0")


def test_the_options_leave_out_what_they_name() -> None:
    b = Board(size=6)
    b.push(next(iter(b.legal_moves)))
    plain = board_svg(b, show_legal=False, last_move=False, coordinates=False, cell=10)
    root = ET.fromstring(plain)
    assert root.get("width") == "60" and not list(root.iter(f"{NS}text"))
    assert len(_circles(plain)) == 5  # the discs only
    with_names = ET.fromstring(board_svg(b))
    assert [t.text for t in with_names.iter(f"{NS}text")][:2] == ["a", "1"]

"""Cost of the NBoard protocol: a whole game through ``NBoardEngine`` -> ``bitflip nboard``.

Plays one game, the engine against itself at depth 1 (so that the search costs almost
nothing), once through the protocol (a subprocess, ``ping``/``pong``, ``set game`` GGF, ``go``)
and once in process through :class:`bitflip.engine.Engine`; prints the start-up time and the
milliseconds per move of each. Run: ``PYTHONPATH=src python benchmarks/nboard_client.py``.
"""

from __future__ import annotations

import argparse
import sys
import time

from bitflip.core.board import Board
from bitflip.engine import Engine
from bitflip.protocols.client import NBoardEngine
from bitflip.search.limits import Limit


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--depth", type=int, default=1, help="search depth of every move")
    args = ap.parse_args()
    limit = Limit(depth=args.depth)
    cmd = [sys.executable, "-m", "bitflip.cli.main", "nboard", "--tt-mb", "4"]
    t0 = time.perf_counter()
    with NBoardEngine.popen(cmd, depth=args.depth) as engine:
        started = time.perf_counter() - t0
        board, t1 = Board(), time.perf_counter()
        while not board.is_game_over():
            board.push(engine.play(board, limit).move)
        via_protocol = (time.perf_counter() - t1) / board.ply
    local, b, t2 = Engine(tt_mb=4), Board(), time.perf_counter()
    while not b.is_game_over():
        local.set_position(b)
        b.push(local.go(limit).move)
    in_process = (time.perf_counter() - t2) / b.ply
    print(f"start-up (popen to first pong): {started:.2f} s")
    print(
        f"{board.ply} moves at depth {args.depth} through NBoard: {1000 * via_protocol:.1f} ms/move"
    )
    print(f"{b.ply} moves at depth {args.depth} in process:     {1000 * in_process:.1f} ms/move")


if __name__ == "__main__":
    main()

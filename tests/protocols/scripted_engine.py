"""A scripted NBoard engine for client tests: speaks the protocol the way real engines do.

It plays the first legal move (after reading ``set game``) and can imitate Edax's dialect,
die, hang or cheat, so that the client's error paths are tested without Edax (which cannot be
downloaded here). Run: ``python scripted_engine.py [--edax] [--die-after N] [--hang] [--illegal]``.
"""

from __future__ import annotations

import argparse
import sys

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats.ggf import loads


def board_from_game(ggf: str) -> Board:
    return loads(ggf)[0].board()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edax", action="store_true", help="'=== d6 -1.00 0.0' and Edax's status")
    ap.add_argument("--die-after", type=int, default=-1, help="exit at this 'go' (0 = first)")
    ap.add_argument("--hang", action="store_true", help="never answer 'go'")
    ap.add_argument("--illegal", action="store_true", help="answer 'go' with an occupied square")
    args = ap.parse_args()
    name = "Edax" if args.edax else "Scripted"
    board = Board()
    goes = 0

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        cmd, _, arg = line.strip().partition(" ")
        if cmd == "nboard":
            print("engine starting", file=sys.stderr, flush=True)
        elif cmd == "set" and arg.startswith("depth"):
            send(f"set myname {name}{arg.split()[1]}")
        elif cmd == "set" and arg.startswith("game "):
            board = board_from_game(arg[5:])
        elif cmd == "ping":
            send(f"pong {arg}")
        elif cmd == "go":
            if goes == args.die_after:
                print("fatal: out of memory", file=sys.stderr, flush=True)
                return 3
            goes += 1
            send(f"status {name} is thinking")
            if args.hang:
                continue
            moves = list(board.legal_moves)
            move = moves[0]
            text = "PA" if move == PASS else board.geometry.square_name(move)
            if args.illegal:
                text = "d4"
            send("nodestats 1234 0.01")
            send(f"search {text}-{text} 1.50 0 3")
            send(f"=== {text} 1.50 0.0" if args.edax else f"=== {text.upper()}/1.50/0.01")
            send(f"status {name} is waiting")
        elif cmd == "hint":
            send(f"status {name} is thinking")
            moves = [m for m in board.legal_moves][: int(arg)]
            for depth in (1, 2):  # iterative updates: the last line of each move counts
                for i, m in enumerate(moves):
                    send(f"search {board.geometry.square_name(m).upper()} {depth - i}.00 0 {depth}")
                    send("nodestats 10 0.00")
            send(f"status {name} is waiting" if args.edax else "status")
        elif cmd == "quit":
            return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

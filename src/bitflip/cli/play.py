"""``bitflip play``: play a game against an agent (in the terminal with ``--terminal``)."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

DEFAULT_OPPONENT = "minimax:depth=4"


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("play", help="play a game against the engine")
    p.add_argument("--terminal", action="store_true", help="play in the terminal")
    p.add_argument("--opponent", default=DEFAULT_OPPONENT, help="agent spec of the opponent")
    p.add_argument("--color", choices=("black", "white"), default="black", help="your colour")
    p.add_argument("--size", type=int, choices=(4, 6, 8), default=8, help="board size")
    p.add_argument("--seed", type=int, default=None, help="seed of the opponent's randomness")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    return play_terminal(opponent=args.opponent, color=args.color, size=args.size, seed=args.seed)


HELP = "Type a move (e.g. f5), 'undo', 'moves', 'hint' is not here yet, 'quit'."


def play_terminal(
    *,
    opponent: str,
    color: str,
    size: int,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """A person against an agent, reading moves from ``stdin``."""
    from bitflip.agents import make_agent
    from bitflip.core.board import BLACK, WHITE, Board, IllegalMoveError, InvalidMoveError
    from bitflip.core.geometry import PASS

    inp = stdin or sys.stdin
    out = stdout or sys.stdout
    agent = make_agent(opponent, seed=seed)
    agent.new_game()
    human = BLACK if color == "black" else WHITE
    board = Board(size=size)
    name = board.geometry.square_name

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(f"You play {human.name.lower()} ({human.symbol}) against {agent.name}. Type 'help'.")
    while not board.is_game_over():
        if board.turn != human:
            move = agent.select_move(board)
            board.push(move)
            say(f"{agent.name} plays {name(move)}" if move != PASS else f"{agent.name} passes")
            continue
        say()
        say(str(board))
        if list(board.legal_moves) == [PASS]:
            say("You have no legal move and must pass.")
            board.push(PASS)
            continue
        say("Legal moves: " + " ".join(name(m) for m in board.legal_moves))
        out.write("your move> ")
        out.flush()
        line = inp.readline()
        if not line:
            say("\nend of input: game abandoned")
            return 1
        cmd = line.strip().lower()
        if cmd in ("quit", "exit", "q"):
            say("game abandoned")
            return 0
        if cmd in ("help", "?"):
            say(HELP)
            continue
        if cmd == "moves":
            say(" ".join(name(m) for m in board.move_stack) or "(no moves yet)")
            continue
        if cmd == "undo":
            # Take back to the person's previous turn (their move and the replies after it).
            if human not in _movers(board):
                say("nothing to undo")
                continue
            while True:
                board.pop()
                if board.turn == human and board.move_stack[-1:] != [PASS]:
                    break
            continue
        try:
            board.push(cmd)
        except (InvalidMoveError, IllegalMoveError) as exc:
            say(str(exc).split(" (position")[0])
    say()
    say(str(board))
    outcome = board.outcome()
    assert outcome is not None
    if outcome.winner is None:
        say(f"Draw, {outcome}.")
    elif outcome.winner == human:
        say(f"You win, {outcome}.")
    else:
        say(f"{agent.name} wins, {outcome}.")
    return 0


def _movers(board: object) -> set[object]:
    """Colours that have made a (non-pass) move on the stack."""
    from bitflip.core.board import BLACK, Board
    from bitflip.core.geometry import PASS

    assert isinstance(board, Board)
    colors = set()
    turn = BLACK
    for m in board.move_stack:
        if m != PASS:
            colors.add(turn)
        turn = turn.other
    return colors

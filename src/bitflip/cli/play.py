"""``bitflip play``: the web app on localhost (or, with ``--terminal``, a game in the terminal)."""

from __future__ import annotations

import argparse
import functools
import os
import sys
import threading
from pathlib import Path
from typing import TextIO

from bitflip.cli._numbers import PORT, SEED
from bitflip.cli._subcommand import Subparsers, add_subcommand, add_threads_option
from bitflip.core.board import BLACK, WHITE, Board, Color, IllegalMoveError, InvalidMoveError
from bitflip.core.geometry import PASS
from bitflip.datadir import user_data_dir

DEFAULT_PORT = 8765


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "play")
    p.add_argument("--terminal", action="store_true", help="play in the terminal instead")
    p.add_argument(
        "--opponent",
        help="agent spec of the opponent (default: the engine at its default level); "
        "the web page may always choose it",
    )
    p.add_argument(
        "--allow-opponent",
        action="append",
        default=[],
        metavar="SPEC",
        help="a further opponent the web page may choose (repeatable). The page offers only safe "
        "agents by default; specs that start a program or read a file (nboard:cmd=..., net=..., "
        "weights=..., table=...) must be named here or with --opponent",
    )
    p.add_argument(
        "--book",
        default="default",
        metavar="FILE|default|none",
        help="opening book of the web app's engine opponents on 8x8 (default: the shipped one); "
        "book moves are marked in the move list",
    )
    p.add_argument("--color", choices=("black", "white"), default="black", help="your colour")
    p.add_argument("--size", type=int, choices=(4, 6, 8), default=8, help="board size")
    add_threads_option(p)
    p.add_argument("--seed", type=SEED, default=None, help="seed of the opponent's randomness")
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to serve on (default: localhost). Beyond localhost every request needs "
        "an access token: the address printed carries it",
    )
    p.add_argument(
        "--token",
        help="the access token (default beyond localhost: a new random one at each start)",
    )
    p.add_argument(
        "--no-token",
        action="store_true",
        help="serve beyond localhost without an access token: anyone who can reach the port "
        "plays, loads games and runs the engine here",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a further name requests may reach the server by (a DNS alias, a proxy's name; "
        "repeatable); others are refused, which defeats DNS rebinding",
    )
    p.add_argument("--port", type=PORT, default=DEFAULT_PORT, help="port (0: any free port)")
    p.add_argument("--no-browser", action="store_true", help="do not open a browser")
    p.add_argument(
        "--db",
        help="SQLite file of the games (default: $BITFLIP_HOME/games.sqlite, "
        "~/.local/share/bitflip/games.sqlite)",
    )
    p.set_defaults(func=run)


def default_db() -> Path:
    home = os.environ.get("BITFLIP_HOME")
    if home:
        return Path(home) / "games.sqlite"
    return user_data_dir().parent / "games.sqlite"  # beside the data sets' folder


def run(args: argparse.Namespace) -> int:
    from bitflip.agents import DEFAULT_OPPONENT

    opponent = args.opponent or DEFAULT_OPPONENT
    if args.terminal:
        return play_terminal(opponent=opponent, color=args.color, size=args.size, seed=args.seed)
    return serve(
        host=args.host,
        port=args.port,
        db=Path(args.db) if args.db else default_db(),
        opponent=opponent,
        allow_opponents=args.allow_opponent,
        open_browser=not args.no_browser,
        book=args.book,
        token=access_token(args.host, args.token, args.no_token),
        allow_hosts=args.allow_host,
        threads=args.threads,
    )


def access_token(host: str, token: str | None, no_token: bool) -> str | None:
    """The access token a server on ``host`` requires: ``token``, else beyond localhost a new
    random one; None on localhost without ``token`` or with ``no_token`` (a warning then).

    Raises:
        ValueError: both a token and --no-token, or a token that cannot travel in an address.
    """
    import secrets

    from bitflip.web.guard import check_token, is_loopback

    if token is not None and no_token:
        raise ValueError("--token and --no-token contradict each other: give one of them")
    if no_token:
        if not is_loopback(host):
            print(
                f"warning: serving on {host} without an access token (--no-token): anyone who "
                "can reach this port can play, load games and run the engine here",
                file=sys.stderr,
            )
        return None
    if token is not None:
        try:
            return check_token(token)
        except ValueError as exc:
            raise ValueError(f"--token: {exc}") from None
    return None if is_loopback(host) else secrets.token_urlsafe(18)


def served_url(host: str, port: int, token: str | None) -> str:
    """The address to open: the host the server is reached by, with the token if any."""
    import socket

    from bitflip.web.guard import WILDCARDS, is_loopback

    if is_loopback(host):
        shown = "localhost"
    elif host in WILDCARDS:
        shown = socket.gethostname() or "localhost"
    else:
        shown = host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/" + (f"?token={token}" if token else "")


def serve(
    *,
    host: str,
    port: int,
    db: Path,
    opponent: str,
    open_browser: bool,
    allow_opponents: list[str] | None = None,
    book: str | None = "default",
    token: str | None = None,
    allow_hosts: list[str] | None = None,
    threads: int = 1,
) -> int:
    """Serve the web app until interrupted; opens the browser once the server listens.

    ``token``: the access token every request needs (see :func:`access_token`);
    ``allow_hosts``: further names requests may reach the server by; ``threads``: search
    threads of each engine (opponents, hints, analysis)."""
    try:
        import uvicorn

        from bitflip.web.app import create_app
    except ImportError as exc:
        raise ValueError(
            f"the web app needs the web extra ({exc.name} is missing): "
            "pip install 'bitflip[web]', or play in the terminal with --terminal"
        ) from None
    from bitflip.web.engine_bridge import Opponent, new_engine
    from bitflip.web.policy import canonical

    allowed = list(allow_opponents or [])
    for spec in [opponent, *allowed]:
        canonical(spec)  # a bad spec fails now, in one line, not in the first game
    Opponent(opponent, size=8)
    app = create_app(
        db,
        opponent=opponent,
        allow_opponents=allowed,
        host=host,
        token=token,
        allow_hosts=allow_hosts or (),
        book=book,
        make_engine=functools.partial(new_engine, threads=threads),
    )
    # Open pages hold long polls; do not wait for them to end on Ctrl+C.
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2
    )
    server = uvicorn.Server(config)

    def announce() -> None:
        import time
        import webbrowser

        while not server.started:
            if server.should_exit:
                return
            time.sleep(0.05)
        bound = port
        for s in server.servers:
            for sock in s.sockets:
                bound = sock.getsockname()[1]
        url = served_url(host, bound, token)
        docs = served_url(host, bound, None) + "docs"
        print(f"bitflip is serving on {url} (API docs: {docs}); games in {db}", flush=True)
        if token is not None:
            print(
                "Every request needs the access token: open the address above (it sets a "
                "cookie) or send 'Authorization: Bearer TOKEN'.",
                flush=True,
            )
        print("Press Ctrl+C to stop.", flush=True)
        if open_browser:
            webbrowser.open(url)

    _check_port_free(host, port)
    threading.Thread(target=announce, daemon=True).start()
    server.run()
    if not server.started:
        raise OSError(f"could not serve on {host}:{port} (is the port in use?)")
    return 0


def _check_port_free(host: str, port: int) -> None:
    """A port in use is a one-line error naming --port, not uvicorn's log line and exit 3."""
    import errno
    import socket

    if port == 0:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise OSError(
                    f"port {port} on {host} is in use (another bitflip?): choose one with "
                    "--port N, or --port 0 for any free port"
                ) from None
            raise OSError(f"cannot serve on {host}:{port}: {exc.strerror}") from None


HELP = "Type a move (e.g. f5), 'undo', 'moves', 'hint' (every move's score), 'quit'."


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
        if not line:  # piped moves ran out: the game stays unfinished, which is no error
            say("\nend of input: game left unfinished")
            return 0
        cmd = line.strip().lower()
        if cmd in ("quit", "exit", "q"):
            say("game abandoned")
            return 0
        if cmd in ("help", "?"):
            say(HELP)
            continue
        if cmd == "hint":
            say(_hint_line(board))
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
            say(exc.detail)
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


def _hint_line(board: Board) -> str:
    """Every legal move's score, as ``bitflip hint`` gives them (the engine's default level)."""
    from bitflip.engine import Engine

    if board.is_game_over():
        return "The game is over."
    engine = Engine(size=board.size)
    engine.set_position(board)
    scores = engine.hint(n=len(board.legal_moves))
    name = board.geometry.square_name
    return "Hints (discs, = exact): " + "  ".join(
        f"{name(s.move)} {s.score:+.1f}{'=' if s.exact else ''}" for s in scores
    )


def _movers(board: Board) -> set[Color]:
    """Colours that have made a (non-pass) move on the stack."""
    colors: set[Color] = set()
    turn = BLACK
    for m in board.move_stack:
        if m != PASS:
            colors.add(turn)
        turn = turn.other
    return colors

"""``bitflip nboard``: speak the NBoard engine protocol on stdin/stdout (for the NBoard GUI)."""

from __future__ import annotations

import argparse

from bitflip.cli._numbers import DISCS, LEVEL, TT_MB
from bitflip.cli._subcommand import Subparsers, add_subcommand, add_threads_option


def register(sub: Subparsers) -> None:
    p = add_subcommand(sub, "nboard")
    p.add_argument(
        "--level",
        type=int,
        default=None,
        help="engine level 1-20 used until the GUI sends 'set depth' (default: the engine's)",
    )
    p.add_argument("--eval", default="default", help="evaluation function (default: default)")
    p.add_argument("--tt-mb", type=TT_MB, default=64, help="transposition table size in MiB")
    p.add_argument(
        "--book",
        default="none",
        help="opening book: a file, 'default' (the shipped WTHOR book) or 'none' (default: none;"
        " matches against Zebra are played with books off, and the book does not yet win games)",
    )
    p.add_argument(
        "--book-randomness",
        type=DISCS,
        default=0.0,
        help="play any book move within this many discs of the best (default 0: the best)",
    )
    p.add_argument("--name", default="bitflip", help="name sent with 'set myname'")
    p.add_argument(
        "--log", metavar="FILE", help="copy the conversation to FILE ('> ' in, '< ' out)"
    )
    add_threads_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from bitflip.engine import Engine
    from bitflip.protocols.nboard import NBoardServer

    kwargs = {} if args.level is None else {"level": LEVEL.check(args.level, "--level")}
    engine = Engine(
        **kwargs,
        evaluation=args.eval,
        tt_mb=args.tt_mb,
        threads=args.threads,
        book=args.book,
        book_randomness=args.book_randomness,
    )
    import io

    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(line_buffering=True)  # the server flushes too; this covers stray prints
    # Bytes that are not UTF-8 make a bad line (reported, ignored), never the end of the session.
    raw = getattr(sys.stdin, "buffer", None)
    lines = (
        io.TextIOWrapper(raw, encoding="utf-8", errors="replace") if raw is not None else sys.stdin
    )
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    try:
        server = NBoardServer(engine, sys.stdout, name=args.name, transcript=log)
        return server.run(lines)
    finally:
        if log is not None:
            log.close()

"""Entry point of the ``bitflip`` command.

Each subcommand is a module of this package with ``register(subparsers)``. A module imports at
the top only the light layers (core, formats, its helpers in ``cli``, data paths, search limits
and levels); the engine, agents, evaluations, search, arena, learners, networks and web app are
imported inside the function that runs the command, so ``bitflip --help`` compiles no kernel and
needs no optional package, and a searching command says it compiles before it does.

Errors that users cause (bad files, bad moves, bad options) print one line and exit with status
2, never a traceback. SIGTERM stops a command as Ctrl-C does (status 130): a run started in the
background ignores SIGINT, and its workers and files need the same clean stop.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType

from bitflip import __version__, _kernel_cache
from bitflip.cli._subcommand import OneLineParser
from bitflip.cli.errors import CommandError, install_hint

# Subcommand modules, in the order --help lists them.
COMMANDS: tuple[str, ...] = (
    "play",
    "hint",
    "analyze",
    "solve",
    "bench",
    "book",
    "nboard",
    "arena",
    "perft",
    "convert",
    "db",
    "data",
    "train",
    "nn",
)


# Optional packages and the extra that brings each (a missing one is a one-line error).
_EXTRA_OF = {
    "torch": "nn",
    "fastapi": "web",
    "uvicorn": "web",
    "rich": "arena",
    "matplotlib": "arena",
    "ray": "distributed",
    "gymnasium": "rl",
    "pettingzoo": "rl",
}


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog="bitflip",
        description="The Python toolkit for computer Othello.",
    )
    parser.add_argument("--version", action="version", version=f"bitflip {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS:
        importlib.import_module(f"bitflip.cli.{name}").register(sub)
    return parser


def _say_kernels_compile() -> None:
    """Why the first search of a fresh install is quiet for a while."""
    print(
        "bitflip: compiling the search kernels once (up to a minute); later runs start at once",
        file=sys.stderr,
        flush=True,
    )


@contextmanager
def _sigterm_as_interrupt() -> Iterator[None]:
    """Within the block, SIGTERM raises KeyboardInterrupt in the main thread (its default would
    end the process at once: no worker pool shut down, nothing cleaned up)."""
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers can be set only from the main thread (e.g. main() in a test)
        return

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        with _sigterm_as_interrupt(), _kernel_cache.compile_notice(_say_kernels_compile):
            result = args.func(args)
    except KeyboardInterrupt:
        print("bitflip: interrupted", file=sys.stderr)
        return 130
    except ModuleNotFoundError as exc:
        extra = _EXTRA_OF.get((exc.name or "").split(".")[0])
        if extra is None:
            raise
        print(
            f"bitflip {args.command}: error: this needs the optional package {exc.name!r}: "
            + install_hint(extra),
            file=sys.stderr,
        )
        return 2
    except MemoryError as exc:  # a table or a data set larger than the memory left
        print(f"bitflip {args.command}: error: not enough memory: {exc}", file=sys.stderr)
        return 2
    except (CommandError, ValueError, OSError, EOFError) as exc:
        print(f"bitflip {args.command}: error: {exc}", file=sys.stderr)
        return 2
    return int(result or 0)


if __name__ == "__main__":
    sys.exit(main())

"""The NBoard protocol, engine side: lets the NBoard GUI (or any NBoard client) use our engine.

The protocol (Chris Welty's, as NBoard, Ntest and Edax speak it) is one command per line on
stdin and one reply per line on stdout:

=====================  ===================================================================
``nboard 2``           start; we answer ``set myname bitflip``
``set depth N``        search as engine level N (its midgame depth, exact solving from more
                       empties, its selectivity), as Edax reads it; N above 20 keeps growing
                       (before any ``set depth``, the engine's own level rules)
``set game GGF``       the position at the end of a GGF game record (its moves included)
``set contempt N``     a draw is N centidiscs worse than 0 for the engine (midgame search)
``move f5/eval/time``  play a move on the current position (``/eval/time`` optional; a bare
                       ``f5`` line, as NBoard 1.1 sends, also works)
``hint N``             ``search <move> <eval> 0 <depth>`` for the N best moves, between a
                       ``status ... thinking`` and a ``status ... waiting`` line
``go``                 ``=== f5/<eval>/<seconds>``; the position is *not* updated (NBoard
                       sends ``move`` when the move is really played)
``ping N``             stop thinking, then ``pong N``
``learn``              ``learned`` (the opening book is built offline, not learned into)
``quit``               stop thinking and exit
=====================  ===================================================================

``go`` plays from the engine's opening book when it has one (``bitflip nboard --book
default`` loads the shipped one), answering at once with the book's score.

``go`` and ``hint`` also report ``nodestats <nodes> <seconds>`` and, while a long search
runs, ``status`` lines with its progress (at most one per ``status_interval`` seconds).
Evaluations are in discs from the side to move's view. Searches run in a background thread, so
input is read while the engine thinks: ``set depth`` and ``set contempt`` apply to the next
search at once, and any other command first stops the running search (which still sends its
answer), so replies come in order and a ``ping`` is answered within milliseconds. Unknown or
malformed lines get no reply on stdout: they are reported on stderr and the session goes on.
A search that fails (a bug of ours) is reported the same way and ``go`` still answers, with a
move chosen without searching (:func:`fallback_move`: the positional agent's one-ply choice),
so the GUI is never left waiting.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TextIO

from bitflip.agents import PositionalAgent
from bitflip.core.board import Board, IllegalMoveError, InvalidMoveError, Move
from bitflip.core.geometry import PASS
from bitflip.engine import SearchEngine
from bitflip.formats import ggf
from bitflip.search.levels import MAX_EXTENDED_LEVEL, MIN_LEVEL
from bitflip.search.limits import Limit, SearchInfo

NAME = "bitflip"
_SETTINGS = ("depth", "contempt")
"""``set`` options that only affect the next search: read without stopping the running one."""
PROTOCOL_VERSIONS = ("1", "2")
MAX_CONTEMPT = 6400
"""The largest ``set contempt`` (centidiscs): a draw worth a 64-disc loss."""


class GameParseError(ValueError):
    """A ``set game`` record we cannot turn into a position."""


def move_text(move: Move, board: Board) -> str:
    """A move as NBoard reads it: ``f5`` (lower case), ``PA`` for a pass."""
    return "PA" if move == PASS else board.geometry.square_name(move)


def fallback_move(board: Board) -> Move:
    """A legal move found without the engine (when its search fails): the one-ply
    disc-square choice of :class:`~bitflip.agents.PositionalAgent` (corners first); PASS when
    the side to move must pass."""
    return PositionalAgent(seed=0).select_move(board)


def board_from_ggf(text: str, size: int = 8) -> Board:
    """The position at the end of one GGF game, with the game's moves on its stack.

    Passes may be written (``PA``) or left out; both replay correctly.
    """
    try:
        records = ggf.loads(text)
        if not records:
            raise GameParseError("the GGF text holds no game")
        board = records[0].board()
    except (IllegalMoveError, InvalidMoveError) as exc:
        raise GameParseError(f"the GGF game does not replay: {exc}") from None
    except GameParseError:
        raise
    except ValueError as exc:
        raise GameParseError(f"cannot read the GGF game: {exc}") from None
    if board.size != size:
        raise GameParseError(
            f"the GGF game is {board.size}x{board.size}; this engine plays {size}x{size}"
        )
    return board


class NBoardServer:
    """One NBoard session over an engine: feed it lines with :meth:`handle` (or :meth:`run`).

    Args:
        engine: the engine that searches (anything with :class:`SearchEngine`'s methods).
        out: where replies go, one line each, flushed at once.
        err: where problems with the input are reported (stderr by default).
        name: the name sent with ``set myname``.
        clock: seconds as a float; reported times are differences of it (tests pass a fixed
            clock so that transcripts are exact).
        status_interval: least seconds between two progress ``status`` lines of one search.
        size: board size of the games this session plays.
        transcript: if given, every line in (``> ``) and out (``< ``) is copied there, in the
            format of the transcript tests.
    """

    def __init__(
        self,
        engine: SearchEngine,
        out: TextIO,
        *,
        err: TextIO | None = None,
        name: str = NAME,
        clock: Callable[[], float] = time.perf_counter,
        status_interval: float = 1.0,
        size: int = 8,
        transcript: TextIO | None = None,
    ) -> None:
        self.engine = engine
        self.out = out
        self.err = err if err is not None else sys.stderr
        self.name = name
        self.clock = clock
        self.status_interval = status_interval
        self.transcript = transcript
        self.size = size
        self.board = Board(size=size)
        self.depth: int | None = None
        """The level from ``set depth``; None: the engine's own level decides."""
        self.contempt = 0.0
        self._out_lock = threading.Lock()
        self._worker: threading.Thread | None = None
        self._commands: dict[str, Callable[[str], None]] = {
            "nboard": self._cmd_nboard,
            "set": self._cmd_set,
            "move": self._cmd_move,
            "hint": self._cmd_hint,
            "go": self._cmd_go,
            "learn": self._cmd_learn,
        }

    # --- input ------------------------------------------------------------------------------

    def run(self, lines: Iterable[str]) -> int:
        """Handle lines until ``quit`` or the end of input; returns the exit status (0).

        At the end of input a running search is finished, not stopped, so that
        ``printf 'nboard 2\\nset depth 10\\ngo\\n' | bitflip nboard`` gives its real answer.
        """
        for line in lines:
            if not self.handle(line):
                return 0
        self.wait()
        return 0

    def handle(self, line: str) -> bool:
        """Handle one input line; False after ``quit`` (the session is over)."""
        text = line.strip()
        if self.transcript is not None and text:
            self._copy("> " + text)
        if not text:
            return True
        cmd, _, arg = text.partition(" ")
        cmd, arg = cmd.lower(), arg.strip()
        if cmd in ("quit", "exit"):
            self.close()
            return False
        if cmd == "ping":
            self.stop()
            self.send(f"pong {arg}".rstrip())
            return True
        if cmd == "stop":  # not NBoard's, but handy by hand: end the search, keep its answer
            self.stop()
            return True
        if not (cmd == "set" and arg.split(" ")[0].lower() in _SETTINGS):
            # GUIs send 'move' or 'set game' while the engine thinks: the position changed, so
            # the search stops (its answer still goes out first) and nothing waits behind it.
            self.stop()
        handler = self._commands.get(cmd)
        try:
            if handler is not None:
                handler(arg)
            elif len(cmd) == 2 and not arg:  # NBoard 1.1 sends a bare "F5" for "move F5"
                self._cmd_move(cmd)
            else:
                self.warn(f"unknown command {text!r}: ignored")
        except ValueError as exc:
            self.warn(f"{exc} (line {text!r}): ignored")
        except Exception as exc:  # a bug of ours must not end the GUI's session
            self.warn(f"internal error {exc!r} (line {text!r}): ignored")
        return True

    # --- threads ----------------------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def wait(self) -> None:
        """Block until the running search (if any) has answered."""
        if self._worker is not None:
            self._worker.join()
            self._worker = None

    def stop(self) -> None:
        """Stop the running search (it still sends its answer) and wait for it."""
        worker = self._worker
        while worker is not None and worker.is_alive():
            # Repeat: a stop that lands before the engine started searching would be lost.
            self.engine.stop()
            worker.join(0.02)
        self._worker = None

    def close(self) -> None:
        self.stop()

    def _start(self, target: Callable[[], None]) -> None:
        self._worker = threading.Thread(target=target, name="nboard-search", daemon=True)
        self._worker.start()

    # --- output -----------------------------------------------------------------------------

    def send(self, line: str) -> None:
        """Write one reply line and flush it."""
        with self._out_lock:
            self.out.write(line + "\n")
            self.out.flush()
            if self.transcript is not None:
                self._copy("< " + line)

    def warn(self, message: str) -> None:
        """Report a problem with the input on stderr (never on the protocol stream)."""
        print(f"{self.name} nboard: {message}", file=self.err, flush=True)

    def _copy(self, line: str) -> None:
        assert self.transcript is not None
        self.transcript.write(line + "\n")
        self.transcript.flush()

    # --- commands ---------------------------------------------------------------------------

    def _cmd_nboard(self, arg: str) -> None:
        if arg not in PROTOCOL_VERSIONS:
            self.warn(f"expected 'nboard 1' or 'nboard 2', got 'nboard {arg}': going on")
        self.send(f"set myname {self.name}")

    def _cmd_set(self, arg: str) -> None:
        what, _, value = arg.partition(" ")
        what, value = what.lower(), value.strip()
        if what == "depth":
            depth = _parse_int(value, "depth")
            if not MIN_LEVEL <= depth <= MAX_EXTENDED_LEVEL:
                raise ValueError(
                    f"depth must be from {MIN_LEVEL} to {MAX_EXTENDED_LEVEL}, not {depth}"
                )
            self.depth = depth
        elif what == "game":
            self.board = board_from_ggf(value, self.size)
        elif what == "contempt":
            try:
                contempt = float(value)
            except ValueError:
                raise ValueError(f"contempt must be a number, not {value!r}") from None
            if not abs(contempt) <= MAX_CONTEMPT:  # also refuses nan
                raise ValueError(
                    f"contempt must be from {-MAX_CONTEMPT} to {MAX_CONTEMPT} centidiscs, "
                    f"not {value}"
                )
            self.contempt = contempt
            self.engine.contempt = round(contempt)
        else:
            self.warn(f"unknown option 'set {what}': ignored")

    def _cmd_move(self, arg: str) -> None:
        text = arg.split()[0] if arg.split() else ""
        square = text.split("/")[0]
        if not square:
            raise ValueError("'move' needs a move such as f5")
        try:
            self.board.push(square)
        except (IllegalMoveError, InvalidMoveError) as exc:
            raise ValueError(str(exc)) from None

    def _cmd_learn(self, arg: str) -> None:
        self.send("learned")

    def _cmd_go(self, arg: str) -> None:
        board = self.board.copy()
        if board.is_game_over():
            raise ValueError("'go' in a finished game")
        limit = self.limit()
        self.engine.set_position(board)
        self._start(lambda: self._go(board, limit))

    def _cmd_hint(self, arg: str) -> None:
        n = _parse_int(arg, "number of moves") if arg else 1
        if n < 1:
            raise ValueError(f"hint needs a number of moves >= 1, not {n}")
        board = self.board.copy()
        if board.is_game_over():
            raise ValueError("'hint' in a finished game")
        limit = self.limit()
        self.engine.set_position(board)
        self._start(lambda: self._hint(board, n, limit))

    def limit(self) -> Limit | None:
        """The search limit of ``set depth N``: engine level N, as GUIs expect of Edax."""
        if self.depth is None:
            return None
        return Limit(level=self.depth)

    # --- searches (in the worker thread) ----------------------------------------------------

    def _go(self, board: Board, limit: Limit | None) -> None:
        t0 = self.clock()
        self.send(f"status {self.name} is thinking")
        progress = _Progress(self, board, t0)
        try:
            result = self.engine.go(limit, on_info=progress)
        except Exception as exc:  # a crashed search must not kill the session
            # The GUI (or referee) waits for "===": answer with a move chosen without the
            # search rather than leave the game hanging.
            fallback = move_text(fallback_move(board), board)
            self.warn(f"search failed: {exc!r}; played {fallback} without a search")
            self.send(f"status {self.name} failed: {exc}")
            self.send(f"=== {fallback}/0.00/{self.clock() - t0:.1f}")
            return
        seconds = self.clock() - t0
        self.send(f"nodestats {result.nodes} {seconds:.2f}")
        move = move_text(result.move, board)
        self.send(f"=== {move}/{result.score:.2f}/{seconds:.1f}")
        self.send(f"status {self.name} is waiting")

    def _hint(self, board: Board, n: int, limit: Limit | None) -> None:
        t0 = self.clock()
        self.send(f"status {self.name} is thinking")
        progress = _Progress(self, board, t0)
        try:
            scores = self.engine.hint(n, limit, on_info=progress)
        except Exception as exc:
            self.warn(f"search failed: {exc!r}")
            self.send(f"status {self.name} failed: {exc}")
            return
        empties = board.empties
        for s in scores:
            depth = empties if s.exact else s.depth  # an exact score: solved to the end
            self.send(f"search {move_text(s.move, board)} {s.score:.2f} 0 {depth}")
        self.send(f"nodestats {progress.total} {self.clock() - t0:.2f}")
        self.send(f"status {self.name} is waiting")


class _Progress:
    """The ``on_info`` callback: counts nodes and sends throttled progress lines."""

    def __init__(self, server: NBoardServer, board: Board, t0: float) -> None:
        self.server, self.board, self.t0 = server, board, t0
        self.last_sent = t0
        self.nodes = 0
        self._run_nodes = 0

    def __call__(self, info: SearchInfo) -> None:
        # Node counts grow within one search; a count that does not grow starts the next one.
        if info.nodes <= self._run_nodes:
            self.nodes += self._run_nodes
        self._run_nodes = info.nodes
        now = self.server.clock()
        if now - self.last_sent < self.server.status_interval:
            return
        self.last_sent = now
        pv = "".join(move_text(m, self.board) for m in info.pv[:6])
        kind = "exact" if info.exact else f"depth {info.depth}"
        self.server.send(f"nodestats {self.total} {now - self.t0:.2f}")
        self.server.send(f"status {kind} {info.score:+.2f} {pv}")

    @property
    def total(self) -> int:
        return self.nodes + self._run_nodes


def _parse_int(text: str, what: str) -> int:
    try:
        return int(text.split()[0])
    except (ValueError, IndexError):
        raise ValueError(f"{what} must be a whole number, not {text!r}") from None

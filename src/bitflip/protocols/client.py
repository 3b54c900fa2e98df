"""Drive an external NBoard engine (Edax, Ntest, ``bitflip nboard``) from Python.

Modelled on python-chess's ``chess.engine``: start the engine with :meth:`NBoardEngine.popen`,
ask with :meth:`~NBoardEngine.play` and :meth:`~NBoardEngine.hint`, get our own result types
back (:class:`~bitflip.search.limits.SearchResult`, :class:`~bitflip.search.limits.MoveScore`)::

    with NBoardEngine.popen("edax -nboard") as engine:        # any NBoard engine's command
        result = engine.play(board, Limit(depth=10))
        board.push(result.move)

Every wait has a deadline: an engine that exits raises :class:`EngineTerminatedError`, one that
stops answering raises :class:`EngineTimeoutError`, one that answers nonsense (an illegal move)
raises :class:`EngineProtocolError`; each message names the engine's command, what we were
waiting for and its last lines on stderr. Lines the client does not need (``status``,
``nodestats``, ``set myname``, unknown ones) are read and never trip it. Before each search the
client sends ``ping``/``pong`` so that a late answer to an earlier question is never taken for
the current one. One object talks to one process and is not thread-safe.

The agent spec ``nboard:cmd=COMMAND,depth=N,timeout=S`` lets such an engine play in
tournaments (``cmd`` takes the rest of the spec, spaces and commas included, except a trailing
``depth=``/``timeout=``).
"""

from __future__ import annotations

import contextlib
import os
import queue
import shlex
import subprocess
import threading
import time
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, Any

from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.formats.ggf import dump_game
from bitflip.formats.record import GameRecord
from bitflip.search.limits import Limit, MoveScore, SearchResult

DEFAULT_DEPTH = 8
DEFAULT_TIMEOUT = 60.0
"""Seconds to wait for one answer (a move, a hint, a pong) before giving up."""
STARTUP_TIMEOUT = 60.0
"""Seconds an engine may take to start (Edax loads its evaluation and book)."""


class EngineError(RuntimeError):
    """Something went wrong with an external engine."""


class EngineTerminatedError(EngineError):
    """The engine process exited (or could not be started)."""


class EngineTimeoutError(EngineError, TimeoutError):
    """The engine gave no answer in time."""


class EngineProtocolError(EngineError):
    """The engine answered something impossible (an illegal move, an unreadable reply)."""


def game_ggf(board: Board, *, black: str = "", white: str = "") -> str:
    """The game that led to ``board`` as one line of GGF, as NBoard sends it with ``set game``.

    The start position is ``board`` with its move stack taken back; passes are written ``PA``.
    """
    start = board.copy()
    while start.ply:
        start.pop()
    standard = start == Board(size=board.size)
    record = GameRecord(
        moves=board.move_stack,
        size=board.size,
        start=None if standard else start.obf(),
        black=black,
        white=white,
        event="bitflip",
    )
    return dump_game(record)


class NBoardEngine:
    """A running NBoard engine process. Build it with :meth:`popen`; use it as a context manager.

    Attributes:
        name: what the engine called itself with ``set myname`` (its command until then).
        command: the command line that started it.
        status: the engine's last ``status`` text.
    """

    def __init__(
        self,
        process: subprocess.Popen[str],
        command: Sequence[str],
        *,
        depth: int = DEFAULT_DEPTH,
        timeout: float = DEFAULT_TIMEOUT,
    ) -> None:
        self.process = process
        self.command = list(command)
        self.name = shlex.join(self.command)
        self.status = ""
        self.depth = depth
        self.timeout = timeout
        self._sent_depth: int | None = None
        self._ping = 0
        self._nodes = 0
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=20)
        self._last_out: deque[str] = deque(maxlen=5)
        self._closed = False
        self._budget = timeout
        assert process.stdout is not None and process.stderr is not None
        threading.Thread(
            target=_pump, args=(process.stdout, self._lines.put, True), daemon=True
        ).start()
        self._stderr_thread = threading.Thread(
            target=_pump, args=(process.stderr, self._stderr.append, False), daemon=True
        )
        self._stderr_thread.start()
        self._finalizer = weakref.finalize(self, _kill, process)

    @classmethod
    def popen(
        cls,
        command: str | Sequence[str],
        *,
        depth: int = DEFAULT_DEPTH,
        timeout: float = DEFAULT_TIMEOUT,
        startup_timeout: float = STARTUP_TIMEOUT,
        protocol_version: int = 2,
        env: dict[str, str] | None = None,
        cwd: str | os.PathLike[str] | None = None,
    ) -> NBoardEngine:
        """Start an engine (a command line string or an argument list) and say ``nboard``.

        Returns once the engine has answered a ``ping``, so that it is ready to search.
        """
        args = shlex.split(command) if isinstance(command, str) else list(command)
        if not args:
            raise ValueError("empty NBoard engine command")
        try:
            process = subprocess.Popen(
                args,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                bufsize=1,
                env=env,
                cwd=cwd,
            )
        except OSError as exc:
            raise EngineTerminatedError(
                f"cannot start NBoard engine {shlex.join(args)!r}: {exc}"
            ) from None
        engine = cls(process, args, depth=depth, timeout=timeout)
        try:
            engine._send(f"nboard {protocol_version}")
            engine._send_depth(depth)
            engine.ping(timeout=startup_timeout)
        except BaseException:
            engine.close()
            raise
        return engine

    # --- context manager ---------------------------------------------------------------------

    def __enter__(self) -> NBoardEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.quit()

    # --- commands ----------------------------------------------------------------------------

    def ping(self, *, timeout: float | None = None) -> None:
        """Send ``ping`` and read up to its ``pong``: every earlier answer is read and dropped."""
        self._ping += 1
        expect = f"pong {self._ping}"
        self._send(f"ping {self._ping}")
        deadline = self._deadline(timeout)
        while self._readline(deadline, f"'{expect}'") != expect:
            pass

    def set_position(self, board: Board) -> None:
        """Send the game that led to ``board`` (``set game``); the next searches start there."""
        self.ping()
        self._send("set game " + game_ggf(board))

    def play(
        self, board: Board, limit: Limit | None = None, *, timeout: float | None = None
    ) -> SearchResult:
        """The engine's move in ``board`` (``go``); the board is not changed.

        Args:
            board: the position, with the moves that led to it on its stack.
            limit: only ``depth`` is understood by NBoard engines (None: :attr:`depth`).
            timeout: seconds to wait for the move (None: :attr:`timeout`).

        A forced pass is answered without asking the engine (score 0, depth 0).
        """
        if board.is_game_over():
            raise ValueError(f"the game is over, there is no move to play (position {board.obf()})")
        if list(board.legal_moves) == [PASS]:
            return SearchResult(move=PASS, score=0.0, pv=[PASS])
        depth = self._depth_of(limit)
        self._send_depth(depth)
        self.set_position(board)
        self._nodes = 0
        t0 = time.monotonic()
        self._send("go")
        deadline = self._deadline(timeout)
        pv: list[Move] = []
        while True:
            line = self._readline(deadline, "a move ('=== ...') after 'go'")
            if line.startswith("=== "):
                break
            if line.startswith(("search ", "book ")):
                parsed = self._parse_search(line, board)
                if parsed is not None:
                    pv = parsed[1]
        elapsed = time.monotonic() - t0
        move, score, seconds = self._parse_answer(line, board)
        if not pv or pv[0] != move:
            pv = [move]
        empties = board.empties
        return SearchResult(
            move=move,
            score=score if score is not None else 0.0,
            pv=pv,
            depth=min(depth, empties),
            nodes=self._nodes,
            time=seconds if seconds is not None else elapsed,
            exact=depth >= empties,
        )

    def hint(
        self,
        board: Board,
        n: int = 1,
        limit: Limit | None = None,
        *,
        timeout: float | None = None,
    ) -> list[MoveScore]:
        """Scores of the engine's ``n`` best moves in ``board``, best first (``hint n``).

        The engine's last ``search`` (or ``book``) line for each move counts; the answer ends
        at the first ``status`` line after them, as Edax, Ntest and bitflip send it.
        """
        if n < 1:
            raise ValueError(f"hint needs n >= 1, not {n}")
        if board.is_game_over():
            raise ValueError(f"the game is over, there is nothing to hint (position {board.obf()})")
        depth = self._depth_of(limit)
        self._send_depth(depth)
        self.set_position(board)
        self._send(f"hint {n}")
        deadline = self._deadline(timeout)
        empties = board.empties
        exact = depth >= empties
        scores: dict[Move, MoveScore] = {}
        while True:
            line = self._readline(deadline, f"the end ('status') of its answer to 'hint {n}'")
            if line.startswith(("search ", "book ")):
                parsed = self._parse_search(line, board)
                if parsed is not None:
                    score, pv, d = parsed
                    scores[pv[0]] = MoveScore(pv[0], score, d, exact and d >= empties)
            elif (line == "status" or line.startswith("status ")) and scores:
                break
        ranked = sorted(scores.values(), key=lambda s: -s.score)
        return ranked[:n]

    def quit(self) -> None:
        """Send ``quit`` and wait a moment for the process to end (killing it if it does not)."""
        if self._closed:
            return
        if self.process.poll() is None:
            with contextlib.suppress(EngineError):
                self._send("quit")
        self.close()

    def close(self, wait: float = 2.0) -> None:
        """End the process (if it still runs) and release its pipes."""
        self._closed = True
        with contextlib.suppress(OSError):
            if self.process.stdin is not None:
                self.process.stdin.close()
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._finalizer.detach()

    # --- plumbing ----------------------------------------------------------------------------

    def _depth_of(self, limit: Limit | None) -> int:
        if limit is None:
            return self.depth
        if limit.nodes is not None or limit.time is not None or limit.clocks is not None:
            raise ValueError(
                "NBoard engines are limited by depth only (set depth N); "
                f"Limit(nodes=, time=, clocks=) cannot be sent: {limit}"
            )
        if limit.depth is None:
            return self.depth
        if limit.depth < 1:
            raise ValueError(f"depth must be at least 1, not {limit.depth}")
        return limit.depth

    def _deadline(self, timeout: float | None) -> float:
        self._budget = self.timeout if timeout is None else timeout
        return time.monotonic() + self._budget

    def _send_depth(self, depth: int) -> None:
        if depth != self._sent_depth:
            self._send(f"set depth {depth}")
            self._sent_depth = depth

    def _send(self, line: str) -> None:
        if self._closed:
            raise EngineError(f"NBoard engine {self.name!r} was closed")
        stdin = self.process.stdin
        assert stdin is not None
        if self.process.poll() is not None:
            raise self._terminated(f"sending {line!r}")
        try:
            stdin.write(line + "\n")
            stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._terminated(f"sending {line!r}") from None

    def _readline(self, deadline: float, waiting_for: str) -> str:
        """The next line from the engine; side lines (status, nodestats, myname) are noted."""
        remaining = deadline - time.monotonic()
        try:
            line = self._lines.get(timeout=max(remaining, 0.0))
        except queue.Empty:
            last = f"; its last output: {list(self._last_out)}" if self._last_out else ""
            raise EngineTimeoutError(
                f"NBoard engine {self.name!r} did not send {waiting_for} within "
                f"{self._budget:g} s{last}{self._stderr_tail()}"
            ) from None
        if line is None:
            self._lines.put(None)  # stay at end of file for later reads
            raise self._terminated(f"waiting for {waiting_for}")
        line = line.strip()
        self._last_out.append(line)
        if line.startswith("set myname "):
            self.name = line[len("set myname ") :].strip() or self.name
        elif line == "status" or line.startswith("status "):
            self.status = line[len("status ") :].strip()
        elif line.startswith("nodestats "):
            fields = line.split()
            with contextlib.suppress(ValueError, IndexError):
                self._nodes = int(float(fields[1]))
        return line

    def _terminated(self, doing: str) -> EngineTerminatedError:
        try:
            rc: int | None = self.process.wait(1.0)
        except subprocess.TimeoutExpired:
            rc = None
        self._stderr_thread.join(1.0)  # its last words, if it is gone
        status = f"exited with status {rc}" if rc is not None else "closed its output"
        return EngineTerminatedError(
            f"NBoard engine {self.name!r} {status} while {doing}{self._stderr_tail()}"
        )

    def _stderr_tail(self) -> str:
        lines = [s.rstrip() for s in self._stderr if s.strip()]
        return f"; its last stderr lines: {' | '.join(lines[-5:])}" if lines else ""

    def _parse_move(self, text: str, board: Board, line: str) -> Move:
        try:
            move = board.geometry.parse_square(text[:2])
        except ValueError:
            raise EngineProtocolError(
                f"NBoard engine {self.name!r} sent an unreadable move in {line!r}"
            ) from None
        return move

    def _parse_answer(self, line: str, board: Board) -> tuple[Move, float | None, float | None]:
        """``=== f5``, ``=== f5/1.00/2.3`` (the protocol) or ``=== f5 1.00 2.3`` (Edax 4.4)."""
        fields = line[4:].replace("/", " ").split()
        if not fields:
            raise EngineProtocolError(f"NBoard engine {self.name!r} sent an empty move {line!r}")
        move = self._parse_move(fields[0], board, line)
        if move not in board.legal_moves:
            raise EngineProtocolError(
                f"NBoard engine {self.name!r} played the illegal move {fields[0]!r} "
                f"in position {board.obf()} (line {line!r})"
            )
        numbers: list[float | None] = []
        for f in fields[1:3]:
            try:
                numbers.append(float(f))
            except ValueError:
                numbers.append(None)
        numbers += [None] * (2 - len(numbers))
        return move, numbers[0], numbers[1]

    def _parse_search(self, line: str, board: Board) -> tuple[float, list[Move], int] | None:
        """(score, pv, depth) of ``search <pv> <eval> 0 <depth> ...``; None if unreadable."""
        fields = line.split()
        try:
            pv_text, eval_text = fields[1], fields[2]
            score = float(eval_text.strip("()").split(",")[0])
            depth_text = fields[4] if len(fields) > 4 else "0"
            digits = "".join(c for c in depth_text.split("@")[0] if c.isdigit())
            depth = int(digits) if digits else 0
            pv = _parse_pv(pv_text, board)
        except (IndexError, ValueError):
            return None
        if not pv or pv[0] not in board.legal_moves:
            return None
        return score, pv, depth


def _parse_pv(text: str, board: Board) -> list[Move]:
    """``F5d6C3``, ``F5-D6-C3`` or ``f5:d6`` as moves (letters and digits in pairs)."""
    clean = "".join(c for c in text if c.isalnum())
    return [board.geometry.parse_square(clean[i : i + 2]) for i in range(0, len(clean) - 1, 2)]


def _pump(stream: IO[str], put: Any, eof: bool) -> None:
    """Copy lines from a pipe until it closes; then put None if ``eof`` (end of file)."""
    try:
        for line in stream:
            put(line)
    except (OSError, ValueError):
        pass
    if eof:
        put(None)


def _kill(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(1.0)

"""Misbehaving agents for the arena tests (registered by the tests that use them).

Each plays its first move of a game normally (so the untimed warm-up passes) and misbehaves
from its second move on.
"""

from __future__ import annotations

import os
import time

from bitflip.agents import RandomAgent
from bitflip.core.board import Board, Move


class _Misbehaving(RandomAgent):
    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.calls = 0

    def new_game(self) -> None:
        self.calls = 0

    def select_move(self, board: Board) -> Move:
        self.calls += 1
        if self.calls >= 2:
            return self.misbehave(board)
        return super().select_move(board)

    def misbehave(self, board: Board) -> Move:
        raise NotImplementedError


class CrashAgent(_Misbehaving):
    def misbehave(self, board: Board) -> Move:
        raise RuntimeError("deliberate crash")


class HangAgent(_Misbehaving):
    def misbehave(self, board: Board) -> Move:
        time.sleep(3600)
        return 0


class SlowAgent(_Misbehaving):
    """Sleeps ``delay`` seconds before its moves (over the limit but within the grace)."""

    def __init__(self, delay: float = 0.3, seed: int | None = None) -> None:
        super().__init__(seed)
        self.delay = delay

    def misbehave(self, board: Board) -> Move:
        time.sleep(self.delay)
        return RandomAgent.select_move(self, board)


class IllegalAgent(_Misbehaving):
    def misbehave(self, board: Board) -> Move:
        return 27  # d4: occupied from the start


class ExitAgent(_Misbehaving):
    def misbehave(self, board: Board) -> Move:
        os._exit(7)


class WeightedAgent(RandomAgent):
    """A random agent that reports a version and a weights hash, as network agents do."""

    version = "test-1"
    weights_hash = "abc123"


class ClosingAgent(RandomAgent):
    """Counts calls to ``close()`` (external engines release their process there)."""

    closed = 0

    def close(self) -> None:
        ClosingAgent.closed += 1


class SpawnHangAgent(_Misbehaving):
    """Starts a child process (as an external engine would), writes its pid, then hangs."""

    def __init__(self, pidfile: str = "", seed: int | None = None) -> None:
        super().__init__(seed)
        self.pidfile = pidfile

    def misbehave(self, board: Board) -> Move:
        import subprocess

        child = subprocess.Popen(["sleep", "300"])
        with open(self.pidfile, "w") as f:
            f.write(str(child.pid))
        time.sleep(3600)
        return 0


class WarmupHangAgent(RandomAgent):
    """Hangs in every move, its untimed warm-up move included (a build that never ends)."""

    def select_move(self, board: Board) -> Move:
        time.sleep(3600)
        return 0

"""An external NBoard engine as an agent (spec ``nboard:cmd=COMMAND[,depth=N][,timeout=S]``),
for tournaments and the web app; the protocol is
:class:`~bitflip.protocols.client.NBoardEngine`.
"""

from __future__ import annotations

import re

from bitflip.agents import AgentSpecError
from bitflip.core.board import Board, Move
from bitflip.protocols.client import DEFAULT_DEPTH, DEFAULT_TIMEOUT, NBoardEngine
from bitflip.search.limits import Limit

_TRAILING = re.compile(r",\s*(depth|timeout)=([^,]*)$")


def _split_trailing_params(cmd: str) -> tuple[str, dict[str, str]]:
    """``"edax -nboard,depth=8"`` -> ``("edax -nboard", {"depth": "8"})``.

    The spec parser gives ``cmd=`` the rest of the spec, so ``nboard:cmd=X,depth=8`` arrives
    with the depth inside the command; it is taken back out here (for depth and timeout).
    """
    found: dict[str, str] = {}
    while (m := _TRAILING.search(cmd)) is not None and m.group(1) not in found:
        found[m.group(1)] = m.group(2).strip()
        cmd = cmd[: m.start()]
    return cmd, found


class NBoardAgent:
    """An external NBoard engine as an :class:`~bitflip.agents.Agent` (spec ``nboard:...``).

    Args:
        cmd: the engine's command line, e.g. ``"edax -nboard"``. In a spec it takes the rest
            of the spec, commas included, except a trailing ``,depth=N`` or ``,timeout=S``.
        depth: ``set depth`` for every move.
        timeout: seconds to wait for each move.
        seed: accepted for the registry's sake; the external engine has its own randomness.

    The process starts at the first move and ends with :meth:`close` (or when the agent is
    garbage collected).
    """

    name = ""

    def __init__(
        self,
        cmd: str,
        depth: int = DEFAULT_DEPTH,
        timeout: float = DEFAULT_TIMEOUT,
        seed: int | None = None,
    ) -> None:
        if not isinstance(cmd, str) or not cmd.strip():
            raise AgentSpecError("the nboard agent needs cmd=COMMAND (last in the spec)")
        if isinstance(cmd, str):
            cmd, trailing = _split_trailing_params(cmd)
            try:
                depth = int(trailing.get("depth", depth))
                timeout = float(trailing.get("timeout", timeout))
            except ValueError:
                raise AgentSpecError(
                    f"nboard depth must be a whole number and timeout a number: {trailing}"
                ) from None
        if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
            raise AgentSpecError(f"nboard depth must be a whole number >= 1, not {depth!r}")
        self.cmd = cmd
        self.depth = depth
        self.timeout = float(timeout)
        self.seed = seed
        self._engine: NBoardEngine | None = None

    @property
    def engine(self) -> NBoardEngine:
        """The running engine, started on first use."""
        if self._engine is None:
            self._engine = NBoardEngine.popen(self.cmd, depth=self.depth, timeout=self.timeout)
        return self._engine

    def new_game(self) -> None:
        """Nothing to forget: each move sends the whole game."""

    def select_move(self, board: Board) -> Move:
        return self.engine.play(board, Limit(depth=self.depth)).move

    def close(self) -> None:
        if self._engine is not None:
            self._engine.quit()
            self._engine = None

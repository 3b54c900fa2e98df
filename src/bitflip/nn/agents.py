"""Agents driven by networks: ``policy:net=FILE`` (1 ply) and ``value:net=FILE,depth=N``.

``net`` is a model file, or ``builtin`` for the network shipped in ``bitflip/data``.
Both agents run on the CPU unless ``device=cuda`` is given.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from bitflip.agents import AgentSpecError
from bitflip.core import bitboard as bb
from bitflip.core.arrays import successors_list
from bitflip.core.board import Board, Move
from bitflip.core.geometry import PASS
from bitflip.nn.alphazero import AZNetConfig
from bitflip.nn.checkpoint import LoadedModel, load_model
from bitflip.nn.encode import bit_batch, encode, legal_mask
from bitflip.nn.models import PolicyNet, ValueNet, masked_log_softmax
from bitflip.nn.threads import forward_macs, threads_for_batch, torch_threads

DATA_DIR = Path(__file__).resolve().parent.parent / "data"


def shipped_net(kind: str) -> Path:
    """The network file of ``kind`` ('policy' or 'value') shipped in the package."""
    found = sorted(DATA_DIR.glob(f"{kind}-*.pt"))
    if not found:
        raise FileNotFoundError(f"no shipped {kind} network in {DATA_DIR}")
    return found[-1]


def shipped_az_net(size: int) -> Path:
    """The AlphaZero net shipped in the package for ``size`` x ``size`` boards."""
    for path in sorted(DATA_DIR.glob("az-*.pt")):
        config = load_model(path).config
        if isinstance(config, AZNetConfig) and config.size == size:
            return path
    raise FileNotFoundError(f"no shipped AlphaZero net for {size}x{size} in {DATA_DIR}")


def _load(net: str, kind: str, device: str) -> LoadedModel:
    path = shipped_net(kind) if str(net) == "builtin" else Path(str(net))
    loaded = load_model(path, device)
    if loaded.config.kind != kind:
        raise ValueError(f"{path} is a {loaded.config.kind} network, not a {kind} network")
    return loaded


class PolicyAgent:
    """Plays the policy network's most probable legal move (or samples at a temperature)."""

    def __init__(
        self,
        net: str = "builtin",
        temperature: float = 0.0,
        seed: int | None = None,
        device: str = "cpu",
    ) -> None:
        if float(temperature) < 0:
            raise AgentSpecError(f"temperature must be >= 0, not {temperature}")
        self.loaded = _load(net, "policy", device)
        assert isinstance(self.loaded.model, PolicyNet)
        self.model: PolicyNet = self.loaded.model
        self.temperature = float(temperature)
        self.device = device
        self._macs = forward_macs(self.model, 8)  # sizes a call's torch threads
        self.rng = np.random.default_rng(seed)
        self.name = f"policy:net={net}" + (f",temperature={temperature}" if temperature else "")

    def new_game(self) -> None:
        pass

    @torch.no_grad()
    def move_probabilities(self, board: Board) -> np.ndarray:
        """Probabilities (64,) over the squares, zero off the legal moves."""
        batch = bit_batch(*_sides(board)).to(self.device)
        with torch_threads(threads_for_batch(1, self._macs, self.device)):
            logits = self.model(encode(batch, self.model.config.features))
        logp = masked_log_softmax(logits, legal_mask(batch))
        return np.asarray(logp.exp()[0].float().cpu().numpy(), dtype=np.float64)

    def select_move(self, board: Board) -> Move:
        if _must_pass(board, "policy"):
            return PASS
        moves = list(board.legal_moves)
        probs = self.move_probabilities(board)
        if self.temperature == 0:
            return int(max(moves, key=lambda m: probs[m]))
        weights = np.array([probs[m] for m in moves]) ** (1.0 / self.temperature)
        weights /= weights.sum()
        return int(moves[int(self.rng.choice(len(moves), p=weights))])


def _sides(board: Board) -> tuple[np.ndarray, np.ndarray]:
    p, o = board.side_bitboards()
    return np.array([p], dtype=np.uint64), np.array([o], dtype=np.uint64)


def _must_pass(board: Board, kind: str) -> bool:
    """Whether passing is the only move (the networks read 8x8 boards only)."""
    if board.size != 8:
        raise ValueError(f"{kind} networks play 8x8 boards only")
    return list(board.legal_moves) == [PASS]


_WIN = 10.0
_DISC_TIEBREAK = 0.1


class ValueAgent:
    """Alpha-beta to ``depth`` plies with the value network at the leaves (HKU report).

    The last ply is evaluated as one batch per node; a leaf scores expected result plus a
    tenth of the predicted disc difference / 64, and finished games score exactly.
    """

    def __init__(
        self, net: str = "builtin", depth: int = 1, seed: int | None = None, device: str = "cpu"
    ) -> None:
        if not isinstance(depth, int) or depth < 1:
            raise AgentSpecError(f"value agent depth must be a whole number >= 1, not {depth!r}")
        self.loaded = _load(net, "value", device)
        assert isinstance(self.loaded.model, ValueNet)
        self.model: ValueNet = self.loaded.model
        self.depth = depth
        self.device = device
        self._macs = forward_macs(self.model, 8)  # sizes a call's torch threads
        self.rng = np.random.default_rng(seed)
        self.nodes = 0
        self.name = f"value:net={net},depth={depth}"

    def new_game(self) -> None:
        pass

    @torch.no_grad()
    def evaluate(self, players: list[np.uint64], opponents: list[np.uint64]) -> np.ndarray:
        """Leaf scores of positions, each from its own side to move's view."""
        batch = bit_batch(
            np.array(players, dtype=np.uint64), np.array(opponents, dtype=np.uint64)
        ).to(self.device)
        with torch_threads(threads_for_batch(len(players), self._macs, self.device)):
            out = self.model(encode(batch, self.model.config.features)).float().cpu().numpy()
        self.nodes += len(players)
        return np.asarray(out[:, 0] + _DISC_TIEBREAK * out[:, 1], dtype=np.float64)

    @staticmethod
    def _final(p: np.uint64, o: np.uint64) -> float:
        diff = int(bb.popcount(p)) - int(bb.popcount(o))
        return float(np.sign(diff)) * _WIN + diff / 64.0

    def _children(self, p: np.uint64, o: np.uint64) -> list[tuple[int, np.uint64, np.uint64]]:
        children = successors_list(int(p), int(o), int(bb.FULL))
        return [(sq, np.uint64(cp), np.uint64(co)) for sq, cp, co, _ in children]

    def _search(self, p: np.uint64, o: np.uint64, depth: int, alpha: float, beta: float) -> float:
        children = self._children(p, o)
        if not children:
            if int(bb.legal_moves(o, p, bb.FULL)) == 0:
                return self._final(p, o)
            if depth == 0:
                return float(self.evaluate([p], [o])[0])
            return -self._search(o, p, depth - 1, -beta, -alpha)
        if depth == 0:
            return float(self.evaluate([p], [o])[0])
        if depth == 1:
            return max(self._leaf_values(children))
        best = -np.inf
        for _, cp, co in children:
            v = -self._search(cp, co, depth - 1, -beta, -alpha)
            if v > best:
                best = v
                alpha = max(alpha, v)
                if alpha >= beta:
                    break
        return best

    def _leaf_values(self, children: list[tuple[int, np.uint64, np.uint64]]) -> list[float]:
        """Values of the children (after one move) from the mover's view, one batch."""
        values: list[float | None] = [None] * len(children)
        todo = []
        for i, (_, cp, co) in enumerate(children):
            if int(bb.legal_moves(cp, co, bb.FULL)) == 0:
                if int(bb.legal_moves(co, cp, bb.FULL)) == 0:
                    values[i] = -self._final(cp, co)
                else:  # the opponent passes: evaluate from our own view again
                    values[i] = float(self.evaluate([co], [cp])[0])
            else:
                todo.append(i)
        if todo:
            scores = self.evaluate([children[i][1] for i in todo], [children[i][2] for i in todo])
            for i, s in zip(todo, scores, strict=True):
                values[i] = -float(s)
        return [float(v) for v in values if v is not None]

    def select_move(self, board: Board) -> Move:
        if _must_pass(board, "value"):
            return PASS
        p, o = (np.uint64(x) for x in board.side_bitboards())
        children = self._children(p, o)
        if self.depth == 1:
            values = self._leaf_values(children)
        else:
            values, alpha = [], -np.inf
            for _, cp, co in children:
                v = -self._search(cp, co, self.depth - 1, -np.inf, -alpha)
                values.append(v)
                alpha = max(alpha, v)
        best = max(values)
        ties = [sq for (sq, _, _), v in zip(children, values, strict=True) if v >= best - 1e-9]
        return int(ties[int(self.rng.integers(len(ties)))])

"""A torch network behind the :class:`bitflip.search.mcts.PolicyValueFn` protocol.

On the CPU each call runs on the torch threads its batch size earns (:mod:`bitflip.nn.threads`):
one for the small batches of a search, more only for large ones on idle cores, so a network call
is never slower at torch's default thread count than on one thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from bitflip.nn.alphazero import AZNet, action_squares, encode
from bitflip.nn.checkpoint import load_az_model
from bitflip.nn.device import pick_device
from bitflip.nn.threads import forward_macs, threads_for_batch, torch_threads


class NetPolicyValue:
    """Evaluates whole leaf batches with one forward pass (chunked at ``max_batch``).

    ``value_margin`` is how the net's own run valued finished games in its search (``(1 - x) *
    result + x * margin / squares``, ``mcts.value_margin`` in its file's lineage; 0 when not
    recorded): a search with this net does the same (``MCTSConfig.value_margin``).
    """

    def __init__(
        self,
        net: AZNet,
        device: str | torch.device = "cpu",
        max_batch: int = 4096,
        value_margin: float = 0.0,
    ):
        self.net = net.to(device).eval()
        self.value_margin = value_margin
        self.device = torch.device(device)
        self.size = net.config.size
        self.max_batch = max_batch
        self._columns = action_squares(self.size)
        self.calls = 0
        self.positions = 0
        self._macs = forward_macs(self.net, self.size)  # sizes a call's torch threads

    @classmethod
    def from_file(cls, path: str | Path, device: str = "auto") -> NetPolicyValue:
        dev = pick_device(device)
        loaded = load_az_model(path, dev)
        assert isinstance(loaded.model, AZNet)
        return cls(loaded.model, dev, value_margin=trained_value_margin(loaded.lineage))

    @torch.inference_mode()
    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = p.shape[0]
        policy = np.zeros((n, 65), np.float32)
        values = np.zeros(n, np.float32)
        with torch_threads(threads_for_batch(min(n, self.max_batch), self._macs, self.device)):
            self._forward(p, o, policy, values)
        self.calls += 1
        self.positions += n
        return policy, values

    def _forward(
        self, p: np.ndarray, o: np.ndarray, policy: np.ndarray, values: np.ndarray
    ) -> None:
        """Fill ``policy`` and ``values`` chunk by chunk (``max_batch`` positions a pass)."""
        for start in range(0, p.shape[0], self.max_batch):
            sl = slice(start, start + self.max_batch)
            planes, legal = encode(p[sl], o[sl], self.size)
            x = torch.from_numpy(planes).to(self.device, non_blocking=True)
            m = torch.from_numpy(legal).to(self.device, non_blocking=True)
            logits, v = self.net(x, m)
            probs = torch.softmax(logits.float(), dim=1).cpu().numpy()
            policy[sl][:, self._columns] = probs
            values[sl] = v.float().cpu().numpy()


def trained_value_margin(lineage: dict[str, Any]) -> float:
    """``mcts.value_margin`` of the run in a net's lineage: how its self-play valued finished
    games (0, +1 / 0 / -1, when not recorded: the runs before the setting)."""
    config = lineage.get("config")
    mcts = config.get("mcts") if isinstance(config, dict) else None
    x = mcts.get("value_margin", 0.0) if isinstance(mcts, dict) else 0.0
    return float(x) if isinstance(x, int | float) and 0.0 <= x <= 1.0 else 0.0

"""A torch network behind the :class:`bitflip.search.mcts.PolicyValueFn` protocol."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from bitflip.nn.alphazero import AZNet, action_squares, encode
from bitflip.nn.checkpoint import load_az_net
from bitflip.nn.device import pick_device


class NetPolicyValue:
    """Evaluates whole leaf batches with one forward pass (chunked at ``max_batch``)."""

    def __init__(self, net: AZNet, device: str | torch.device = "cpu", max_batch: int = 4096):
        self.net = net.to(device).eval()
        self.device = torch.device(device)
        self.size = net.config.size
        self.max_batch = max_batch
        self._columns = action_squares(self.size)
        self.calls = 0
        self.positions = 0

    @classmethod
    def from_file(cls, path: str | Path, device: str = "auto") -> NetPolicyValue:
        dev = pick_device(device)
        return cls(load_az_net(path, dev), dev)

    @torch.inference_mode()
    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        n = p.shape[0]
        policy = np.zeros((n, 65), np.float32)
        values = np.zeros(n, np.float32)
        for start in range(0, n, self.max_batch):
            sl = slice(start, start + self.max_batch)
            planes, legal = encode(p[sl], o[sl], self.size)
            x = torch.from_numpy(planes).to(self.device, non_blocking=True)
            m = torch.from_numpy(legal).to(self.device, non_blocking=True)
            logits, v = self.net(x, m)
            probs = torch.softmax(logits.float(), dim=1).cpu().numpy()
            policy[sl][:, self._columns] = probs
            values[sl] = v.float().cpu().numpy()
        self.calls += 1
        self.positions += n
        return policy, values

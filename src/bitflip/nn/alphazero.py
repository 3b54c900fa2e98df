"""The AlphaZero network: the report's 4 conv + 2 fully connected net, or a residual tower.

The net reads a ``size x size`` board (8, 6 or 4) as three planes from the side to move's view
(own discs, opponent discs, legal moves) and returns policy logits over ``size * size + 1``
actions (squares in reading order, then pass) and a value in [-1, 1]. Illegal actions are
masked to -inf before any softmax, in training and in play alike.

Nets are stored as model files of :mod:`bitflip.nn.checkpoint` (kind ``az``), named by content
hash: ``az-<12 hex digits>.pt``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from bitflip.core.arrays import legal_moves_many, symmetry_square_table, transform_many
from bitflip.core.geometry import PASS, board_mask


@dataclass(frozen=True)
class AZNetConfig:
    """Shape of an AlphaZero network."""

    kind: ClassVar[str] = "az"
    """The model kind in model files (not a setting)."""
    size: int = 8
    """Board size the net plays (4, 6 or 8)."""
    channels: int = 512
    """Convolution channels (the report: 512)."""
    fc1: int = 1024
    """Width of the first fully connected layer (conv net only)."""
    fc2: int = 512
    """Width of the second fully connected layer (conv net only)."""
    dropout: float = 0.3
    """Dropout after each fully connected layer."""
    residual: bool = False
    """Use a residual tower with convolutional heads instead of the report's net."""
    blocks: int = 6
    """Residual blocks (residual net only)."""
    score_head: bool = False
    """A third head predicting the final disc difference / squares, in [-1, 1] (KataGo's
    auxiliary score target); nets without it (every shipped one) load unchanged."""

    def __post_init__(self) -> None:
        if self.size not in (4, 6, 8):
            raise ValueError(f"board size must be 4, 6 or 8, not {self.size}")
        if not self.residual and self.size < 5:
            raise ValueError("the report's net shrinks the board by 4: use residual=true on 4x4")
        if self.channels < 1 or self.fc1 < 1 or self.fc2 < 1 or self.blocks < 1:
            raise ValueError(f"network widths and depth must be positive: {self}")
        if not 0.0 <= self.dropout < 1.0:
            raise ValueError(f"dropout must be in [0, 1), not {self.dropout}")

    @property
    def actions(self) -> int:
        return self.size * self.size + 1


def action_squares(size: int) -> np.ndarray:
    """``action_squares(size)[a]``: the move (square in 8x8 numbering or PASS) of action a."""
    sq = [8 * (i // size) + (i % size) for i in range(size * size)]
    return np.array([*sq, PASS], dtype=np.int64)


class _ResBlock(nn.Module):
    def __init__(self, ch: int) -> None:
        super().__init__()
        self.c1 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.b1 = nn.BatchNorm2d(ch)
        self.c2 = nn.Conv2d(ch, ch, 3, padding=1, bias=False)
        self.b2 = nn.BatchNorm2d(ch)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(y)))


class AZNet(nn.Module):
    """Policy and value network. ``forward(planes, legal)`` -> (masked logits, value);
    ``forward_score`` adds the score head's output when the net has one."""

    def __init__(self, config: AZNetConfig) -> None:
        super().__init__()
        self.config = config
        c, s = config.channels, config.size
        self.pol_head: nn.Module
        self.val_head: nn.Module
        self.score_out: nn.Module
        if config.residual:
            self.stem = nn.Sequential(
                nn.Conv2d(3, c, 3, padding=1, bias=False), nn.BatchNorm2d(c), nn.ReLU()
            )
            self.tower = nn.Sequential(*[_ResBlock(c) for _ in range(config.blocks)])
            self.pol_head = nn.Sequential(
                nn.Conv2d(c, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(),
                nn.Linear(2 * s * s, config.actions),
            )  # fmt: skip
            self.val_head = nn.Sequential(
                nn.Conv2d(c, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU(), nn.Flatten(),
                nn.Linear(s * s, 64), nn.ReLU(), nn.Linear(64, 1),
            )  # fmt: skip
            if config.score_head:
                self.score_out = nn.Sequential(
                    nn.Conv2d(c, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU(), nn.Flatten(),
                    nn.Linear(s * s, 64), nn.ReLU(), nn.Linear(64, 1),
                )  # fmt: skip
        else:
            layers: list[nn.Module] = []
            for i, pad in enumerate((1, 1, 0, 0)):
                layers += [nn.Conv2d(3 if i == 0 else c, c, 3, padding=pad, bias=False)]
                layers += [nn.BatchNorm2d(c), nn.ReLU()]
            self.stem = nn.Sequential(*layers, nn.Flatten())
            self.tower = nn.Sequential(
                nn.Linear(c * (s - 4) ** 2, config.fc1, bias=False),
                nn.BatchNorm1d(config.fc1), nn.ReLU(), nn.Dropout(config.dropout),
                nn.Linear(config.fc1, config.fc2, bias=False),
                nn.BatchNorm1d(config.fc2), nn.ReLU(), nn.Dropout(config.dropout),
            )  # fmt: skip
            self.pol_head = nn.Linear(config.fc2, config.actions)
            self.val_head = nn.Linear(config.fc2, 1)
            if config.score_head:
                self.score_out = nn.Linear(config.fc2, 1)

    def forward(
        self, planes: torch.Tensor, legal: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """``planes`` (B, 3, S, S), ``legal`` (B, S*S+1) -> logits (-inf if illegal), value."""
        logits, value, _ = self.forward_score(planes, legal)
        return logits, value

    def forward_score(
        self, planes: torch.Tensor, legal: torch.Tensor
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
        """As ``forward``, plus the predicted disc difference / squares (None: no score head)."""
        h = self.tower(self.stem(planes))
        logits = self.pol_head(h).masked_fill(~legal, float("-inf"))
        score = torch.tanh(self.score_out(h)).squeeze(-1) if self.config.score_head else None
        return logits, torch.tanh(self.val_head(h)).squeeze(-1), score


# --- encoding ---------------------------------------------------------------------------------


def encode(p: np.ndarray, o: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Planes (B, 3, S, S) float32 and the legal-action mask (B, S*S+1) of packed positions.

    The pass action is legal exactly when no square is (the search never asks about finished
    games).
    """
    p = np.ascontiguousarray(p, np.uint64)
    o = np.ascontiguousarray(o, np.uint64)
    legal = legal_moves_many(p, o, board_mask(size))
    sq = action_squares(size)[:-1].astype(np.uint64)
    bits = np.stack([p, o, legal], axis=1)[:, :, None] >> sq[None, None, :]
    planes = (bits & np.uint64(1)).astype(np.float32).reshape(-1, 3, size, size)
    mask = np.empty((p.shape[0], size * size + 1), np.bool_)
    mask[:, :-1] = planes[:, 2].reshape(-1, size * size) > 0
    mask[:, -1] = legal == 0
    return planes, mask


def symmetry_action_table(size: int) -> np.ndarray:
    """``table[s, a]``: the action that symmetry s sends action a to (pass stays pass)."""
    sq = action_squares(size)
    index = {int(m): a for a, m in enumerate(sq)}
    squares = symmetry_square_table(size)
    table = np.empty((8, len(sq)), np.int64)
    for s in range(8):
        for a, m in enumerate(sq):
            table[s, a] = a if m == PASS else index[int(squares[s, m])]
    return table


def augment(
    p: np.ndarray, o: np.ndarray, policy: np.ndarray, size: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each position under a random one of the 8 symmetries; its policy (B, S*S+1) follows."""
    syms = np.asarray(rng.integers(0, 8, p.shape[0]), np.int64)
    table = symmetry_action_table(size)
    new_policy = np.zeros_like(policy)
    rows = np.arange(p.shape[0])[:, None]
    new_policy[rows, table[syms]] = policy
    return transform_many(p, syms, size), transform_many(o, syms, size), new_policy

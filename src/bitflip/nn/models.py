"""Value networks (HKU report) and policy networks (Liskowski et al.), built from typed configs.

* :class:`ValueNet`: convolutions (3 of 32 by default, optionally residual) then dense layers
  (4 of 512) with dropout and a max-norm constraint, and two outputs in [-1, 1]: the expected
  result (win +1, loss -1) and the final disc difference divided by 64.
* :class:`PolicyNet`: 3x3 convolutions (conv4: 64/64/128/128, conv6: + 256/256), then either
  flatten + dense or global max pooling + dense to 64 move logits; :func:`masked_log_softmax`
  puts all probability on the legal moves.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

import torch
from torch import nn

from bitflip.nn.encode import resolve_features

DISC_SCALE = 64.0
"""The disc output times this is a disc difference."""


@dataclass(frozen=True)
class ValueNetConfig:
    """Architecture of a value network (HKU report defaults)."""

    features: tuple[str, ...] = field(default_factory=lambda: resolve_features("freemove"))
    """Input planes (see :mod:`bitflip.nn.encode`); a set name is resolved when built."""
    conv_channels: tuple[int, ...] = (32, 32, 32)
    dense: tuple[int, ...] = (512, 512, 512, 512)
    dropout: float = 0.5
    max_norm: float = 3.0
    """Largest L2 norm of each dense unit's incoming weights (0: no constraint)."""
    residual: bool = False
    """Skip connections around every convolution after the first (same channel counts)."""
    batch_norm: bool = False
    kind: str = "value"


@dataclass(frozen=True)
class PolicyNetConfig:
    """Architecture of a policy network (Liskowski et al.; conv6 by default)."""

    features: tuple[str, ...] = field(default_factory=lambda: resolve_features("policy"))
    channels: tuple[int, ...] = (64, 64, 128, 128, 256, 256)
    head: str = "flatten"
    """``flatten`` (all squares' features into a dense layer) or ``maxpool`` (global max)."""
    batch_norm: bool = True
    dropout: float = 0.0
    kind: str = "policy"


ModelConfig = ValueNetConfig | PolicyNetConfig


def config_to_dict(config: ModelConfig) -> dict[str, Any]:
    """A plain dict (lists, not tuples) for TOML/JSON/checkpoints."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(config).items()}


def config_from_dict(data: dict[str, Any]) -> ModelConfig:
    """The config a dict describes; ``kind`` picks the class; unknown keys are an error."""
    data = dict(data)
    kind = data.get("kind", "value")
    cls: type[ValueNetConfig] | type[PolicyNetConfig]
    if kind == "value":
        cls = ValueNetConfig
    elif kind == "policy":
        cls = PolicyNetConfig
    else:
        raise ValueError(f"unknown model kind {kind!r} (value or policy)")
    names = {f.name for f in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise ValueError(f"unknown {kind} model setting(s): {', '.join(unknown)}")
    if "features" in data:
        data["features"] = resolve_features(data["features"])
    for k, v in list(data.items()):
        if isinstance(v, list):
            data[k] = tuple(v)
    config = cls(**data)
    _check(config)
    return config


def _check(config: ModelConfig) -> None:
    chans = config.conv_channels if isinstance(config, ValueNetConfig) else config.channels
    if not chans or any(int(c) < 1 for c in chans):
        raise ValueError(f"convolution channels must be positive, not {list(chans)}")
    if not 0 <= config.dropout < 1:
        raise ValueError(f"dropout must be in [0, 1), not {config.dropout}")
    if isinstance(config, ValueNetConfig):
        if config.residual and len(set(chans)) != 1:
            raise ValueError("a residual value net needs equal conv_channels")
    elif config.head not in ("flatten", "maxpool"):
        raise ValueError(f"policy head must be 'flatten' or 'maxpool', not {config.head!r}")


def _conv(cin: int, cout: int, bn: bool) -> nn.Sequential:
    layers: list[nn.Module] = [nn.Conv2d(cin, cout, 3, padding=1, bias=not bn)]
    if bn:
        layers.append(nn.BatchNorm2d(cout))
    return nn.Sequential(*layers)


class ValueNet(nn.Module):
    """Position -> (expected result, disc difference / 64), both in [-1, 1]."""

    def __init__(self, config: ValueNetConfig) -> None:
        super().__init__()
        _check(config)
        self.config = config
        cin = len(config.features)
        self.convs = nn.ModuleList()
        for c in config.conv_channels:
            self.convs.append(_conv(cin, c, config.batch_norm))
            cin = c
        layers: list[nn.Module] = []
        width = cin * 64
        self.dense_layers: list[nn.Linear] = []
        for d in config.dense:
            lin = nn.Linear(width, d)
            self.dense_layers.append(lin)
            layers += [lin, nn.ReLU(), nn.Dropout(config.dropout)]
            width = d
        self.dense = nn.Sequential(*layers)
        self.out = nn.Linear(width, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, conv in enumerate(self.convs):
            y = torch.relu(conv(x))
            x = x + y if self.config.residual and i > 0 else y
        return torch.tanh(self.out(self.dense(x.flatten(1))))

    @torch.no_grad()
    def apply_max_norm(self) -> None:
        """Rescale each dense unit's incoming weights to norm <= max_norm (after a step)."""
        if self.config.max_norm <= 0:
            return
        for lin in self.dense_layers:
            lin.weight.data = torch.renorm(lin.weight.data, 2, 0, self.config.max_norm)


class PolicyNet(nn.Module):
    """Position -> 64 move logits (mask them with :func:`masked_log_softmax`)."""

    def __init__(self, config: PolicyNetConfig) -> None:
        super().__init__()
        _check(config)
        self.config = config
        cin = len(config.features)
        convs: list[nn.Module] = []
        for c in config.channels:
            convs += [_conv(cin, c, config.batch_norm), nn.ReLU()]
            cin = c
        self.convs = nn.Sequential(*convs)
        width = cin * 64 if config.head == "flatten" else cin
        self.drop = nn.Dropout(config.dropout)
        self.out = nn.Linear(width, 64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.convs(x)
        x = x.flatten(1) if self.config.head == "flatten" else x.amax(dim=(2, 3))
        logits: torch.Tensor = self.out(self.drop(x))
        return logits

    def apply_max_norm(self) -> None:
        """Policy nets have no norm constraint (kept so trainers treat both alike)."""


def build_model(config: ModelConfig) -> ValueNet | PolicyNet:
    """A freshly initialised network for ``config``."""
    if isinstance(config, ValueNetConfig):
        return ValueNet(config)
    return PolicyNet(config)


def masked_log_softmax(logits: torch.Tensor, legal: torch.Tensor) -> torch.Tensor:
    """Log-probabilities over the legal moves only (illegal squares get -inf).

    A row with no legal move (never in training data) keeps its plain log-softmax.
    """
    any_legal = legal.any(dim=1, keepdim=True)
    keep = legal | ~any_legal
    return torch.log_softmax(logits.float().masked_fill(~keep, float("-inf")), dim=1)


def count_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters())

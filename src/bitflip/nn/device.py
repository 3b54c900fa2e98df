"""The torch device a user asked for, checked once for every trainer and network user."""

from __future__ import annotations

import torch


def pick_device(name: str | torch.device = "auto") -> torch.device:
    """``auto``: CUDA when present, else the CPU; other names are checked.

    Raises:
        ValueError: a name torch does not know, or CUDA asked for where there is none.
    """
    if isinstance(name, torch.device):
        return name
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    try:
        dev = torch.device(name)
    except RuntimeError as exc:
        raise ValueError(f"bad device {name!r}: {exc}") from None
    if dev.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("device 'cuda' asked for, but torch sees no CUDA device")
    return dev

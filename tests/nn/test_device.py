"""The device a user names is checked once, with an error that says what is wrong."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from bitflip.nn.device import pick_device  # noqa: E402


def test_pick_device() -> None:
    assert pick_device("cpu") == torch.device("cpu")
    assert pick_device(torch.device("cpu")) == torch.device("cpu")
    assert pick_device("auto").type in ("cpu", "cuda")
    with pytest.raises(ValueError, match="bad device"):
        pick_device("gpu7")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device"):
            pick_device("cuda")

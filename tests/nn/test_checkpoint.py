"""Model files: self-describing, content-hashed, and loud about damage."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from bitflip.nn.checkpoint import (  # noqa: E402
    CheckpointError,
    load_model,
    load_state,
    save_model,
    save_state,
)
from bitflip.nn.models import PolicyNet, PolicyNetConfig  # noqa: E402


def small_net() -> PolicyNet:
    torch.manual_seed(0)
    return PolicyNet(PolicyNetConfig(channels=(4, 4), head="maxpool")).eval()


def test_round_trip_keeps_outputs_config_and_lineage(tmp_path: Path) -> None:
    net = small_net()
    path = save_model(net, tmp_path, {"data": "unit test"}, {"test": {"top1": 0.5}})
    assert path.name.startswith("policy-") and len(path.stem) == len("policy-") + 12
    assert save_model(net, tmp_path, {"data": "unit test"}, {"test": {"top1": 0.5}}) == path
    loaded = load_model(path)
    assert loaded.config == net.config
    assert loaded.lineage == {"data": "unit test"}
    assert loaded.metrics["test"]["top1"] == 0.5
    x = torch.randn(3, 3, 8, 8)
    assert torch.allclose(loaded.model(x), net(x))


def test_damaged_files_are_reported(tmp_path: Path) -> None:
    path = save_model(small_net(), tmp_path)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="hash"):
        load_model(path)
    other = tmp_path / "renamed.pt"
    other.write_bytes(bytes(data[:200]))
    with pytest.raises(CheckpointError, match="renamed.pt"):
        load_model(other)
    torch.save({"format": "something-else"}, tmp_path / "foreign.pt")
    with pytest.raises(CheckpointError, match="not a bitflip network"):
        load_model(tmp_path / "foreign.pt")
    with pytest.raises(FileNotFoundError):
        load_model(tmp_path / "absent.pt")


def test_training_state_round_trip(tmp_path: Path) -> None:
    net = small_net()
    opt = torch.optim.AdamW(net.parameters())
    net(torch.randn(2, 3, 8, 8)).sum().backward()
    opt.step()
    save_state(
        tmp_path / "state.pt",
        {
            "model": net.state_dict(),
            "optimizer": opt.state_dict(),
            "epoch": 3,
            "rows": [{"epoch": 1.0}],
        },
    )
    st = load_state(tmp_path / "state.pt")
    assert st["epoch"] == 3 and st["rows"] == [{"epoch": 1.0}]
    opt2 = torch.optim.AdamW(small_net().parameters())
    opt2.load_state_dict(st["optimizer"])
    save_model(net, tmp_path)
    with pytest.raises(CheckpointError, match="training state"):
        load_state(next(tmp_path.glob("policy-*.pt")))


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda b: b"", "an empty file"),
        (lambda b: b"garbage", "no zip archive"),
        (lambda b: b[: len(b) // 2], "truncated or damaged"),
        (lambda b: b[:-100], "truncated or damaged"),
        (lambda b: b[:1000] + bytes([b[1000] ^ 0xFF]) + b[1001:], "truncated or damaged"),
    ],
    ids=["empty", "garbage", "half", "tail", "flipped-byte"],
)
def test_corrupt_az_file_is_one_line_naming_the_file(
    tmp_path: Path, damage: Callable[[bytes], bytes], message: str
) -> None:
    from bitflip.nn.alphazero import AZNet, AZNetConfig
    from bitflip.nn.checkpoint import load_az_net

    good = save_model(AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)), tmp_path, tag="6x6")
    bad = tmp_path / "copied.pt"  # no hash in the name: the reader itself must notice
    bad.write_bytes(damage(good.read_bytes()))
    with pytest.raises(CheckpointError, match=message) as err:
        load_az_net(bad)
    text = str(err.value)
    assert text.startswith(f"{bad}: ") and "\n" not in text and len(text) < 300

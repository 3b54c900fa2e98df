"""Network shapes, masking, constraints and config round trips."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from bitflip.nn.models import (  # noqa: E402
    PolicyNet,
    PolicyNetConfig,
    ValueNet,
    ValueNetConfig,
    build_model,
    config_from_dict,
    config_to_dict,
    count_parameters,
    masked_log_softmax,
)


@pytest.mark.parametrize("head", ["flatten", "maxpool"])
def test_policy_net_shapes(head: str) -> None:
    for channels in ((64, 64, 128, 128), (64, 64, 128, 128, 256, 256)):
        net = PolicyNet(PolicyNetConfig(channels=channels, head=head))
        assert net(torch.zeros(5, 3, 8, 8)).shape == (5, 64)
    conv6_flat = count_parameters(PolicyNet(PolicyNetConfig()))
    assert conv6_flat < 20_000_000 // 4  # a float32 file stays under 20 MB


@pytest.mark.parametrize("residual", [False, True])
def test_value_net_outputs_are_bounded(residual: bool) -> None:
    cfg = ValueNetConfig(residual=residual)
    net = ValueNet(cfg).eval()
    out = net(torch.randn(7, len(cfg.features), 8, 8) * 10)
    assert out.shape == (7, 2)
    assert bool((out.abs() <= 1).all())


def test_max_norm_constraint() -> None:
    net = ValueNet(
        ValueNetConfig(features=("own",), conv_channels=(4,), dense=(8, 8), max_norm=0.5)
    )
    with torch.no_grad():
        for lin in net.dense_layers:
            lin.weight.mul_(100)
    net.apply_max_norm()
    for lin in net.dense_layers:
        assert float(lin.weight.detach().norm(dim=1).max()) <= 0.5 + 1e-5


def test_masked_log_softmax_puts_nothing_on_illegal_moves() -> None:
    logits = torch.randn(3, 64)
    legal = torch.zeros(3, 64, dtype=torch.bool)
    legal[0, [1, 5]] = True
    legal[1, 63] = True
    probs = masked_log_softmax(logits, legal).exp()
    assert float(probs[0, [1, 5]].sum()) == pytest.approx(1.0)
    assert float(probs[0].sum() - probs[0, [1, 5]].sum()) == 0.0
    assert float(probs[1, 63]) == pytest.approx(1.0)
    assert float(probs[2].sum()) == pytest.approx(1.0)  # no legal move: plain softmax


def test_config_round_trip_and_errors() -> None:
    for cfg in (ValueNetConfig(residual=True), PolicyNetConfig(head="maxpool")):
        back = config_from_dict(config_to_dict(cfg))
        assert back == cfg
        assert type(build_model(back)) is (ValueNet if cfg.kind == "value" else PolicyNet)
    assert config_from_dict({"kind": "value", "features": "raw"}).features[0] == "own"
    with pytest.raises(ValueError, match="unknown value model setting"):
        config_from_dict({"kind": "value", "width": 3})
    with pytest.raises(ValueError, match="head"):
        config_from_dict({"kind": "policy", "head": "avg"})
    with pytest.raises(ValueError, match="residual"):
        config_from_dict({"kind": "value", "residual": True, "conv_channels": [8, 16]})
    with pytest.raises(ValueError, match="kind"):
        config_from_dict({"kind": "dragon"})

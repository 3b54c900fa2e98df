"""A net trained again from the config and iteration its file records has the same weights."""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("torch")

from bitflip.cli.train_alphazero import register
from bitflip.learn import alphazero as az
from bitflip.learn.az_config import config_from_dict
from bitflip.learn.az_reproduce import recipe, reproduction_config, weight_difference

DATA = Path(__file__).resolve().parents[2] / "src" / "bitflip" / "data"


@pytest.mark.slow
def test_reproduce_trains_the_same_net(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = config_from_dict(
        {
            "run": {"dir": str(tmp_path / "first"), "iterations": 2, "device": "cpu", "seed": 3},
            "net": {"size": 6, "channels": 4, "fc1": 8, "fc2": 8, "score_head": True},
            "mcts": {"sims": 4, "root": "gumbel", "gumbel_m": 4, "value_margin": 1.0},
            "selfplay": {"games_per_iteration": 4, "concurrent_games": 4, "exact_empties": 8},
            "train": {"steps": 3, "batch_size": 16, "value_margin": 1.0, "score_weight": 1.0},
            "gate": {"pairs": 2, "sims": 2, "max_games": 8},
        }
    )
    run = az.run_loop(cfg)
    net = run.candidate(1)
    assert net is not None
    r = recipe(net)
    assert r.iteration == 1 and r.config == cfg  # the whole config is in the file
    again, iteration = reproduction_config(net, str(tmp_path / "again"))
    assert again == replace(cfg, dir=str(tmp_path / "again"), iterations=2) and iteration == 1
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(
        ["alphazero", "--reproduce", str(net), "--out", str(tmp_path / "again"), "--quiet"]
    )
    assert args.func(args) == 0
    assert f"the same weights as {net}" in capsys.readouterr().out
    made = az.RunDir(tmp_path / "again").candidate(1)  # named by a hash of weights and lineage,
    assert made is not None and made.name != net.name  # and its lineage names its own folder
    assert weight_difference(made, net) == 0.0
    assert weight_difference(net, DATA / "az-1ed22e5ff532.pt") == float("inf")


def test_a_file_without_a_recipe_is_named(tmp_path: Path) -> None:
    from bitflip.nn.alphazero import AZNet, AZNetConfig
    from bitflip.nn.checkpoint import save_model

    path = save_model(AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)), tmp_path)
    with pytest.raises(ValueError, match="no run config and iteration"):
        recipe(path)


@pytest.mark.parametrize("name", ["az-1ed22e5ff532.pt", "az-8x8-7b01f1a916b6.pt"])
def test_shipped_nets_carry_their_recipe(name: str) -> None:
    if not (DATA / name).exists():
        pytest.skip(f"{name} is not shipped any more")
    from bitflip.nn.checkpoint import load_model

    r = recipe(DATA / name)
    assert r.iteration >= 0 and r.config.net == load_model(DATA / name).config

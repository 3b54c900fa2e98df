"""AlphaZero's gate: the sequential test (accepts better nets, rejects worse, stops at the cap),
the fixed rules, and a run folder started from a shipped net."""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.arena.openings import Opening  # noqa: E402
from bitflip.core import hashing  # noqa: E402
from bitflip.learn import alphazero as az  # noqa: E402
from bitflip.learn.az_config import GateConfig, RunConfig, config_from_dict  # noqa: E402
from bitflip.learn.az_gate import PlayRound, gate_openings, gate_pairs, run_gate  # noqa: E402
from bitflip.learn.az_rundir import RunDir, initial_net, write_json  # noqa: E402
from bitflip.nn.alphazero import AZNet, AZNetConfig  # noqa: E402
from bitflip.nn.checkpoint import save_model  # noqa: E402
from bitflip.search.mcts.games import MatchResult  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "src" / "bitflip" / "data"
SHIPPED_6X6 = DATA / "az-1ed22e5ff532.pt"
needs_shipped = pytest.mark.skipif(not SHIPPED_6X6.exists(), reason="shipped 6x6 net not present")


def rounds(penta: tuple[int, int, int, int, int]) -> tuple[list[int], PlayRound]:
    """A round player that gives the same pairs every round, and the list of rounds played."""
    played: list[int] = []

    def play(k: int) -> MatchResult:
        played.append(k)
        # A pair's points: 2 = two wins, 1.5 = a win and a draw, 1 = a win and a loss,
        # 0.5 = a draw and a loss, 0 = two losses.
        wins = 2 * penta[4] + penta[3] + penta[2]
        draws = penta[3] + penta[1]
        losses = 2 * penta[0] + penta[1] + penta[2]
        return MatchResult(wins, draws, losses, penta)

    return played, play


def test_sprt_accepts_a_clearly_better_net_and_logs_the_llr() -> None:
    played, play = rounds((0, 0, 1, 0, 9))  # 9 of 10 pairs won twice
    lines: list[str] = []
    verdict = run_gate(play, GateConfig(pairs=10), lines.append)
    assert verdict.accepted and verdict.reason == "H1"
    assert verdict.sprt is not None and verdict.sprt.llr >= verdict.sprt.upper
    assert 1 < len(played) < 10  # stopped as soon as it decided, before the cap
    assert len(lines) == len(played) and all("LLR" in s for s in lines)
    assert "accepted (H1, elo >= 40)" in verdict.line()
    record = verdict.record()
    assert record["accepted"] is True and record["reason"] == "H1"
    assert record["llr"] == pytest.approx(verdict.sprt.llr, abs=1e-4)
    assert json.loads(json.dumps(record)) == record  # a JSON record as written


def test_sprt_rejects_a_worse_net() -> None:
    _, play = rounds((6, 0, 3, 0, 1))
    verdict = run_gate(play, GateConfig(pairs=10), lambda _: None)
    assert not verdict.accepted and verdict.reason == "H0"
    assert verdict.sprt is not None and verdict.sprt.llr <= verdict.sprt.lower
    assert "rejected (H0, elo <= 0)" in verdict.line()


def test_sprt_stops_at_the_cap_and_rejects() -> None:
    # As many pairs won twice as lost twice: an even score with the most variance, which the
    # test cannot decide in 100 games.
    played, play = rounds((5, 0, 0, 0, 5))
    verdict = run_gate(play, GateConfig(pairs=10, max_games=100), lambda _: None)
    assert not verdict.accepted and verdict.reason == "cap"
    assert len(played) == 5 and verdict.result.games == 100
    assert verdict.result.pentanomial == (25, 0, 0, 0, 25)
    assert "undecided at the cap" in verdict.line()
    # A cap that is not a whole number of rounds: no round may pass it.
    played, play = rounds((5, 0, 0, 0, 5))
    verdict = run_gate(play, GateConfig(pairs=10, max_games=90), lambda _: None)
    assert verdict.result.games == 80 and len(played) == 4


def test_fixed_rules_play_one_round() -> None:
    played, play = rounds((2, 0, 5, 0, 3))  # 11-0-9: score 0.55
    verdict = run_gate(play, GateConfig(rule="score", pairs=10), lambda _: None)
    assert verdict.accepted and verdict.reason == "score" and played == [0]
    assert verdict.sprt is None and "by rule score" in verdict.line()
    verdict = run_gate(play, GateConfig(rule="score", pairs=10, threshold=0.6), lambda _: None)
    assert not verdict.accepted


def test_gate_settings_are_checked() -> None:
    assert RunConfig().gate.rule == "sprt"  # the default rule
    with pytest.raises(ValueError, match="elo1 > elo0"):
        config_from_dict({"gate": {"elo0": 10.0, "elo1": 5.0}})
    with pytest.raises(ValueError, match="max_games"):
        config_from_dict({"gate": {"pairs": 20, "max_games": 30}})
    with pytest.raises(ValueError, match="alpha"):
        config_from_dict({"gate": {"alpha": 1.5}})


def canonical(moves: tuple[int, ...], size: int) -> tuple[int, int, int]:
    """An opening's position up to symmetry, with the side to move."""
    board = Opening(moves, size).board()
    p, o = board.side_bitboards()
    cp, co, _ = hashing.canonical(np.uint64(p), np.uint64(o), size)
    return int(cp), int(co), int(board.turn)


def test_a_gate_match_draws_distinct_openings_up_to_symmetry() -> None:
    gate = GateConfig(pairs=10, max_games=170, opening_plies=6)
    ops = gate_openings(gate, 6, seed=3)
    assert len(ops) == gate_pairs(gate) == 80  # 8 rounds fit in 170 games
    assert all(len(m) == 6 for m in ops) and len({canonical(m, 6) for m in ops}) == 80
    # A smaller match plays the start of the same draw; another seed draws others.
    assert gate_openings(replace(gate, max_games=40), 6, seed=3) == ops[:20]
    assert gate_openings(gate, 6, seed=4) != ops
    assert gate_openings(replace(gate, rule="score"), 6, seed=3) == ops[:10]  # one round


def test_too_few_openings_stop_the_run_at_its_start(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as err:
        gate_openings(GateConfig(opening_plies=4, max_games=200), 8, seed=0)
    message = str(err.value)
    assert "\n" not in message and message.startswith("gate.max_games = 200 needs 100 distinct")
    assert "on 8x8, and only 60 were found" in message
    assert message.endswith("raise gate.opening_plies or lower gate.max_games")
    with pytest.raises(ValueError, match=r"gate.pairs = 70 .* or lower gate.pairs$"):
        gate_openings(GateConfig(rule="score", pairs=70, max_games=140), 6, seed=0)
    cfg = config_from_dict({"run": {"dir": str(tmp_path / "run"), "device": "cpu"},
                            "net": {"size": 6}, "gate": {"opening_plies": 4}})  # fmt: skip
    with pytest.raises(ValueError, match="raise gate.opening_plies"):
        az.run_loop(cfg)
    assert not (tmp_path / "run").exists()  # nothing done


def test_gate_rounds_play_their_own_openings_and_replay_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    torch.manual_seed(0)
    nets = [save_model(AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)), tmp_path / name)
            for name in ("candidate", "best")]  # fmt: skip
    cfg, run = _run_with(tmp_path, *nets, elo1=40.0)  # 4 pairs a round, at most 64 games
    played: list[list[tuple[int, ...]]] = []

    def even_round(*_: object, openings: list[tuple[int, ...]], seed: int) -> MatchResult:
        played.append(list(openings))
        return MatchResult(4, 0, 4, (2, 0, 0, 0, 2))  # even and wild: undecided until the cap

    monkeypatch.setattr(az, "play_match", even_round)
    decision = az.gate_step(cfg, run, 0)
    assert decision["reason"] == "cap" and len(played) == 8
    assert all(len(r) == 4 for r in played)
    every = [m for r in played for m in r]
    assert len({canonical(m, 6) for m in every}) == 32  # no opening twice in the match
    assert every == az.gate_openings(cfg, 0)
    first = list(played)
    (run.gating / "it0000.json").unlink()  # killed before the record: the gate is played again
    played.clear()
    az.gate_step(cfg, run, 0)
    assert played == first


def _run_with(
    tmp_path: Path, candidate: Path, best: Path, **gate: object
) -> tuple[RunConfig, RunDir]:
    """A run folder whose best net is ``best`` and whose iteration-0 candidate is ``candidate``."""
    cfg = config_from_dict(
        {
            "run": {"dir": str(tmp_path / "run"), "device": "cpu"},
            "net": {"size": 6},
            "mcts": {"sims": 4},
            "gate": {"pairs": 4, "sims": 4, "elo1": 150.0, "max_games": 64, **gate},
        }
    )
    run = RunDir(cfg.dir)
    for folder, net, record in ((run.accepted, best, "0000.json"),
                                (run.checkpoints, candidate, "it0000.json")):  # fmt: skip
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(net, folder / net.name)
        write_json(folder / record, {"net": net.name, "iteration": -1})
    return cfg, run


@needs_shipped
@pytest.mark.parametrize("better", [True, False], ids=["trained-vs-fresh", "fresh-vs-trained"])
def test_gate_step_decides_between_real_nets(tmp_path: Path, better: bool) -> None:
    torch.manual_seed(0)
    fresh = save_model(AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)), tmp_path / "fresh")
    cand, best = (SHIPPED_6X6, fresh) if better else (fresh, SHIPPED_6X6)
    cfg, run = _run_with(tmp_path, cand, best)
    lines: list[str] = []
    decision = az.gate_step(cfg, run, 0, lines.append)
    assert decision["accepted"] is better and decision["reason"] == ("H1" if better else "H0")
    assert lines[-1].startswith("gate it0:") and "LLR" in lines[-1]
    assert run.best_net().name == (cand.name if better else best.name)
    assert json.loads((run.gating / "it0000.json").read_text())["llr"] == decision["llr"]


@needs_shipped
def test_a_new_run_folder_starts_from_the_shipped_net(tmp_path: Path) -> None:
    """A new machine: no run folder, ``init_net`` names the net the repository keeps."""
    base = {"dir": str(tmp_path / "run"), "device": "cpu", "iterations": 1}
    shape = {"size": 6, "channels": 64, "fc1": 128, "fc2": 64, "dropout": 0.1, "score_head": True}
    small = {
        "mcts": {"sims": 4, "root": "gumbel", "gumbel_m": 4},
        "selfplay": {"games_per_iteration": 4, "concurrent_games": 4},
        "train": {"steps": 2, "batch_size": 16, "value_margin": 0.5},
        "gate": {"rule": "always", "pairs": 1, "sims": 2},
    }
    for init in ("builtin", SHIPPED_6X6.name, str(SHIPPED_6X6)):
        shutil.rmtree(tmp_path / "run", ignore_errors=True)
        cfg = config_from_dict({"run": {**base, "init_net": init}, "net": shape, **small})
        first = initial_net(cfg, RunDir(cfg.dir))
        assert first.read_bytes() == SHIPPED_6X6.read_bytes() and first.name == SHIPPED_6X6.name
    run = az.run_loop(cfg)  # iteration 0 self-plays with the shipped net and trains from it
    checkpoint = json.loads((run.checkpoints / "it0000.json").read_text())["net"]
    from bitflip.nn.checkpoint import load_model

    assert load_model(run.checkpoints / checkpoint).lineage["parent"] == SHIPPED_6X6.name
    assert np.load(sorted(run.shards.glob("*.npz"))[0])["source"] == f"selfplay {SHIPPED_6X6.name}"
    # Resumed later with another init_net, the run goes on from its own nets.
    again = replace(cfg, init_net="nowhere.pt", iterations=1)
    assert initial_net(again, run) == run.best_net()
    with pytest.raises(ValueError, match="no net file"):
        initial_net(again, RunDir(tmp_path / "other"))
    other = {**base, "init_net": "builtin", "dir": str(tmp_path / "o")}
    other_shape = config_from_dict({"run": other, "net": {"size": 6, "channels": 8}})
    with pytest.raises(ValueError, match=r"not the net that \[net\] describes"):
        initial_net(other_shape, RunDir(other_shape.dir))


@needs_shipped
def test_a_net_is_searched_as_its_run_searched(tmp_path: Path) -> None:
    """Finished games in the tree on the scale the net's run used (mcts.value_margin)."""
    from bitflip.agents import make_agent
    from bitflip.nn.policy_value import NetPolicyValue

    assert NetPolicyValue.from_file(SHIPPED_6X6, "cpu").value_margin == 0.0  # before the key
    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8))
    config = {"mcts": {"value_margin": 1.0}, "train": {"value_margin": 1.0}}
    path = save_model(net, tmp_path, lineage={"config": config})
    assert NetPolicyValue.from_file(path, "cpu").value_margin == 1.0
    agent = make_agent(f"mcts:net={path},size=6,sims=4")
    assert agent.config.value_margin == 1.0
    chosen = make_agent("mcts:net=builtin,size=6,sims=4,value_margin=0.5")  # set by the user
    assert chosen.config.value_margin == 0.5 and chosen.name.endswith("value_margin=0.5")
    with pytest.raises(ValueError, match="value_margin must be in"):
        make_agent("mcts:net=builtin,size=6,sims=4,value_margin=2")
    with pytest.raises(ValueError, match="mcts.value_margin"):
        config_from_dict({"mcts": {"value_margin": 0.5}, "train": {"value_margin": 1.0}})

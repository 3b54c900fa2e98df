"""AlphaZero net, files, the directory-driven loop and its resume after a kill."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.agents import make_agent  # noqa: E402
from bitflip.core import bitboard as bb  # noqa: E402
from bitflip.core.board import Board  # noqa: E402
from bitflip.learn import alphazero as az  # noqa: E402
from bitflip.learn import az_gate  # noqa: E402
from bitflip.learn.az_config import RunConfig, config_from_dict  # noqa: E402
from bitflip.learn.az_rundir import RunDir  # noqa: E402
from bitflip.learn.az_shards import read_selfplay_shards  # noqa: E402
from bitflip.nn.alphazero import AZNet, AZNetConfig, action_squares, augment, encode  # noqa: E402
from bitflip.nn.checkpoint import (  # noqa: E402
    CheckpointError,
    convert_legacy_az,
    load_az_net,
    load_model,
    save_model,
)
from bitflip.nn.policy_value import NetPolicyValue  # noqa: E402
from bitflip.search.mcts.games import MatchResult  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "src" / "bitflip" / "data"
SHIPPED_6X6 = DATA / "az-1ed22e5ff532.pt"


def tiny(tmp_path: Path, **run: object) -> RunConfig:
    return config_from_dict(
        {
            "run": {"dir": str(tmp_path / "run"), "iterations": 1, "device": "cpu", **run},
            "net": {"size": 6, "channels": 4, "fc1": 8, "fc2": 8},
            "mcts": {"sims": 4},
            "selfplay": {"games_per_iteration": 4, "concurrent_games": 2, "temp_moves": 2},
            "train": {"steps": 2, "batch_size": 16, "window": 2},
            "gate": {"pairs": 1, "opening_plies": 2, "rule": "always"},
        }
    )


@pytest.mark.parametrize("residual", [False, True])
def test_net_masks_illegal_actions(residual: bool) -> None:
    net = AZNet(AZNetConfig(size=6, channels=8, fc1=8, fc2=8, residual=residual, blocks=1)).eval()
    b = Board(size=6)
    p, o = (np.array([x], np.uint64) for x in b.side_bitboards())
    planes, legal = encode(p, o, 6)
    assert planes.shape == (1, 3, 6, 6) and legal.shape == (1, 37)
    assert legal.sum() == 4 and not legal[0, -1]
    logits, value = net(torch.from_numpy(planes), torch.from_numpy(legal))
    assert torch.isinf(logits[~torch.from_numpy(legal)]).all()
    assert -1 <= float(value.detach()) <= 1


def test_net_speaks_the_search_protocol() -> None:
    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8))
    ev = NetPolicyValue(net)
    b = Board(size=6)
    p, o = (np.array([x, x], np.uint64) for x in b.side_bitboards())
    pol, val = ev.evaluate(p, o)
    assert pol.shape == (2, 65) and val.shape == (2,)
    assert np.isclose(pol[0].sum(), 1.0)
    assert set(np.flatnonzero(pol[0])) <= set(b.legal_moves)


def test_augment_moves_policy_with_the_board() -> None:
    rng = np.random.default_rng(0)
    b = Board(size=6)
    b.push("b3")  # an asymmetric position
    p0, o0 = b.side_bitboards()
    legal = b.legal_mask()
    squares = action_squares(6)
    pi = np.zeros((64, 37), np.float32)
    first = (legal & -legal).bit_length() - 1
    pi[:, list(squares).index(first)] = 1.0
    p, o, new = augment(np.full(64, p0, np.uint64), np.full(64, o0, np.uint64), pi, 6, rng)
    for i in range(64):
        moved = squares[int(np.argmax(new[i]))]
        lm = int(bb.legal_moves(np.uint64(p[i]), np.uint64(o[i]), np.uint64(b.geometry.mask)))
        assert lm >> int(moved) & 1


def test_net_files_are_model_files_and_refuse_damage(tmp_path: Path) -> None:
    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)).eval()
    path = save_model(net, tmp_path, lineage={"generation": 3})
    assert path.name.startswith("az-") and path.suffix == ".pt"
    loaded = load_model(path)
    assert loaded.lineage["generation"] == 3 and loaded.config == net.config
    assert loaded.config.kind == "az" and isinstance(loaded.model, AZNet)
    b = Board(size=6)
    p, o = (np.array([x], np.uint64) for x in b.side_bitboards())
    planes, legal = (torch.from_numpy(a) for a in encode(p, o, 6))
    assert torch.allclose(load_az_net(path)(planes, legal)[1], net(planes, legal)[1])
    tagged = save_model(net, tmp_path, tag="6x6")
    assert tagged.name.startswith("az-6x6-") and load_az_net(tagged).config == net.config
    data = bytearray(path.read_bytes())
    data[-10] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(CheckpointError, match="hash"):
        load_az_net(path)
    bad = tmp_path / "other.pt"
    bad.write_bytes(b"not a net")
    with pytest.raises(CheckpointError, match="other.pt"):
        load_az_net(bad)
    with pytest.raises(ValueError, match="tag"):
        save_model(net, tmp_path, tag="Big Net")


def test_corrupt_net_file_is_one_clear_line_everywhere(tmp_path: Path) -> None:
    good = save_model(AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)), tmp_path)
    bad = tmp_path / "az-000000000000.pt"
    bad.write_bytes(good.read_bytes()[: len(good.read_bytes()) // 2])  # truncated copy
    with pytest.raises(CheckpointError, match="hash") as err:
        make_agent(f"mcts:net={bad},sims=2")
    assert str(bad) in str(err.value) and "\n" not in str(err.value)
    cut = tmp_path / "cut.pt"  # no hash in the name: the reader itself must notice
    cut.write_bytes(bad.read_bytes())
    with pytest.raises(CheckpointError, match="not a readable network file") as err:
        NetPolicyValue.from_file(cut, "cpu")
    assert "\n" not in str(err.value)
    proc = subprocess.run(
        [sys.executable, "-m", "bitflip.cli.main", "arena", f"mcts:net={cut},sims=2", "random",
         "--size", "6", "--games", "2", "--workers", "1"],
        env={"PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")},
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "cut.pt" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_value_net_is_refused_where_an_az_net_is_needed(tmp_path: Path) -> None:
    from bitflip.nn.models import ValueNet, ValueNetConfig

    path = save_model(ValueNet(ValueNetConfig(conv_channels=(4,), dense=(8,))), tmp_path)
    with pytest.raises(CheckpointError, match="a value network, not an AlphaZero"):
        load_az_net(path)


def test_legacy_az_files_are_named_and_converted(tmp_path: Path) -> None:
    from dataclasses import asdict

    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)).eval()
    old = tmp_path / "old.pt"
    torch.save({"format": "bitflip-az-net", "format_version": 1, "config": asdict(net.config),
                "lineage": {"generation": 2}, "metrics": {"value_loss": 0.5},
                "state_dict": net.state_dict()}, old)  # fmt: skip
    with pytest.raises(CheckpointError, match="retired"):
        load_model(old)
    new = convert_legacy_az(old, tmp_path / "out")
    loaded = load_model(new)
    assert loaded.lineage == {"generation": 2, "converted_from": "old.pt"}
    assert loaded.metrics == {"value_loss": 0.5} and loaded.config == net.config


def test_gating_rules() -> None:
    cfg = config_from_dict({"gate": {"rule": "report"}})
    assert az.accept(MatchResult(24, 0, 16), cfg)  # 60% of the decisive games
    assert not az.accept(MatchResult(23, 1, 16), cfg)
    score = config_from_dict({"gate": {"rule": "score", "threshold": 0.55}})
    assert az.accept(MatchResult(22, 0, 18), score) and not az.accept(MatchResult(21, 1, 18), score)
    with pytest.raises(ValueError, match="rule"):
        config_from_dict({"gate": {"rule": "vibes"}})
    with pytest.raises(ValueError, match="unknown keys"):
        config_from_dict({"mcts": {"simz": 3}})


@pytest.mark.slow
def test_loop_writes_every_step_and_resumes(tmp_path: Path) -> None:
    cfg = tiny(tmp_path)
    run = az.run_loop(cfg)
    assert run.iterations_done() == 1
    assert len(list(run.shards.glob("it0000-*.npz"))) == 2
    assert len(run.generations()) == 2  # generation 0 and the accepted candidate
    best = run.best_net()
    # A kill -9 in the middle of iteration 1: a half-written shard, nothing else yet.
    (run.shards / "it0001-000.npz.tmp.npz").write_bytes(b"partial")
    cfg2 = replace(cfg, iterations=2)
    az.run_loop(cfg2)
    assert run.iterations_done() == 2
    assert best.exists()  # accepted nets are never removed
    assert json.loads((run.accepted / "0001.json").read_text())["net"] == best.name
    from bitflip.learn.shards import read_shard

    first = sorted(run.shards.glob("it*.npz"))[0]
    assert len(read_shard(first)) > 0  # self-play shards are shared-format training records
    shards = read_selfplay_shards(sorted(run.shards.glob("it*.npz")), 6)
    assert np.allclose(shards.policy.sum(axis=1), 1.0, atol=1e-2)
    assert set(np.unique(shards.value)) <= {-1.0, 0.0, 1.0}
    from bitflip.learn.az_eval import plot_gating

    assert plot_gating(run.root, tmp_path / "gating.png").stat().st_size > 1000
    with pytest.raises(ValueError, match="no gating records"):
        plot_gating(tmp_path / "empty", tmp_path / "none.png")


def test_gate_recovers_after_accepting(tmp_path: Path) -> None:
    cfg = tiny(tmp_path)
    run = RunDir(cfg.dir)
    az.selfplay_step(cfg, run, 0)
    cand = az.train_step(cfg, run, 0)
    az.gate_step(cfg, run, 0)
    (run.gating / "it0000.json").unlink()  # killed after accepting, before the gating record
    decision = az.gate_step(cfg, run, 0)
    assert decision["recovered"] is True
    assert len(run.generations()) == 2 and run.best_net().name == cand.name


def test_averaged_candidate_is_the_mean_of_the_last_trained_nets(tmp_path: Path) -> None:
    cfg = tiny(tmp_path, iterations=3)
    cfg = replace(cfg, train=replace(cfg.train, average=2))
    run = az.run_loop(cfg)
    trained = [run.trained(i) for i in range(3)]
    cands = [run.candidate(i) for i in range(3)]
    assert all(p is not None and p.exists() for p in trained + cands)
    assert len({p for p in trained + cands}) == 6  # every candidate is a net of its own
    # Training goes on from the trained nets, not the averages.
    for i in (1, 2):
        assert load_model(trained[i]).lineage["parent"] == trained[i - 1].name
    # Iteration 2 gated the mean of what iterations 1 and 2 trained (iteration 0 is out).
    avg, a, b = (load_az_net(p).state_dict() for p in (cands[2], trained[2], trained[1]))
    for k, v in avg.items():
        if v.is_floating_point():
            assert torch.allclose(v, (a[k] + b[k]) / 2, atol=1e-6), k
    assert load_model(cands[2]).lineage["average_of"] == [trained[2].name, trained[1].name]
    # The gate matched the averages; those it accepted are the generations.
    assert json.loads((run.gating / "it0002.json").read_text())["candidate"] == cands[2].name
    assert run.best_net() == run.accepted / cands[2].name
    # A broken chain (a missing earlier net) averages what is there.
    cands[2].unlink()
    trained[1].unlink()
    (run.checkpoints / "it0002.json").unlink()
    again = az.train_step(cfg, run, 2)
    assert load_model(again).lineage["average_of"] == [run.trained(2).name]
    with pytest.raises(ValueError, match="train.average must be >= 1"):
        replace(cfg, train=replace(cfg.train, average=0))


def test_gate_every_and_one_optimizer_for_the_whole_run(tmp_path: Path) -> None:
    cfg = tiny(tmp_path, iterations=4)
    cfg = replace(cfg, train=replace(cfg.train, average=2, keep_optimizer=True),
                  gate=replace(cfg.gate, every=2))  # fmt: skip
    run = az.run_loop(cfg)
    # Only iterations 1 and 3 were gated; 0 and 2 trained without an average to gate.
    records = [json.loads((run.gating / f"it{i:04d}.json").read_text()) for i in range(4)]
    assert [r.get("skipped", False) for r in records] == [True, False, True, False]
    assert [r["accepted"] for r in records] == [False, True, False, True]
    averaged = ["average" in json.loads((run.checkpoints / f"it{i:04d}.json").read_text())
                for i in range(4)]  # fmt: skip
    assert averaged == [False, True, False, True]
    assert len(run.generations()) == 3
    # One Adam for the whole run: its step count went on over the 4 iterations of 2 steps,
    # and only the newest state is kept.
    assert sorted(p.name for p in run.checkpoints.glob("opt-*")) == ["opt-it0003.pt"]
    state = torch.load(run.checkpoints / "opt-it0003.pt", weights_only=True)
    assert {float(s["step"]) for s in state["state"].values()} == {8.0}
    # A damaged state costs only the moment estimates: training goes on with a fresh Adam.
    (run.checkpoints / "opt-it0003.pt").write_bytes(b"not a torch file")
    lines: list[str] = []
    az.run_loop(replace(cfg, iterations=5), log=lines.append)
    assert any("unreadable optimizer state" in line for line in lines)
    state = torch.load(run.checkpoints / "opt-it0004.pt", weights_only=True)
    assert {float(s["step"]) for s in state["state"].values()} == {2.0}
    with pytest.raises(ValueError, match="gate.every must be >= 1"):
        replace(cfg, gate=replace(cfg.gate, every=0))


SWITCHES = (
    '[net]\nscore_head = true\n[mcts]\nroot = "gumbel"\ngumbel_m = 4\n'
    "[selfplay]\nfull_search_prob = 0.5\ncheap_sims = 2\nexact_empties = 6\n"
    "[train]\nscore_weight = 0.5\nvalue_margin = 0.25\n"
)


@pytest.mark.slow
@pytest.mark.parametrize("switches", [False, True], ids=["default", "issue18-switches"])
def test_kill_minus_9_and_resume(tmp_path: Path, switches: bool) -> None:
    cfg_path = tmp_path / "az.toml"
    text = (
        f'[run]\ndir = "{tmp_path / "run"}"\niterations = 3\ndevice = "cpu"\n'
        "[net]\nsize = 6\nchannels = 4\nfc1 = 8\nfc2 = 8\n[mcts]\nsims = 4\n"
        "[selfplay]\ngames_per_iteration = 8\nconcurrent_games = 2\n"
        '[train]\nsteps = 3\nbatch_size = 8\n[gate]\npairs = 1\nrule = "always"\n'
    )
    if switches:  # the same tables again with the new keys: merge them by section
        import tomllib

        data = tomllib.loads(text)
        for name, table in tomllib.loads(SWITCHES).items():
            data[name].update(table)
        text = "".join(
            f"[{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in table.items())
            for name, table in data.items()
        )
    cfg_path.write_text(text)
    code = "from bitflip.cli.train_alphazero import register, run; import argparse, sys\n" \
        "p = argparse.ArgumentParser(); s = p.add_subparsers(); register(s)\n" \
        f"a = p.parse_args(['alphazero', '--config', {str(cfg_path)!r}, '--quiet'])\n" \
        "sys.exit(a.func(a))\n"  # fmt: skip
    env_src = str(Path(__file__).resolve().parents[2] / "src")
    env = {"PYTHONPATH": env_src, "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, "-c", code], env=env)
    run = RunDir(tmp_path / "run")
    import time

    deadline = time.time() + 300
    while time.time() < deadline and len(run.generations()) < 2:
        time.sleep(0.2)
    proc.kill()  # SIGKILL
    proc.wait()
    accepted = {p.name: p.read_bytes() for p in run.accepted.glob("*")}
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    assert run.iterations_done() == 3
    for name, data in accepted.items():
        if not name.endswith(".tmp"):
            assert (run.accepted / name).read_bytes() == data


@pytest.mark.skipif(not SHIPPED_6X6.exists(), reason="shipped 6x6 net not present")
def test_shipped_6x6_net_plays_and_beats_random() -> None:
    agent = make_agent(f"mcts:net={SHIPPED_6X6},sims=30", seed=0)
    b = Board(size=6)
    assert agent.select_move(b) in b.legal_moves
    from bitflip.nn.agents import shipped_az_net

    assert shipped_az_net(6) == SHIPPED_6X6 and SHIPPED_6X6.with_suffix(".md").exists()
    assert make_agent("mcts:net=builtin,size=6,sims=8", seed=0).select_move(b) in b.legal_moves
    with pytest.raises(FileNotFoundError, match="4x4"):
        shipped_az_net(4)
    from bitflip.search.mcts import BatchedMCTS, MCTSConfig
    from bitflip.search.mcts.games import play_match

    mcts = BatchedMCTS(NetPolicyValue.from_file(SHIPPED_6X6, "cpu"), 4, MCTSConfig(sims=20))
    res = play_match(mcts, make_agent("random", seed=2), 2, opening_plies=0)
    assert res.wins == 4


@pytest.mark.parametrize(
    "name",
    [
        "alphazero-6x6.toml",
        "alphazero-6x6-cpu.toml",
        "alphazero-8x8.toml",
        "alphazero-8x8-cpu.toml",
        "alphazero-8x8-gumbel-cpu.toml",
        "alphazero-6x6-endgame.toml",
        "alphazero-8x8-ladder.toml",
    ],
)
def test_shipped_configs_load_and_build_their_net(name: str) -> None:
    from bitflip.learn.az_config import load_config

    cfg = load_config(Path(__file__).resolve().parents[2] / "configs" / name)
    # The gate finds as many distinct openings as its longest match plays (else: a clear error).
    assert len(az.gate_openings(cfg, 0)) == az_gate.gate_pairs(cfg.gate)
    net = AZNet(cfg.net).eval()
    b = Board(size=cfg.net.size)
    p, o = (np.array([x], np.uint64) for x in b.side_bitboards())
    pol, val = NetPolicyValue(net).evaluate(p, o)
    assert set(np.flatnonzero(pol[0])) <= set(b.legal_moves) and -1 <= val[0] <= 1


@pytest.fixture
def no_ray_left_running() -> Iterator[None]:
    """Whatever a test does with Ray, no instance outlives it."""
    yield
    ray = sys.modules.get("ray")
    if ray is not None and ray.is_initialized():
        ray.shutdown()
        pytest.fail("a Ray instance was left running")


def _shard_format(path: Path) -> dict[str, tuple[str, tuple[int, ...]]]:
    with np.load(path, allow_pickle=False) as z:
        return {k: (z[k].dtype.str, z[k].shape[1:]) for k in z.files}


@pytest.mark.slow
@pytest.mark.usefixtures("no_ray_left_running")
def test_ray_backend_writes_the_same_shards_as_local(tmp_path: Path) -> None:
    ray = pytest.importorskip(
        "ray", reason="ray is not installed (pip install 'bitflip[distributed]')"
    )
    cfg = tiny(tmp_path / "ray")
    cfg = replace(cfg, selfplay=replace(cfg.selfplay, backend="ray", workers=1))
    run = az.run_loop(cfg)  # one whole iteration: self-play on Ray, training, gating
    assert not ray.is_initialized()  # the step started a local instance and stopped it
    assert run.iterations_done() == 1 and len(run.generations()) == 2
    shards = sorted(run.shards.glob("it0000-*.npz"))
    assert [p.name for p in shards] == ["it0000-000.npz", "it0000-001.npz"]
    assert not list(run.shards.glob("*.tmp*"))
    local_cfg = tiny(tmp_path / "local")
    local = RunDir(local_cfg.dir)
    az.selfplay_step(local_cfg, local, 0)
    local_shards = sorted(local.shards.glob("it0000-*.npz"))
    assert [_shard_format(p) for p in shards] == [_shard_format(p) for p in local_shards]
    from bitflip.learn.shards import read_shard

    for ray_shard, local_shard in zip(shards, local_shards, strict=True):
        assert len(read_shard(ray_shard)) > 0
        with np.load(ray_shard) as r, np.load(local_shard) as lo:
            assert str(r["source"]) == str(lo["source"])  # played by the same generation-0 net
            assert len(np.unique(r["game"])) == len(np.unique(lo["game"])) == 2
    data = read_selfplay_shards(shards, 6)
    assert np.allclose(data.policy.sum(axis=1), 1.0, atol=1e-2)


def test_ray_backend_names_the_missing_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray -> ImportError
    cfg = tiny(tmp_path)
    cfg = replace(cfg, selfplay=replace(cfg.selfplay, backend="ray"))
    with pytest.raises(ValueError, match="needs Ray"):
        az.selfplay_step(cfg, RunDir(cfg.dir), 0)


def test_shipped_8x8_net_is_a_small_model_file_and_plays() -> None:
    from bitflip.nn.agents import shipped_az_net

    path = shipped_az_net(8)
    assert path.name.startswith("az-8x8-") and path.stat().st_size < 4_000_000
    assert path.with_suffix(".md").exists()  # its card
    loaded = load_model(path)
    assert loaded.config.kind == "az" and isinstance(loaded.config, AZNetConfig)
    assert loaded.config.size == 8 and loaded.config.score_head
    b = Board()
    agent = make_agent("mcts:net=builtin,sims=16", seed=0)
    assert agent.select_move(b) in b.legal_moves


def test_score_head_is_optional_and_checked() -> None:
    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8, residual=True, blocks=1,
                            score_head=True)).eval()  # fmt: skip
    b = Board(size=6)
    p, o = (np.array([x], np.uint64) for x in b.side_bitboards())
    planes, legal = (torch.from_numpy(a) for a in encode(p, o, 6))
    _, _, score = net.forward_score(planes, legal)
    assert score is not None and score.shape == (1,)
    plain = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)).eval()
    assert plain.forward_score(planes, legal)[2] is None
    assert load_az_net(SHIPPED_6X6).forward_score(planes, legal)[2] is not None  # it has one
    with pytest.raises(ValueError, match="score_head"):
        config_from_dict({"train": {"score_weight": 1.0}})
    with pytest.raises(ValueError, match="full_search_prob"):
        config_from_dict({"selfplay": {"full_search_prob": 0.0}})


def test_max_minutes_is_a_limit_the_run_keeps_and_resumes_from(tmp_path: Path) -> None:
    """Issue 17: --max-minutes 1 ran 170 s (it only stopped starting iterations)."""
    from bitflip.learn.timelimit import TimeLimitReached, time_limit

    cfg = replace(tiny(tmp_path), iterations=50)
    with pytest.raises(TimeLimitReached):  # the old limit only stopped starting iterations
        az.run_loop(cfg, max_minutes=0.5 / 60)  # half a second: cut off inside a step
    run = RunDir(cfg.dir)
    done = run.iterations_done()
    assert done < 50
    az.run_loop(replace(cfg, iterations=done + 1))  # the same run resumes from what was written
    assert run.iterations_done() == done + 1
    with pytest.raises(ValueError, match="positive"), time_limit(0):
        pass


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").exists(), reason="reads the process tree from /proc")
@pytest.mark.parametrize("how", ["SIGKILL", "SIGTERM"])
def test_killed_self_play_leaves_no_worker_behind(tmp_path: Path, how: str) -> None:
    """Issue 20: the self-play pool's workers end with a driver killed by SIGKILL; SIGTERM
    stops the run as Ctrl-C does (a background run ignores SIGINT): status 130, the pool shut
    down cleanly (no leaked semaphores)."""
    import signal
    import time

    from tests.arena.test_cli import _alive, _descendants

    cfg_path = tmp_path / "az.toml"
    cfg_path.write_text(
        f'[run]\ndir = "{tmp_path / "run"}"\niterations = 50\ndevice = "cpu"\n'
        "[net]\nsize = 6\nchannels = 4\nfc1 = 8\nfc2 = 8\n[mcts]\nsims = 64\n"
        "[selfplay]\ngames_per_iteration = 400\nconcurrent_games = 2\nworkers = 2\n"
        '[train]\nsteps = 3\nbatch_size = 8\n[gate]\npairs = 1\nrule = "always"\n'
    )
    repo = Path(__file__).resolve().parents[2]
    env = {"PYTHONPATH": str(repo / "src"), "NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    cmd = [sys.executable, "-m", "bitflip", "train", "alphazero", "--config", str(cfg_path)]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 180
    workers: set[int] = set()
    while (
        len(workers) < 2 and proc.poll() is None
    ):  # the spawn pool's two workers (and its tracker)
        assert time.monotonic() < deadline, "the self-play pool never started"
        time.sleep(0.2)
        workers = {p for p in _descendants(proc.pid) if "spawn_main" in _cmdline(p)}
    left = _descendants(proc.pid)
    proc.send_signal(getattr(signal, how))
    _, err = proc.communicate(timeout=120)
    if how == "SIGTERM":
        assert proc.returncode == 130, err.decode()
        assert b"interrupted" in err and b"leaked" not in err, err.decode()
    # A worker may still be importing (seconds on a loaded machine) before it starts watching
    # the driver; once it watches, it ends at once.
    deadline = time.monotonic() + 60
    while any(_alive(p) for p in left) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in left if _alive(p)], "self-play processes outlived the killed driver"


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def test_shard_paths_lists_finished_shards_of_the_iterations_in_order(tmp_path: Path) -> None:
    run = RunDir(tmp_path)
    run.shards.mkdir()
    for name in ("it0002-001.npz", "it0002-000.npz", "it0003-000.npz", "it0004-000.npz",
                 "it0003-001.tmp.npz"):  # fmt: skip
        (run.shards / name).touch()
    assert [p.name for p in run.shard_paths(range(2, 4))] == [
        "it0002-000.npz", "it0002-001.npz", "it0003-000.npz"
    ]  # fmt: skip
    assert run.shard_paths(range(5, 9)) == []

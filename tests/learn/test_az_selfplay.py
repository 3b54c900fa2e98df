"""Self-play beyond plain PUCT (issue 18): exact targets and leaf values, the score target's
backfill, playout caps with the Gumbel root, and a run with every switch on."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from bitflip.core import bitboard as bb  # noqa: E402
from bitflip.core.board import Board  # noqa: E402
from bitflip.learn import alphazero as az  # noqa: E402
from bitflip.learn.az_config import RunConfig, config_from_dict  # noqa: E402
from bitflip.learn.az_shards import exact_backfill, read_selfplay_shards  # noqa: E402
from bitflip.nn.alphazero import AZNet, AZNetConfig  # noqa: E402
from bitflip.nn.checkpoint import load_az_net  # noqa: E402
from bitflip.nn.policy_value import NetPolicyValue  # noqa: E402


def _negamax(p: int, o: int, mask: int, passed: bool = False) -> int:
    """Exact final margin for the mover by plain negamax (empties to the winner)."""
    um = np.uint64(mask)
    moves = int(bb.legal_moves(np.uint64(p), np.uint64(o), um))
    if not moves:
        if passed:
            mine, theirs = p.bit_count(), o.bit_count()
            return int(bb.margin_with_empties(mine - theirs, mask.bit_count() - mine - theirs))
        return -_negamax(o, p, mask, True)
    best = -100
    while moves:
        sq = (moves & -moves).bit_length() - 1
        moves &= moves - 1
        q, r = bb.play(np.uint64(p), np.uint64(o), sq)
        best = max(best, -_negamax(int(q), int(r), mask))
    return best


def test_exact_targets_equal_the_solvers_values() -> None:
    from bitflip.learn.az_selfplay import empties, exact_scores
    from bitflip.learn.shards import NO_SCORE

    rng = np.random.default_rng(4)
    rows: list[tuple[int, int]] = []
    for _ in range(6):  # random 6x6 games, every position from 7 empties on
        b = Board(size=6)
        while not b.is_game_over():
            if bin(b.empty).count("1") <= 7:
                rows.append(b.side_bitboards())
            moves = list(b.legal_moves)
            b.push(moves[rng.integers(len(moves))])
    p = np.array([r[0] for r in rows], np.uint64)
    o = np.array([r[1] for r in rows], np.uint64)
    scores = exact_scores(p, o, 6, 5)
    mask = Board(size=6).geometry.mask
    for i in range(len(rows)):
        if empties(p[i : i + 1], o[i : i + 1], 6)[0] > 5:
            assert scores[i] == NO_SCORE
        else:
            assert scores[i] == _negamax(int(p[i]), int(o[i]), mask)
    assert (scores != NO_SCORE).sum() >= 20
    # The tree's exact leaves: the sign of the same solve, the net's value elsewhere.
    from bitflip.learn.az_selfplay import ExactLeafValues

    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)).eval()
    leaves = ExactLeafValues(NetPolicyValue(net), 5)
    _, values = leaves.evaluate(p, o)
    _, raw = NetPolicyValue(net).evaluate(p, o)
    solved = scores != NO_SCORE
    assert np.array_equal(values[solved], np.sign(scores[solved]))
    assert np.allclose(values[~solved], raw[~solved])
    # With train.value_margin x the leaves get the value target's blend, from a bounded cache.
    blended = ExactLeafValues(NetPolicyValue(net), 5, value_margin=0.25, max_cache=3)
    _, values = blended.evaluate(p, o)
    want = 0.75 * np.sign(scores[solved]) + 0.25 * scores[solved] / 36
    assert np.allclose(values[solved], want) and np.allclose(values[~solved], raw[~solved])
    assert 1 <= len(blended.cache) <= 3
    with pytest.raises(ValueError, match="value_margin"):
        ExactLeafValues(NetPolicyValue(net), 5, value_margin=1.5)


def _random_endgames(seed: int, most_empties: int) -> tuple[np.ndarray, np.ndarray]:
    """Every position with at most ``most_empties`` empties of six random 6x6 games."""
    rng = np.random.default_rng(seed)
    rows: list[tuple[int, int]] = []
    for _ in range(6):
        b = Board(size=6)
        while not b.is_game_over():
            if b.empties <= most_empties:
                rows.append(b.side_bitboards())
            moves = list(b.legal_moves)
            b.push(moves[rng.integers(len(moves))])
    return np.array([r[0] for r in rows], np.uint64), np.array([r[1] for r in rows], np.uint64)


def test_exact_policy_targets_weigh_exactly_the_perfect_moves() -> None:
    from bitflip.learn.az_selfplay import exact_policies

    p, o = _random_endgames(5, 8)
    rows, targets, margins = exact_policies(p, o, 6, 6)
    mask = Board(size=6).geometry.mask
    assert len(rows) >= 10
    for i, target, margin in zip(rows.tolist(), targets, margins, strict=True):
        pi, oi = int(p[i]), int(o[i])
        assert 36 - (pi | oi).bit_count() <= 6
        moves = int(bb.legal_moves(np.uint64(pi), np.uint64(oi), np.uint64(mask)))
        values = {}
        for sq in range(64):
            if moves >> sq & 1:
                q, r = bb.play(np.uint64(pi), np.uint64(oi), sq)
                values[sq] = -_negamax(int(q), int(r), mask)
        best = {sq for sq, v in values.items() if v == max(values.values())}
        assert margin == _negamax(pi, oi, mask)
        assert set(np.flatnonzero(target).tolist()) == best
        assert np.allclose(target[sorted(best)], 1 / len(best)) and target.sum() == pytest.approx(1)
    # Positions with one move (or a pass) keep the search's target: nothing to choose.
    holes = 36 - np.array([int(x).bit_count() for x in p | o])
    legal = [
        int(bb.legal_moves(a, b, np.uint64(mask))).bit_count() for a, b in zip(p, o, strict=True)
    ]
    want = [i for i in range(len(p)) if holes[i] <= 6 and legal[i] >= 2]
    assert rows.tolist() == want
    with pytest.raises(ValueError, match="exact_policy_empties"):
        config_from_dict({"selfplay": {"exact_empties": 10, "exact_policy_empties": 12}})


def test_backfill_gives_earlier_positions_their_games_first_exact_margin() -> None:
    from bitflip.learn.shards import NO_SCORE

    n = NO_SCORE
    game = np.array([0, 0, 0, 0, 1, 1, 1, 0])
    ply = np.array([0, 1, 2, 3, 0, 1, 2, 4])
    side = np.array([0, 1, 0, 0, 0, 1, 0, 1])  # game 0: white passed at ply 2
    theoretical = np.array([n, n, -6, 6, n, n, n, -6])
    margin = np.array([2, -2, 2, 2, 4, -4, 4, -2], np.float32)
    out = exact_backfill(game, ply, side, theoretical, margin)
    # Game 0's first solved position (ply 2, black to move) is -6 for black; game 1 has none.
    assert out.tolist() == [-6, 6, 2, 2, 4, -4, 4, -2]
    with pytest.raises(ValueError, match="backfill_exact"):
        config_from_dict({"train": {"backfill_exact": True}})


def _switches(tmp_path: Path, **sp: object) -> RunConfig:
    return config_from_dict(
        {
            "run": {"dir": str(tmp_path / "run"), "iterations": 1, "device": "cpu"},
            "net": {"size": 6, "channels": 4, "fc1": 8, "fc2": 8, "score_head": True},
            "mcts": {"sims": 4, "root": "gumbel", "gumbel_m": 4},
            "selfplay": {"games_per_iteration": 4, "concurrent_games": 2, "temp_moves": 2,
                         "full_search_prob": 0.5, "cheap_sims": 2, "exact_empties": 6, **sp},
            "train": {"steps": 2, "batch_size": 16, "window": 2, "score_weight": 0.5,
                      "value_margin": 0.25},
            "gate": {"pairs": 1, "opening_plies": 2, "rule": "always"},
        }
    )  # fmt: skip


@pytest.mark.slow
def test_every_switch_on_writes_trains_gates_and_resumes(tmp_path: Path) -> None:
    from bitflip.learn.shards import NO_SCORE, read_shards

    cfg = _switches(tmp_path, exact_leaf_empties=4, exact_policy_empties=5)
    run = az.run_loop(cfg)
    assert run.iterations_done() == 1 and len(run.generations()) == 2
    assert load_az_net(run.best_net()).config.score_head
    assert "score_loss" in json.loads((run.checkpoints / "it0000.json").read_text())
    (run.shards / "it0001-000.npz.tmp.npz").write_bytes(b"partial")  # killed mid-shard
    (run.checkpoints / "it0001.json.tmp").write_text("{")
    az.run_loop(replace(cfg, iterations=2))
    assert run.iterations_done() == 2
    batch = read_shards(sorted(run.shards.glob("it0000-*.npz")))
    known = batch.theoretical != NO_SCORE
    holes = 36 - np.array([int(x).bit_count() for x in batch.player | batch.opponent])
    assert known.any() and np.array_equal(known, holes <= 6)
    mask = Board(size=6).geometry.mask
    for i in np.flatnonzero(known)[:10]:
        assert batch.theoretical[i] == _negamax(int(batch.player[i]), int(batch.opponent[i]), mask)
    # At <= 5 empties with a choice, the solver's policy target replaced the search's.
    from bitflip.learn.az_selfplay import exact_policies
    from bitflip.nn.alphazero import action_squares

    rows, targets, _ = exact_policies(batch.player, batch.opponent, 6, 5)
    assert len(rows) and np.allclose(batch.policy[rows], targets[:, action_squares(6)])
    data = read_selfplay_shards(sorted(run.shards.glob("it0000-*.npz")), 6)
    assert np.array_equal(data.value[known], np.sign(batch.theoretical[known]))
    filled = read_selfplay_shards(sorted(run.shards.glob("it0000-*.npz")), 6, True)
    assert np.array_equal(filled.margin[known], data.margin[known])
    assert np.array_equal(filled.value, np.sign(filled.margin))
    assert np.allclose(data.policy.sum(axis=1), 1.0, atol=1e-2)


def test_playout_cap_keeps_only_full_searches_with_their_targets() -> None:
    from bitflip.learn.az_selfplay import SelfPlaySearch, keep_trained_rows
    from bitflip.search.mcts import MCTSConfig
    from bitflip.search.mcts.games import play_games

    net = AZNet(AZNetConfig(size=6, channels=4, fc1=8, fc2=8)).eval()
    cfg = MCTSConfig(sims=8, root="gumbel", gumbel_m=4)
    search = SelfPlaySearch(NetPolicyValue(net), 3, cfg, full_search_prob=0.3, cheap_sims=2)
    games = play_games([search], np.zeros((3, 2), np.int64), record=True, noise=True, seed=1)
    kept = keep_trained_rows(games, search)
    forced = games.legal[games.legal != 0]
    n_forced = sum(int(x).bit_count() == 1 for x in forced) + int((games.legal == 0).sum())
    assert len(kept.player) == len(search.targets) + n_forced
    assert 0 < len(search.targets) < len(search.cheap_keys)
    for i in range(len(kept.player)):
        key = (int(kept.game[i]), int(kept.player[i]), int(kept.opponent[i]))
        if key in search.targets:
            assert np.allclose(kept.policy[i], search.targets[key])
    again = SelfPlaySearch(NetPolicyValue(net), 3, cfg, full_search_prob=0.3, cheap_sims=2)
    replay = play_games([again], np.zeros((3, 2), np.int64), record=True, noise=True, seed=1)
    assert replay.moves == games.moves and again.targets.keys() == search.targets.keys()
    # Without caps and with the PUCT root the searcher is the plain one (runs unchanged).
    from bitflip.learn.az_selfplay import selfplay_search
    from bitflip.search.mcts import BatchedMCTS

    plain = selfplay_search(NetPolicyValue(net), 2, MCTSConfig(sims=4))
    assert type(plain) is BatchedMCTS

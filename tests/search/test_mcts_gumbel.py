"""The Gumbel root on a known tree: chosen move, improved policy and budget by the paper's rules."""

from __future__ import annotations

import numpy as np
import pytest

from bitflip.core import bitboard as bb
from bitflip.core.board import Board
from bitflip.search.mcts import BatchedMCTS, BatchedSearch, GumbelMCTS, MCTSConfig, make_mcts
from bitflip.search.mcts.games import play_match
from bitflip.search.mcts.gumbel import halving_schedule

START = Board(size=6)
MOVES = sorted(int(m) for m in START.legal_moves)  # the 4 opening moves, 8x8 numbering
PRIOR = np.array([0.4, 0.3, 0.2, 0.1])
CHILD_VALUE = np.array([0.5, -0.2, -0.6, 0.0])  # each child's value for its own mover
ROOT_VALUE = 0.1


class KnownTree:
    """Priors PRIOR at the start, CHILD_VALUE at its children, value 0 and uniform elsewhere.

    Every visit below a child evaluates a grandchild or deeper at 0, so after N visits a root
    move's mean value for the root's mover is q(a) = -CHILD_VALUE[a] / N.
    """

    size = 6

    def __init__(self) -> None:
        p, o = START.side_bitboards()
        self.root = (p, o)
        mask = np.uint64(START.geometry.mask)
        self.children = {}
        for i, sq in enumerate(MOVES):
            c = bb.play(np.uint64(p), np.uint64(o), sq)
            assert bb.legal_moves(c[0], c[1], mask)
            self.children[(int(c[0]), int(c[1]))] = CHILD_VALUE[i]
        self.batches: list[int] = []

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.batches.append(len(p))
        pol = np.ones((len(p), 65), np.float32)
        val = np.zeros(len(p), np.float32)
        for i, key in enumerate(zip(p.tolist(), o.tolist(), strict=True)):
            if key == self.root:
                pol[i] = 0.0
                pol[i, MOVES] = PRIOR
                val[i] = ROOT_VALUE
            else:
                val[i] = self.children.get(key, 0.0)
        return pol, val


def _search(
    m: int, sims: int, games: int = 1, noise: bool = False, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray, KnownTree]:
    pv = KnownTree()
    cfg = MCTSConfig(sims=sims, root="gumbel", gumbel_m=m)
    mcts = make_mcts(pv, games, cfg, seed=seed)
    assert isinstance(mcts, GumbelMCTS)
    p, o = START.side_bitboards()
    out = mcts.search(np.full(games, p, np.uint64), np.full(games, o, np.uint64), noise=noise)
    assert out.policy is not None
    return out.visits[:, MOVES], out.policy[:, MOVES], out.visits, pv


def _sigma(q: np.ndarray, n_max: float) -> np.ndarray:
    return (50.0 + n_max) * 1.0 * (q + 1.0) / 2.0  # c_visit 50, c_scale 1, q in [0, 1]


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max())
    return e / e.sum()


def test_schedule_spends_the_budget_by_sequential_halving() -> None:
    # ceil(log2 m) phases; each remaining move gets max(1, n // (log2 m * remaining)) visits.
    assert halving_schedule(4, 8) == [4, 2, 2]
    assert halving_schedule(16, 16) == [16]
    assert halving_schedule(16, 64) == [16, 8, 8, 4, 4, 4, 4] + [2] * 8
    assert halving_schedule(8, 3) == [3]  # budget ends inside the first pass
    assert halving_schedule(1, 3) == [1, 1, 1]
    for m in range(1, 17):
        for n in range(1, 40):
            assert sum(halving_schedule(m, n)) == n


def test_known_tree_all_moves_sampled() -> None:
    # m = 4, n = 8: one visit each, keep the best 2 by logits + sigma(q), 2 more visits each.
    visits, policy, raw, pv = _search(m=4, sims=8)
    logits = np.log(PRIOR)
    q1 = -CHILD_VALUE  # after one visit each
    kept = np.argsort(-(logits + _sigma(q1, 1.0)))[:2]
    assert sorted(kept.tolist()) == [1, 2]  # sigma: 51 * [0.25, 0.6, 0.8, 0.5]
    n = np.array([1.0, 3.0, 3.0, 1.0])
    assert np.array_equal(np.floor(visits[0]), n) and visits[0].sum() == 8.5
    q = -CHILD_VALUE / n
    final = logits + _sigma(q, 3.0)
    chosen = 1 + int(np.argmax(final[1:3]))  # the best of the most visited
    assert chosen == 2 and visits[0, chosen] == 3.5  # half a visit marks the move played
    assert np.allclose(policy[0], _softmax(final), atol=1e-6)  # every move visited: q-hat = q
    assert pv.batches == [1, 4, 2, 2]  # the root, then one batch per pass
    assert raw[0].sum() == 8.5


def test_known_tree_unvisited_moves_get_the_mixed_value() -> None:
    # m = 2, n = 2: the two highest priors get a visit each; the others complete with v_mix.
    visits, policy, _, _ = _search(m=2, sims=2)
    assert np.array_equal(np.floor(visits[0]), [1, 1, 0, 0])
    logits = np.log(PRIOR)
    q = -CHILD_VALUE[:2]
    v_mix = (ROOT_VALUE + 2 * (PRIOR[:2] @ q) / PRIOR[:2].sum()) / (1 + 2)
    assert v_mix == pytest.approx(-0.1)
    q_hat = np.array([q[0], q[1], v_mix, v_mix])
    z = logits + _sigma(q_hat, 1.0)
    assert np.allclose(policy[0], _softmax(z), atol=1e-6)
    assert visits[0, 1] == 1.5  # move 1: -1.20 + 51 * 0.6 beats -0.92 + 51 * 0.25


def test_gumbel_top_1_samples_the_prior() -> None:
    # m = 1, n = 1: the move played is argmax g + logits, a sample of the prior (Gumbel-max).
    visits, _, _, _ = _search(m=1, sims=1, games=4000, noise=True, seed=5)
    played = np.argmax(visits, axis=1)
    freq = np.bincount(played, minlength=4) / len(played)
    assert np.allclose(freq, PRIOR, atol=0.03)


def test_games_batched_together_search_as_alone() -> None:
    alone = _search(m=4, sims=8)[0]
    together = _search(m=4, sims=8, games=3)[0]
    assert np.array_equal(together, np.repeat(alone, 3, axis=0))


@pytest.mark.parametrize("sims", [2, 4, 16])
def test_gumbel_plays_matches_with_few_simulations(sims: int) -> None:
    from bitflip.search.mcts.rollout import RolloutPolicyValue

    cfg = MCTSConfig(sims=sims, root="gumbel", gumbel_m=4)
    a = make_mcts(RolloutPolicyValue(6, seed=1), 4, cfg, seed=1)
    b = BatchedMCTS(RolloutPolicyValue(6, seed=2), 4, MCTSConfig(sims=sims))
    res = play_match(a, b, 2, opening_plies=2, seed=3)
    assert res.games == 4


def test_gumbel_plays_opening_moves_by_visit_proportion() -> None:
    """A game the Gumbel root left out of a round has no visits; with a temperature it used to
    be sampled anyway (probabilities NaN) and stopped play_games."""
    from bitflip.search.mcts.games import play_games, random_lines
    from bitflip.search.mcts.rollout import RolloutPolicyValue

    cfg = MCTSConfig(sims=8, root="gumbel", gumbel_m=4)
    a = make_mcts(RolloutPolicyValue(6, seed=1), 4, cfg, seed=2)
    b = BatchedMCTS(RolloutPolicyValue(6, seed=3), 4, MCTSConfig(sims=8), seed=4)
    seats = np.array([[0, 1], [1, 0], [0, 1], [1, 0]])
    out = play_games([a, b], seats, temp_moves=4, openings=random_lines(4, 2, 6, 5), seed=5)
    assert len(out.black_margin) == 4 and all(len(m) > 0 for m in out.moves)


def test_plain_batched_search_refuses_a_gumbel_config() -> None:
    with pytest.raises(ValueError, match="make_mcts"):
        BatchedMCTS(KnownTree(), 1, MCTSConfig(root="gumbel"))
    gumbel = make_mcts(KnownTree(), 2, MCTSConfig(root="gumbel", gumbel_m=3), seed=4)
    # The Gumbel root is its own search that owns PUCT trees, not a PUCT search.
    assert isinstance(gumbel, BatchedSearch) and not isinstance(gumbel, BatchedMCTS)
    assert isinstance(gumbel.tree, BatchedMCTS) and gumbel.tree.num_games == 6
    assert (gumbel.num_games, gumbel.size) == (2, KnownTree().size)
    with pytest.raises(TypeError, match="abstract"):
        BatchedSearch(KnownTree(), 1, MCTSConfig())  # type: ignore[abstract]
    with pytest.raises(ValueError, match="root"):
        MCTSConfig(root="alphago")


def test_mcts_agent_spec_with_the_gumbel_root() -> None:
    from bitflip.agents import make_agent

    agent = make_agent("mcts:sims=4,size=6,root=gumbel,gumbel_m=2", seed=0)
    b = Board(size=6)
    b.push("b3")
    assert agent.select_move(b) in b.legal_moves
    assert "root=gumbel" in agent.name

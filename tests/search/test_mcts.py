"""Batched PUCT search: legality, exact terminal values, virtual loss, noise, agents."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bitflip.agents import make_agent
from bitflip.core import bitboard as bb
from bitflip.core.bitboard import margin_with_empties
from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.search.mcts import BatchedMCTS, MCTSConfig, PolicyValueFn, choose_moves, make_mcts
from bitflip.search.mcts.games import play_games, play_match, random_lines
from bitflip.search.mcts.rollout import RolloutPolicyValue, rollout_values
from bitflip.search.mcts.tree import _terminal_value


class UniformPolicyValue:
    """Uniform priors, value 0: the search alone must find what matters."""

    def __init__(self, size: int, illegal_mass: bool = False) -> None:
        self.size = size
        self.illegal_mass = illegal_mass
        self.batches: list[int] = []

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        self.batches.append(len(p))
        pol = np.ones((len(p), 65), np.float32)
        if self.illegal_mass:  # all the weight on occupied squares: must be masked away
            pol[:] = 0.0
            for i in range(len(p)):
                occ = int(p[i]) | int(o[i])
                for sq in range(64):
                    if occ >> sq & 1:
                        pol[i, sq] = 1.0
        return pol, np.zeros(len(p), np.float32)


def _sides(b: Board) -> tuple[np.ndarray, np.ndarray]:
    p, o = b.side_bitboards()
    return np.array([p], np.uint64), np.array([o], np.uint64)


def test_visits_only_on_legal_moves_and_sum_to_sims() -> None:
    b = Board(size=6)
    ev = UniformPolicyValue(6, illegal_mass=True)
    out = BatchedMCTS(ev, 1, MCTSConfig(sims=40)).search(*_sides(b))
    legal = set(b.legal_moves)
    visited = {int(m) for m in np.flatnonzero(out.visits[0])}
    assert visited and visited <= legal
    assert out.visits[0].sum() == 39  # the first simulation evaluates the root itself
    assert isinstance(ev, PolicyValueFn)


def _position_with_winning_move() -> tuple[Board, int]:
    rng = np.random.default_rng(3)
    mask = np.uint64(Board(size=4).geometry.mask)
    for _ in range(200):
        b = Board(size=4)
        while not b.is_game_over():
            moves = list(b.legal_moves)
            p, o = (np.uint64(x) for x in b.side_bitboards())
            wins, others = [], []
            for m in moves:
                if m == PASS:
                    continue
                q, r = bb.play(p, o, m)
                over = bb.legal_moves(q, r, mask) == 0 and bb.legal_moves(r, q, mask) == 0
                (wins if over and bb.popcount(r) > bb.popcount(q) else others).append(m)
            if len(wins) == 1 and others:
                return b, wins[0]
            b.push(moves[int(rng.integers(len(moves)))])
    raise AssertionError("no test position found")


def test_finds_the_move_that_wins_at_once() -> None:
    b, win = _position_with_winning_move()
    out = BatchedMCTS(UniformPolicyValue(4), 1, MCTSConfig(sims=200)).search(*_sides(b))
    assert int(np.argmax(out.visits[0])) == win
    assert out.value[0] > 0.5


def test_draws_are_worth_zero() -> None:
    full = np.uint64(0xFFFF)  # a 4x4 board in the low bits (only the count of squares matters)
    assert _terminal_value(np.uint64(0b11), np.uint64(0b1100), full, 0.0) == 0.0
    assert _terminal_value(np.uint64(0b111), np.uint64(0b1000), full, 0.0) == 1.0
    assert margin_with_empties(0, 16) == 0 and margin_with_empties(2, 14) == 16


def test_finished_games_are_valued_on_the_nets_scale() -> None:
    """value_margin blends the margin in (empties to the winner), as the net's target does."""
    full = np.uint64(0xFFFF)
    win = _terminal_value(np.uint64(0b111), np.uint64(0b1000), full, 0.5)  # 3-1, 12 empty: +14
    assert win == pytest.approx(0.5 + 0.5 * 14 / 16)
    loss = _terminal_value(np.uint64(0b1000), np.uint64(0b111), full, 1.0)
    assert loss == pytest.approx(-14 / 16)
    with pytest.raises(ValueError, match="value_margin"):
        MCTSConfig(value_margin=1.5)


def test_virtual_loss_batches_leaves_of_many_games() -> None:
    b = Board(size=6)
    ev = UniformPolicyValue(6)
    p, o = _sides(b)
    g = 8
    mcts = BatchedMCTS(ev, g, MCTSConfig(sims=33, leaves_per_game=4))
    out = mcts.search(np.repeat(p, g), np.repeat(o, g))
    assert np.all(out.visits.sum(axis=1) >= 32)
    assert max(ev.batches) > g  # several leaves per game in one policy-value call
    assert out.batches < 33  # fewer calls than one leaf per call would need


def test_inactive_games_are_not_searched() -> None:
    b = Board(size=6)
    p, o = _sides(b)
    out = BatchedMCTS(UniformPolicyValue(6), 2, MCTSConfig(sims=10)).search(
        np.repeat(p, 2), np.repeat(o, 2), np.array([True, False])
    )
    assert out.visits[0].sum() > 0 and out.visits[1].sum() == 0


@pytest.mark.parametrize("root", ["puct", "gumbel"])
def test_every_search_checks_its_batch_the_same_way(root: str) -> None:
    p, o = _sides(Board(size=6))
    search = make_mcts(UniformPolicyValue(6), 2, MCTSConfig(sims=8, root=root, gumbel_m=2))
    with pytest.raises(ValueError, match="3 positions but the search holds 2 games"):
        search.search(np.repeat(p, 3), np.repeat(o, 3))
    out = search.search(np.repeat(p, 2), np.repeat(o, 2), np.array([False, True]))
    assert out.visits[0].sum() == 0 and out.visits[1].sum() > 0
    assert out.visits.shape == (2, 65) and out.value.shape == (2,)


def test_root_noise_changes_the_search() -> None:
    b = Board()
    p, o = _sides(b)
    cfg = MCTSConfig(sims=60, dirichlet_alpha=0.3, dirichlet_eps=0.5)
    plain = BatchedMCTS(UniformPolicyValue(8), 1, cfg, seed=1).search(p, o).visits
    noisy = [BatchedMCTS(UniformPolicyValue(8), 1, cfg, seed=s).search(p, o, noise=True).visits
             for s in range(3)]  # fmt: skip
    assert any(not np.array_equal(plain, v) for v in noisy)


class RootValuedPolicyValue:
    """Uniform priors; the root position is worth ``root_value`` to its mover, others 0."""

    def __init__(self, root: Board, root_value: float) -> None:
        self.size = root.size
        self.root = root.side_bitboards()
        self.root_value = root_value

    def evaluate(self, p: np.ndarray, o: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        at_root = [(int(a), int(b)) == self.root for a, b in zip(p, o, strict=True)]
        values = np.where(at_root, self.root_value, 0.0).astype(np.float32)
        return np.ones((len(p), 65), np.float32), values


@pytest.mark.parametrize("fpu, wide", [(0.2, True), (0.8, False)])
def test_unvisited_moves_are_valued_from_the_position_with_fpu_parent(
    fpu: float, wide: bool
) -> None:
    # Every visited root move is worth 0; the root is worth 0.5. Unvisited moves worth 0.5 - 0.2
    # beat them, so the 4 descents spread over the 4 moves; worth 0.5 - 0.8, the search stays
    # with the first move it tried. (A constant fpu would behave the same at either setting.)
    b = Board()
    cfg = MCTSConfig(sims=5, cpuct=0.01, fpu=fpu, fpu_parent=True, leaves_per_game=1)
    visits = BatchedMCTS(RootValuedPolicyValue(b, 0.5), 1, cfg).search(*_sides(b)).visits[0]
    assert visits.sum() == 4
    assert np.count_nonzero(visits) == (4 if wide else 1)


def test_choose_moves_temperature() -> None:
    rng = np.random.default_rng(0)
    visits = np.zeros((2, 65), np.float32)
    visits[:, 10] = 5
    visits[:, 20] = 1
    greedy = choose_moves(visits, np.zeros(2), rng)
    assert list(greedy) == [10, 10]
    sampled = [choose_moves(visits[:1], np.ones(1), rng)[0] for _ in range(200)]
    assert set(sampled) == {10, 20}
    unsearched = np.zeros((1, 65), np.float32)  # a game left out of the round
    assert 0 <= choose_moves(unsearched, np.ones(1), rng)[0] <= 64


def test_rollouts_score_a_finished_game_exactly() -> None:
    b = Board("XXXXXXXXXXXXXXXO X")
    p, o = (np.array([x], np.uint64) for x in b.side_bitboards())
    v = rollout_values(p, o, np.uint64(b.geometry.mask), 3, 0)
    assert v[0] == 1.0


def test_selfplay_records_targets() -> None:
    mcts = BatchedMCTS(RolloutPolicyValue(4, seed=0), 3, MCTSConfig(sims=8))
    games = play_games([mcts], np.zeros((3, 2), np.int64), record=True, temp_moves=2, noise=True)
    assert len(games.player) > 0
    assert np.allclose(games.policy.sum(axis=1), 1.0)
    legal_cols = [(int(games.legal[i]) >> int(games.move[i])) & 1 for i in range(len(games.move))]
    assert all(legal_cols)
    assert set(games.game) == {0, 1, 2}


def test_games_start_from_the_given_openings() -> None:
    mcts = BatchedMCTS(RolloutPolicyValue(6, seed=0), 4, MCTSConfig(sims=4))
    lines = random_lines(2, 3, 6, seed=1)
    openings = [lines[0], lines[0], lines[1], []]  # a shared one, another, none
    out = play_games([mcts], np.zeros((4, 2), np.int64), openings=openings, record=True)
    for g, line in enumerate(openings):
        assert out.moves[g][: len(line)] == line
        assert out.ply[out.game == g].min() == len(line)  # the opening is not recorded
    with pytest.raises(ValueError, match=r"opening move 1 of game 0 \(0\) is illegal"):
        play_games([mcts], np.zeros((1, 2), np.int64), openings=[[0]])  # a1 at the start
    with pytest.raises(ValueError, match="2 openings for 4 games"):
        play_games([mcts], np.zeros((4, 2), np.int64), openings=lines)
    with pytest.raises(ValueError, match="1 openings for 2 pairs"):
        play_match(mcts, mcts, 2, openings=lines[:1])


def test_match_against_an_agent_swaps_colours() -> None:
    mcts = BatchedMCTS(RolloutPolicyValue(4, seed=0), 4, MCTSConfig(sims=30))
    res = play_match(mcts, make_agent("random", seed=1), 2, opening_plies=1)
    assert res.games == 4
    assert res.wins >= 2


@pytest.mark.parametrize("spec", ["mcts:sims=20,size=6", "mcts:sims=20,size=6,leaves=4"])
def test_mcts_agent_plays_legal_moves(spec: str) -> None:
    agent = make_agent(spec, seed=0)
    b = Board(size=6)
    for _ in range(6):
        m = agent.select_move(b)
        assert m in b.legal_moves
        b.push(m)


def test_mcts_agent_passes_when_it_must() -> None:
    rng = np.random.default_rng(0)
    while True:
        b = Board(size=4)
        while not b.is_game_over() and list(b.legal_moves) != [PASS]:
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        if not b.is_game_over():
            break
    assert make_agent("mcts:sims=5,size=4").select_move(b) == PASS


def test_mcts_agent_plays_an_exact_best_move_with_few_empties() -> None:
    from bitflip.search.exact import solve_moves

    rng = np.random.default_rng(3)
    agent = make_agent("mcts:sims=2,size=6,exact=8", seed=0)
    checked = 0
    for _ in range(4):
        b = Board(size=6)
        while not b.is_game_over():
            moves = list(b.legal_moves)
            if bin(b.empty).count("1") <= 8 and len(moves) > 1:
                values = solve_moves(*b.side_bitboards(), b.geometry.mask)
                assert values[agent.select_move(b)] == values.max()
                checked += 1
            b.push(moves[rng.integers(len(moves))])
    assert checked > 5
    with pytest.raises(ValueError, match="exact"):
        make_agent("mcts:sims=2,exact=-1")


def _endgames(size: int, empties: int, count: int, seed: int) -> list[Board]:
    """Random positions with at most ``empties`` empty squares and a choice of moves."""
    rng = np.random.default_rng(seed)
    out: list[Board] = []
    while len(out) < count:
        b = Board(size=size)
        while not b.is_game_over():
            moves = list(b.legal_moves)
            if b.empties <= empties and len(moves) > 1:
                out.append(b.copy())
                break
            b.push(moves[int(rng.integers(len(moves)))])
    return out


def test_solver_proves_short_endgames_from_the_trees_own_visits() -> None:
    """Score bounds: with 400 simulations and a net that knows nothing, the tree proves many
    positions with <= 5 empties by itself; where it solved the root, the move played keeps the
    exact value and the root value is the exact one on the net's scale. It keeps the exact
    value more often than plain PUCT."""
    from bitflip.search.exact import solve_moves

    cfg = MCTSConfig(sims=400, leaves_per_game=8, value_margin=0.5)
    searches = {s: BatchedMCTS(UniformPolicyValue(6), 1, replace(cfg, solver=s)) for s in (0, 1)}
    kept = {0: 0, 1: 0}
    solved = 0
    boards = _endgames(6, 5, 100, seed=5)
    for b in boards:
        values = solve_moves(*b.side_bitboards(), b.geometry.mask)
        best = int(values.max())
        for solver, search in searches.items():
            out = search.search(*_sides(b))
            good = values[int(np.argmax(out.visits[0]))] == best
            kept[solver] += good
            pool = search.pool
            if solver and pool.nlow[0, 0] == pool.nhigh[0, 0]:
                solved += 1
                assert good and pool.nlow[0, 0] == best
                assert out.value[0] == pytest.approx(0.5 * np.sign(best) + 0.5 * best / 36)
    assert solved >= 20
    assert kept[1] > kept[0]


@pytest.mark.parametrize(
    ("bounds", "visits", "left"),
    [
        # (lo, hi) of each root move for its player (None: never expanded), visits, visits left
        ([(-2, 0), (0, 0), (-64, 64)], [9, 1, 5], [0, 1, 5]),  # at best what a move makes sure of
        ([(-64, -2), (-64, 64), None], [10, 5, 0], [10, 5, 0]),  # only bounds: no say
        ([(2, 2), (-64, 64), (-4, 2)], [3, 9, 9], [3, 9, 0]),  # a bigger win may be there
        ([(4, 4), (-6, 4), (-6, 6)], [3, 9, 9], [3, 0, 9]),
    ],
)
def test_root_moves_proved_worse_are_not_played(
    bounds: list[tuple[int, int] | None], visits: list[float], left: list[float]
) -> None:
    from bitflip.search.mcts import tree as t

    pool = t.TreePool(1, 8, 8, 1)
    pool.nstate[0, 0] = t.EXPANDED
    pool.nfirst[0, 0], pool.nnum[0, 0] = 0, len(bounds)
    for e, bound in enumerate(bounds):
        pool.emove[0, e] = e
        pool.echild[0, e] = -1 if bound is None else e + 1
        if bound is not None:  # a child's bounds are for its own mover: the negated pair
            pool.nlow[0, e + 1], pool.nhigh[0, e + 1] = -bound[1], -bound[0]
    children = [(-64, 64) if b is None else b for b in bounds]
    pool.nlow[0, 0] = max(lo for lo, _ in children)
    pool.nhigh[0, 0] = max(hi for _, hi in children)
    out = np.zeros((1, 65), np.float32)
    out[0, : len(visits)] = visits
    t.drop_disproved_root_moves(pool.nfirst, pool.nnum, pool.nstate, pool.emove, pool.echild,
                                pool.nlow, pool.nhigh, np.uint64(2**36 - 1), 0.0, out,
                                np.zeros(1, np.float32))  # fmt: skip
    assert out[0, : len(left)].tolist() == left


def test_solver_changes_nothing_before_the_tree_reaches_an_end() -> None:
    b = Board(size=8)
    cfg = MCTSConfig(sims=300, leaves_per_game=4)
    off = BatchedMCTS(UniformPolicyValue(8), 1, cfg).search(*_sides(b))
    on = BatchedMCTS(UniformPolicyValue(8), 1, replace(cfg, solver=True)).search(*_sides(b))
    np.testing.assert_array_equal(off.visits, on.visits)
    np.testing.assert_array_equal(off.value, on.value)
    agent = make_agent("mcts:sims=5,size=6,solver=true")
    assert agent.name == "mcts:sims=5,solver=true" and agent.config.solver
    gumbel = make_agent("mcts:sims=32,size=6,root=gumbel,solver=true", seed=0)
    for end in _endgames(6, 6, 5, seed=2):  # the trees below the Gumbel root keep bounds
        assert gumbel.select_move(end) in end.legal_moves


@pytest.mark.slow
@pytest.mark.parametrize("solver", [False, True])
def test_parallel_kernels_search_like_the_serial_ones(
    monkeypatch: pytest.MonkeyPatch, solver: bool
) -> None:
    b = Board(size=6)
    while b.empties > 8:  # a position whose trees reach finished games
        b.push(min(b.legal_moves))
    assert not b.is_game_over()
    p = np.full(8, b.black, np.uint64)
    o = np.full(8, b.white, np.uint64)
    cfg = MCTSConfig(sims=40, leaves_per_game=4, solver=solver)
    serial = BatchedMCTS(UniformPolicyValue(6), 8, cfg).search(p, o)
    monkeypatch.setattr("bitflip.core.parallel.threads_for", lambda work: 2)
    parallel = BatchedMCTS(UniformPolicyValue(6), 8, cfg).search(p, o)
    np.testing.assert_array_equal(serial.visits, parallel.visits)
    np.testing.assert_array_equal(serial.value, parallel.value)

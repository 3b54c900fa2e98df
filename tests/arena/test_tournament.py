"""Tournament plans, validation, resuming from the store, and the SPRT gate."""

from __future__ import annotations

import pytest

from bitflip.agents import AgentSpecError
from bitflip.arena.sprt import SequentialTest
from bitflip.arena.store import Store
from bitflip.arena.tournament import TournamentConfig, plan, run_tournament, sprt_match, validate


def test_round_robin_plays_every_opening_with_both_colours() -> None:
    cfg = TournamentConfig(("random", "greedy", "positional"), games=4, openings="random:4")
    tasks = plan(cfg)
    assert len(tasks) == 3 * 4 and len({t.key for t in tasks}) == 12
    pairs = {frozenset((t.black, t.white)) for t in tasks}
    assert len(pairs) == 3
    for pair in pairs:
        mine = [t for t in tasks if {t.black, t.white} == pair]
        assert sorted(t.slot for t in mine) == [0, 0, 1, 1]
        for slot in (0, 1):
            a, b = (t for t in mine if t.slot == slot)
            assert (a.black, a.white) == (b.white, b.black) and a.opening == b.opening
    assert [t.key for t in plan(cfg)] == [t.key for t in tasks]  # stable across runs
    other = TournamentConfig(cfg.specs, games=4, openings="random:4", seed=1)
    assert not {t.key for t in plan(other)} & {t.key for t in tasks}


def test_gauntlet() -> None:
    cfg = TournamentConfig(("random", "greedy"), vs="positional", games=2, openings="random:4")
    assert cfg.players() == ["positional", "random", "greedy"]
    tasks = plan(cfg)
    assert len(tasks) == 4 and all("positional" in (t.black, t.white) for t in tasks)


def test_validate() -> None:
    cfg = validate(TournamentConfig(("Random", "minimax: depth=1"), games=2))
    assert cfg.specs == ("random", "minimax:depth=1")
    bad = [
        (TournamentConfig(("random", "greedy"), games=3), "must be even"),
        (TournamentConfig(("random", "RANDOM")), "listed twice"),
        (TournamentConfig(("random",)), "at least two"),
        (TournamentConfig(("random", "greedy"), size=7), "6 or 8"),
        (TournamentConfig(("random", "greedy"), time_per_move=0), "positive"),
        (TournamentConfig(("random", "nosuch")), "unknown agent 'nosuch'"),
    ]
    for c, msg in bad:
        with pytest.raises(ValueError, match=msg):
            validate(c)
    with pytest.raises(AgentSpecError, match="depth"):
        validate(TournamentConfig(("random", "minimax:depth=0")))


def test_run_resume_and_extend() -> None:
    cfg = validate(TournamentConfig(("random", "greedy"), games=4, openings="random:4", workers=2))
    with Store(":memory:") as store:
        first = run_tournament(cfg, store)
        assert (first.played, first.skipped, len(first.games)) == (4, 0, 4)
        again = run_tournament(cfg, store)
        assert (again.played, again.skipped) == (0, 4)
        assert [g.moves for g in again.games] == [g.moves for g in first.games]
        bigger = validate(TournamentConfig(cfg.specs, games=8, openings="random:4", workers=2))
        more = run_tournament(bigger, store)
        assert (more.played, more.skipped, len(more.games)) == (4, 4, 8)


def test_sprt_gate_accepts_a_much_stronger_agent() -> None:
    seen = []
    r = sprt_match(
        "positional",
        "random",
        test=SequentialTest(elo0=0, elo1=150),
        max_games=60,
        batch=10,
        openings="random:4",
        workers=2,
        on_batch=seen.append,
    )
    assert r.decision == "H1" and r.games <= 60 and seen[-1] == r
    assert all(s.decision is None for s in seen[:-1])

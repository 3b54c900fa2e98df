"""The Ray backend plays the same games as the local one (on a local Ray instance)."""

from __future__ import annotations

import pytest

from bitflip.arena.store import Store
from bitflip.arena.tournament import TournamentConfig, run_tournament, validate


@pytest.mark.slow
def test_ray_plays_the_same_games_as_local_processes() -> None:
    pytest.importorskip("ray", reason="ray is not installed (pip install 'bitflip[distributed]')")
    cfg = validate(
        TournamentConfig(("random", "positional"), games=4, openings="random:4", workers=2, seed=3)
    )
    with Store(":memory:") as local_store, Store(":memory:") as ray_store:
        local = run_tournament(cfg, local_store)
        seen: list[str] = []
        remote = run_tournament(
            cfg, ray_store, backend="ray", on_result=lambda r: seen.append(r.task.key)
        )
    assert remote.played == 4 and sorted(seen) == sorted(g.key for g in local.games)
    by_key = {g.key: g for g in remote.games}
    for g in local.games:
        r = by_key[g.key]
        assert (r.moves, r.score, r.margin, r.error) == (g.moves, g.score, g.margin, None)


def test_unknown_backend() -> None:
    cfg = TournamentConfig(("random", "greedy"), games=2, openings="random:2")
    with Store(":memory:") as store, pytest.raises(ValueError, match="unknown backend 'spark'"):
        run_tournament(cfg, store, backend="spark")

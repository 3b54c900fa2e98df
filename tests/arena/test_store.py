"""The SQLite store: round trip, keys for resuming, bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.arena.match import GameResult, GameTask, play_game
from bitflip.arena.store import Store
from bitflip.core.board import WHITE


def test_round_trip(tmp_path: Path) -> None:
    db = tmp_path / "r.sqlite"
    t = GameTask(key="k1", black="random", white="greedy", opening=(37,), seed=3, time_per_move=2.0)
    r = play_game(t)
    forfeit = GameResult(
        GameTask(key="k2", black="a", white="b"),
        moves=[37],
        score=1.0,
        error="boom",
        error_side=WHITE,
    )
    with Store(db) as s:
        s.add(r)
        s.add(forfeit)
        s.add(r)  # storing the same key again replaces it
    with Store(db) as s:
        assert s.keys() == {"k1", "k2"} and len(s) == 2
        g1, g2 = sorted(s.games(), key=lambda g: g.key)
        assert [g.key for g in s.games(["k2"])] == ["k2"]
    assert g1.times() == pytest.approx(r.times, abs=1e-4)
    assert g1.moves == r.transcript and g1.move_list() == r.moves and g1.opening == "f5"
    assert (g1.black_discs, g1.white_discs, g1.score, g1.margin) == (
        r.black_discs,
        r.white_discs,
        r.score,
        r.margin,
    )
    assert g1.time_per_move == 2.0 and g1.seed == 3 and g1.time_black == pytest.approx(r.time_black)
    assert g1.black_version == r.black_version and g1.error is None and g1.played_at
    assert (g2.error, g2.error_side, g2.margin, g2.black_discs) == ("boom", "white", None, None)
    rec = g2.to_record()
    assert rec.moves == [37] and rec.black == "a"
    assert rec.extra == {"RE": "+64.000:r", "C": "forfeit by white: boom"}
    assert g1.to_record().board().is_game_over() and g1.to_record().times == g1.times()


def test_bad_files(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all, just some text" * 20)
    with pytest.raises(ValueError, match="junk.sqlite: not a bitflip results database"):
        Store(junk)
    with pytest.raises(ValueError):
        Store(tmp_path / "no" / "such" / "dir.sqlite")

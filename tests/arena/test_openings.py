"""Opening files, random and balanced openings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bitflip.arena.openings import (
    BalanceSearch,
    Opening,
    balanced_openings,
    load_openings,
    minimax_scorer,
    parse_opening,
    random_openings,
    resolve_openings,
)
from bitflip.core.geometry import PASS


def test_parse_and_replay() -> None:
    op = parse_opening("f5 d6 C3")
    assert op.transcript == "f5d6c3" and op.board().ply == 3
    assert Opening(()).transcript == "" and Opening(()).board().ply == 0
    with pytest.raises(ValueError, match="bad move 2 of opening 'f5f5'.*occupied.*x.txt, line 3"):
        parse_opening("f5f5", where="x.txt, line 3")
    with pytest.raises(ValueError, match="odd number"):
        parse_opening("f5d")
    with pytest.raises(ValueError, match="bad move 1"):
        parse_opening("h8", size=6)


def test_load_file_with_comments_and_a_bad_line(tmp_path: Path) -> None:
    f = tmp_path / "ops.txt"
    f.write_text("# two openings\nf5d6\n\nf5f6  # parallel\n")
    assert [o.transcript for o in load_openings(f)] == ["f5d6", "f5f6"]
    f.write_text("f5d6\nf5z9\n")
    with pytest.raises(ValueError, match=r"ops.txt, line 2"):
        load_openings(f)
    f.write_text("# nothing\n")
    with pytest.raises(ValueError, match="no openings"):
        load_openings(f)
    with pytest.raises(OSError):
        load_openings(tmp_path / "missing.txt")


def test_xot_small_list(shared_data: Path) -> None:
    ops = load_openings(shared_data / "xot" / "openingssmall.txt")
    assert len(ops) == 3623 and all(len(o.moves) == 8 for o in ops)
    chosen = resolve_openings(str(shared_data / "xot" / "openingssmall.txt"), 5, seed=3)
    assert len({o.transcript for o in chosen}) == 5
    # A larger count extends the smaller one (same seed, same order).
    more = resolve_openings(str(shared_data / "xot" / "openingssmall.txt"), 8, seed=3)
    assert more[:5] == chosen


def test_random_openings_are_distinct_up_to_symmetry_and_seeded() -> None:
    ops = random_openings(20, k=4, seed=5)
    assert len(ops) == 20 and all(len(o.moves) == 4 for o in ops)
    assert len({o.transcript for o in ops}) == 20
    assert random_openings(20, k=4, seed=5) == ops
    assert random_openings(20, k=4, seed=6) != ops
    # Only four first moves exist and all are symmetric: one distinct 1-move opening.
    assert len(random_openings(1, k=1)) == 1
    with pytest.raises(ValueError, match="found only 1 distinct"):
        random_openings(2, k=1, seed=0)


def test_six_by_six() -> None:
    ops = random_openings(6, k=3, size=6, seed=2)
    assert all(o.size == 6 for o in ops)
    assert all(m != PASS and m % 8 < 6 and m // 8 < 6 for o in ops for m in o.moves)
    bal = resolve_openings("balanced", 3, size=6, seed=1)  # 6 moves on 6x6 by default
    assert all(len(o.moves) == 6 and o.size == 6 for o in bal)


def test_balanced_openings_score_near_zero() -> None:
    score = minimax_scorer(2)
    ops = balanced_openings(6, k=6, seed=4, scorer=score, threshold=6)
    assert all(abs(score(o.board())) <= 6 for o in ops)
    # The filter does something: plain random openings of that length score further from 0.
    raw = random_openings(40, k=6, seed=4)
    assert max(abs(score(o.board())) for o in raw) > 6


def test_resolve_sources(tmp_path: Path) -> None:
    assert [len(o.moves) for o in resolve_openings("random:3", 2)] == [3, 3]
    assert resolve_openings("start", 2) == [Opening(()), Opening(())]
    f = tmp_path / "two.txt"
    f.write_text("f5d6\nf5f6\n")
    got = resolve_openings(str(f), 5, seed=0)
    assert len(got) == 5 and {o.transcript for o in got} == {"f5d6", "f5f6"}
    with pytest.raises(ValueError, match="length after"):
        resolve_openings("random:x", 2)
    with pytest.raises(OSError):
        resolve_openings(str(tmp_path / "nope.txt"), 2)


def test_balance_search_parse() -> None:
    assert BalanceSearch.parse("minimax:depth=4,threshold=5") == BalanceSearch("minimax", 4, 5.0)
    assert BalanceSearch.parse("engine").limit == 2.0
    for bad in ("alphabeta", "minimax:depth=x", "minimax:speed=3", "minimax:depth=0"):
        with pytest.raises(ValueError, match="bad balance search"):
            BalanceSearch.parse(bad)


def test_engine_scorer_or_a_clear_error() -> None:
    from bitflip.arena.openings import engine_scorer

    try:
        import bitflip.engine  # noqa: F401
    except ImportError:
        with pytest.raises(ValueError, match="engine .* is not available"):
            BalanceSearch.parse("engine:depth=4").scorer(8)
        return
    score = engine_scorer(4)
    assert abs(score(parse_opening("f5d6c3d3c4").board())) < 64

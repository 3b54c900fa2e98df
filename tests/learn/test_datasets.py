"""Training records: replay against the Board API, shards, splits, dedup, symmetries."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.core.arrays import symmetry_square_table, transform_many
from bitflip.core.board import BLACK, Board
from bitflip.core.geometry import PASS
from bitflip.learn.build import build
from bitflip.learn.datasets import (
    GameSource,
    by_years,
    canonical_keys,
    dedup_policy,
    dedup_value,
    positions_from_games,
    split_by_game,
)
from bitflip.learn.shards import (
    NO_SCORE,
    PositionBatch,
    read_shards,
)


def random_games(n: int, seed: int = 0) -> list[Board]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        b = Board()
        while not b.is_game_over():
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        out.append(b)
    return out


def source_of(boards: list[Board], years: list[int] | None = None) -> GameSource:
    return GameSource(
        [[m for m in b.move_stack if m != PASS] for b in boards],
        years or [2000] * len(boards),
        [-1] * len(boards),
    )


@pytest.fixture(scope="module")
def games() -> list[Board]:
    return random_games(30)


@pytest.fixture(scope="module")
def records(games: list[Board]) -> PositionBatch:
    rec, stats = positions_from_games(source_of(games, [1990 + i % 30 for i in range(30)]))
    assert stats.games == 30 and stats.unfinished == 0 and not stats.illegal
    return rec


def test_records_match_a_replay_with_the_board_api(
    games: list[Board], records: PositionBatch
) -> None:
    k = 0
    for g, final in enumerate(games):
        out = final.outcome()
        assert out is not None
        b = Board()
        for ply, m in enumerate(final.move_stack):
            if m == PASS:
                b.push(m)
                continue
            p, o = b.side_bitboards()
            assert records.game[k] == g and records.ply[k] == ply
            assert int(records.player[k]) == p and int(records.opponent[k]) == o
            assert int(records.legal[k]) == b.legal_mask()
            assert records.move[k] == m
            assert records.side[k] == (0 if b.turn == BLACK else 1)
            margin = out.black - out.white  # empties already go to the winner
            mine = margin if b.turn == BLACK else -margin
            assert records.disc_diff[k] == mine
            assert records.wdl[k] == np.sign(mine)
            assert records.result_known[k]
            b.push(m)
            k += 1
    assert k == len(records)


def test_theoretical_score_sits_at_its_depth_only() -> None:
    (game,) = random_games(1, seed=3)
    moves = [m for m in game.move_stack if m != PASS]
    rec, _ = positions_from_games(GameSource([moves], [2001], [40], theoretical_depth=24))
    at = np.flatnonzero(rec.theoretical != NO_SCORE)
    assert len(at) == 1
    i = int(at[0])
    assert 64 - bin(int(rec.player[i]) | int(rec.opponent[i])).count("1") == 24
    assert rec.theoretical[i] == (16 if rec.side[i] == 0 else -16)


def test_illegal_and_unfinished_games() -> None:
    (game,) = random_games(1, seed=4)
    moves = [m for m in game.move_stack if m != PASS]
    bad = [*moves[:5], 0, *moves[6:]]  # a1 is never legal on move 6
    short = moves[:20]
    rec, stats = positions_from_games(GameSource([bad, short, moves], [0, 0, 0], [-1, -1, -1]))
    assert stats.illegal == [(0, 5)]
    assert stats.games == 2 and stats.unfinished == 1
    assert set(np.unique(rec.game)) == {1, 2}
    assert not rec.result_known[rec.game == 1].any()
    assert (rec.disc_diff[rec.game == 1] == 0).all()
    assert rec.result_known[rec.game == 2].all()


def test_split_by_game_is_disjoint_and_seeded(records: PositionBatch) -> None:
    a = split_by_game(records, [0.2, 0.8], seed=1)
    b = split_by_game(records, [0.2, 0.8], seed=2)
    assert (a[0] ^ a[1]).all()  # every record in exactly one part
    assert not set(records.game[a[0]]) & set(records.game[a[1]])
    assert len(np.unique(records.game[a[0]])) == 6
    assert set(records.game[a[0]]) != set(records.game[b[0]])
    np.testing.assert_array_equal(a[0], split_by_game(records, [0.2, 0.8], seed=1)[0])
    with pytest.raises(ValueError):
        split_by_game(records, [0.5, 0.6], seed=0)
    years = by_years(records, 1995, 2000)
    assert ((records.year[years] >= 1995) & (records.year[years] <= 2000)).all()


def test_dedup_collapses_symmetric_positions(records: PositionBatch) -> None:
    # The start position occurs once per game; its 4 first moves are symmetric to each other.
    first = records.subset(records.ply == 0)
    assert len(dedup_policy(first)) == 1
    vt = dedup_value(first)
    assert len(vt.positions) == 1 and vt.count[0] == len(first)
    assert vt.wdl[0] == pytest.approx(first.wdl.mean())
    assert vt.disc_diff[0] == pytest.approx(first.disc_diff.mean())
    # transformed copies of records collapse onto the originals
    syms = np.full(len(records), 5, dtype=np.int64)
    moved = records.subset(np.arange(len(records)))
    moved.player = transform_many(records.player, syms)
    moved.opponent = transform_many(records.opponent, syms)
    moved.move = symmetry_square_table()[5][records.move].astype(np.int8)
    k1 = canonical_keys(records.player, records.opponent, records.move.astype(np.int64))
    k2 = canonical_keys(moved.player, moved.opponent, moved.move.astype(np.int64))
    np.testing.assert_array_equal(k1, k2)
    assert len(dedup_policy(PositionBatch.concat([records, moved]))) == len(dedup_policy(records))


def test_build_from_a_wthor_file(tmp_path: Path) -> None:
    from bitflip.formats.record import GameRecord
    from bitflip.formats.wthor import write_wtb

    boards = random_games(4, seed=6)
    recs = []
    for b in [*boards, boards[0]]:  # the repeated game is dropped
        out = b.outcome()
        assert out is not None
        recs.append(
            GameRecord(
                moves=[m for m in b.move_stack if m != PASS],
                date="2019",
                black_score=out.black,
                theoretical_score=out.black,
            )
        )
    (tmp_path / "in").mkdir()
    write_wtb(tmp_path / "in" / "WTH_2019.wtb", recs, year=2019)
    report = build(tmp_path / "in", [], tmp_path / "out", progress=False)
    (f,) = report.files
    assert f.games == 4 and f.duplicates == 1
    shard = read_shards(tmp_path / "out")
    assert (shard.year == 2019).all()
    assert len(shard) == sum(len([m for m in b.move_stack if m != PASS]) for b in boards)
    with pytest.raises(FileNotFoundError):
        build(tmp_path / "missing", [], tmp_path / "out2", progress=False)


def test_build_real_wthor_year(shared_data: Path, tmp_path: Path) -> None:
    report = build(shared_data / "wthor" / "WTH_1978.wtb", [], tmp_path, progress=False)
    assert report.games == 8
    rec = read_shards(tmp_path)
    assert rec.result_known.all() and (rec.year == 1978).all()
    assert (rec.theoretical != NO_SCORE).sum() == 8


def test_game_source_defaults_for_self_play() -> None:
    (game,) = random_games(1, seed=7)
    rec, stats = positions_from_games(GameSource([list(game.move_stack)]))  # passes included
    assert stats.games == 1 and len(rec) == sum(1 for m in game.move_stack if m != PASS)
    assert (rec.year == 0).all() and (rec.theoretical == NO_SCORE).all()

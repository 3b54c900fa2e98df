"""The one shard format: round trips, errors that name the file, old versions padded."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.core.geometry import PASS
from bitflip.learn.datasets import positions_from_games
from bitflip.learn.shards import (
    FIELDS,
    FORMAT_VERSION,
    PositionBatch,
    ShardError,
    read_shard,
    read_shards,
    write_shard,
)

from .test_datasets import random_games, source_of


@pytest.fixture(scope="module")
def records() -> PositionBatch:
    batch, _ = positions_from_games(source_of(random_games(10, seed=2)))
    return batch


def test_policy_size_and_pass_rows_round_trip(records: PositionBatch, tmp_path: Path) -> None:
    n = len(records)
    arrays = records.arrays()
    arrays["move"] = np.where(np.arange(n) % 7 == 0, PASS, records.move)
    policy = np.random.default_rng(0).random((n, 37)).astype(np.float16)
    batch = PositionBatch(**arrays, policy=policy, size=6)
    back = read_shard(write_shard(tmp_path / "sp", batch))
    assert back.size == 6 and back.policy is not None
    np.testing.assert_array_equal(back.policy, policy)
    np.testing.assert_array_equal(back.move, arrays["move"])
    played = back.moves_played()
    assert len(played) == n - len(range(0, n, 7)) and (played.move != PASS).all()
    assert played.policy is not None and len(played.policy) == len(played)
    with pytest.raises(ShardError, match="board sizes"):
        PositionBatch.concat([records, batch])
    with pytest.raises(ShardError, match="policy"):
        PositionBatch.concat([records, PositionBatch(**arrays, policy=policy)])


def test_version_1_shards_are_padded(records: PositionBatch, tmp_path: Path) -> None:
    # A version-1 database shard: no size, no policy.
    arrays = {name: getattr(records, name) for name in FIELDS}
    np.savez(tmp_path / "db.npz", format_version=np.int64(1), source=np.str_("x"), **arrays)
    db = read_shard(tmp_path / "db.npz")
    assert db.size == 8 and db.policy is None
    np.testing.assert_array_equal(db.move, records.move)
    # A version-1 AlphaZero self-play shard: policy and size, passes written as move -1.
    sp = dict(arrays, move=np.where(np.arange(len(records)) == 0, -1, records.move))
    policy = np.full((len(records), 65), 1 / 65, np.float16)
    np.savez(tmp_path / "sp.npz", format_version=np.int64(1), size=np.int64(8), policy=policy, **sp)
    old = read_shard(tmp_path / "sp.npz")
    assert (
        old.move[0] == PASS and old.policy is not None and old.policy.shape == (len(sp["move"]), 65)
    )


def test_read_shards_takes_a_list_of_files(records: PositionBatch, tmp_path: Path) -> None:
    paths = [write_shard(tmp_path / f"s{i}", records) for i in range(2)]
    assert len(read_shards(paths)) == 2 * len(records)
    with pytest.raises(FileNotFoundError):
        read_shards([])
    assert FORMAT_VERSION == 2

"""The pattern fit's data: WTHOR games into samples and targets (final, exact near the end),
the split by game, and the errors for missing data."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bitflip.cli.main import main
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_data import GameArrays, build_samples, split_games

from .test_patterns_fit import _random_game, random_positions


def test_samples_targets_from_the_movers_view() -> None:
    # f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 ... : a short legal game that does not end; the stored
    # black count (40) then gives the target: +16 for black, -16 for white.
    moves = np.full((1, 60), -1, dtype=np.int8)
    seq = [37, 43, 18, 19, 26]
    moves[0, : len(seq)] = seq
    games = GameArrays(
        moves, np.array([40], np.int8), np.array([-1], np.int8), np.array([0], np.int8)
    )
    s, bad = build_samples(games, PatternsFitConfig(target="final"))
    assert bad == 0 and len(s) == 5
    assert list(s.target) == [16, -16, 16, -16, 16]
    # An illegal move drops the game.
    moves[0, 1] = 0
    s, bad = build_samples(games, PatternsFitConfig(target="final"))
    assert bad == 1 and len(s) == 0


def random_games(n: int, seed: int) -> np.ndarray:
    """Move arrays (no passes, -1 padded) of ``n`` random games played to the end."""
    rng = np.random.default_rng(seed)
    out = np.full((n, 60), -1, dtype=np.int8)
    for g in range(n):
        moves = _random_game(rng)[0]
        out[g, : len(moves)] = moves
    return out


def test_exact_targets_near_the_end_and_before_them() -> None:
    from bitflip.core.arrays import empties_many
    from bitflip.core.bitboard import FULL
    from bitflip.learn.datasets import GameSource, positions_from_games
    from bitflip.search.exact import solve

    moves = random_games(4, seed=5)
    n = len(moves)
    games = GameArrays(
        moves, np.full(n, 32, np.int8), np.full(n, -1, np.int8), np.zeros(n, np.int8)
    )
    calls = []

    def solver(p: np.ndarray, o: np.ndarray) -> np.ndarray:
        calls.append(len(p))
        return np.array([solve(a, b, FULL) for a, b in zip(p, o, strict=True)])

    final, _ = build_samples(games, PatternsFitConfig(target="final"))
    cfg = PatternsFitConfig(target="final", exact_empties=7)
    s, _ = build_samples(games, cfg, solver)
    e = empties_many(s.p, s.o, FULL)
    late = e <= 7
    assert calls == [int(late.sum())]
    for i in np.flatnonzero(late):
        assert s.target[i] == solve(s.p[i], s.o[i], FULL)
    # Random games are full of mistakes: the exact targets differ from the results somewhere.
    assert (s.target[late] != final.target[late]).any()
    side = positions_from_games(GameSource(moves))[0].side  # the samples' rows, in order
    for g in range(n):
        rows = np.flatnonzero(s.game == g)
        anchor = rows[e[rows] <= 7][0]
        assert e[anchor] == 7
        value = solve(s.p[anchor], s.o[anchor], FULL)
        for i in rows[e[rows] > 7]:
            assert s.target[i] == (value if side[i] == side[anchor] else -value)
    with pytest.raises(ValueError, match="needs a solver"):
        build_samples(games, cfg)


def test_exact_scores_resume_and_check_their_chunks(tmp_path: Path) -> None:
    from bitflip.core.arrays import empties_many
    from bitflip.core.bitboard import FULL
    from bitflip.learn.eval_labels import exact_scores
    from bitflip.search.exact import solve

    pos = [x for x in random_positions(400, seed=8)]
    late = [(a, b) for a, b in pos if empties_many(np.array([a]), np.array([b]), FULL)[0] <= 9]
    p = np.array([a for a, _ in late[:25]], dtype=np.uint64)
    o = np.array([b for _, b in late[:25]], dtype=np.uint64)
    seen: list[tuple[int, int]] = []
    scores = exact_scores(
        p, o, tmp_path, workers=1, chunk=10, progress=lambda d, t: seen.append((d, t))
    )
    assert list(scores) == [solve(a, b, FULL) for a, b in zip(p, o, strict=True)]
    assert seen[0] == (0, 3) and seen[-1] == (3, 3)
    chunks = sorted(tmp_path.glob("exact-*.npz"))
    assert len(chunks) == 3
    kept = chunks[1].stat().st_mtime_ns
    chunks[0].unlink()
    assert np.array_equal(exact_scores(p, o, tmp_path, workers=1, chunk=10), scores)
    assert chunks[0].is_file() and chunks[1].stat().st_mtime_ns == kept
    chunks[2].write_bytes(b"not a zip")
    with pytest.raises(ValueError, match=chunks[2].name):
        exact_scores(p, o, tmp_path, workers=1, chunk=10)


def test_split_is_by_game() -> None:
    held = split_games(1000, 0.1, seed=3)
    assert 50 < held.sum() < 150
    assert np.array_equal(held, split_games(1000, 0.1, seed=3))


def test_missing_data_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = tmp_path / "p.toml"
    cfg.write_text(f'[patterns]\nwthor = "{tmp_path / "nothing"}"\nout = "{tmp_path / "r"}"\n')
    assert main(["train", "patterns", "--config", str(cfg)]) == 2
    err = capsys.readouterr().err  # the data folders' lookup (bitflip.datadir.find) names it
    assert f"{tmp_path / 'nothing'}: no such file or folder" in err
    assert len(err.strip().splitlines()) == 1


def test_missing_extra_data_is_named(tmp_path: Path) -> None:
    from bitflip.learn.patterns_data import load_games

    cfg = PatternsFitConfig(wthor=str(tmp_path), extra=[str(tmp_path / "book.wtb")])
    with pytest.raises(OSError, match="book.wtb"):
        load_games(cfg)


def _label_folder(folder: Path, seed: int, score: float) -> Path:
    """A folder of one label chunk: 30 random positions, each labelled ``score``."""
    pos = random_positions(30, seed=seed)
    folder.mkdir()
    np.savez(
        folder / "labels-k-00000.npz",
        p=np.array([a for a, _ in pos], dtype=np.uint64),
        o=np.array([b for _, b in pos], dtype=np.uint64),
        game=np.arange(30, dtype=np.int32),
        score=np.full(30, score, dtype=np.float32),
    )
    return folder


def test_labels_with_games_fit_on_both(shared_data: Path, tmp_path: Path) -> None:
    from bitflip.learn.patterns_data import fit_data

    wtb = str(shared_data / "wthor" / "WTH_2001.wtb")
    games_only = PatternsFitConfig(wthor=wtb, max_games=40, out=str(tmp_path / "fit"))
    (tmp_path / "fit").mkdir()
    base = fit_data(games_only, None, lambda _: None)
    n_games = len(base.train) + len(base.test)
    labels = _label_folder(tmp_path / "labels", seed=5, score=7.0)
    both = fit_data(replace(games_only, labels=str(labels), with_games=True), None, print)
    assert len(both.train) + len(both.test) == n_games + 30
    assert (np.concatenate([both.train.target, both.test.target]) == 7.0).sum() >= 30
    # Labels alone: only the 30 labelled positions.
    alone = fit_data(replace(games_only, labels=str(labels)), None, print)
    assert len(alone.train) + len(alone.test) == 30


def test_card_of_a_fit_on_games_and_labels_counts_the_game_files(
    shared_data: Path, tmp_path: Path
) -> None:
    labels = _label_folder(tmp_path / "labels", seed=6, score=3.0)
    cfg = tmp_path / "p.toml"
    cfg.write_text(
        f'[patterns]\nwthor = "{shared_data / "wthor" / "WTH_2001.wtb"}"\nmax_games = 40\n'
        f'epochs = 1\nholdout = 0.3\nlabels = "{labels}"\nwith_games = true\n'
        f'out = "{tmp_path / "fit"}"\n'
    )  # fmt: skip
    assert main(["train", "patterns", "--config", str(cfg)]) == 0
    card = next((tmp_path / "fit").glob("patterns-*.md")).read_text()
    # The labels folder is the card's second source, not a 2nd WTHOR file.
    assert "1 WTHOR file (WTH_2001.wtb .. WTH_2001.wtb) and the search labels in" in card

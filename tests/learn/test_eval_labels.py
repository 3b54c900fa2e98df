"""Search labels for the pattern fit (bitflip.learn.eval_labels) and the fit on them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bitflip.cli.main import main
from bitflip.core.arrays import empties_many
from bitflip.core.bitboard import FULL, legal_moves
from bitflip.core.board import Board
from bitflip.learn.eval_labels import LabelConfig, label_chunk, load_labels
from bitflip.learn.patterns_config import PatternsFitConfig
from bitflip.learn.patterns_fit import initial_weights
from bitflip.search.exact import solve

from ._toml import assert_refused


def test_labels_near_the_end_are_exact() -> None:
    # Level 8 solves from 16 empties: the label is the perfect-play margin.
    b = Board("--XXXXXXOOOOOOXXOOOOOOXXOOXOOXXXXOXOXOXXOOOXXXXXOO----------OOOO X")
    p, o = (np.uint64(x) for x in b.side_bitboards())
    assert bin(int(~(p | o)) & (2**64 - 1)).count("1") <= 16
    score = label_chunk(np.array([p]), np.array([o]), level=8)[0]
    assert score == solve(p, o, FULL)


def test_labels_where_the_level_proves_only_win_loss_draw_are_exact() -> None:
    # Level 8 proves win/loss/draw at 17-18 empties; a label needs the margin, not its sign.
    rng = np.random.default_rng(3)
    ps, os_ = [], []
    while len(ps) < 3:
        b = Board()
        while bin(b.empty).count("1") > 18 and not b.is_game_over():
            moves = list(b.legal_moves)
            b.push(moves[int(rng.integers(len(moves)))])
        p, o = b.side_bitboards()
        if bin(b.empty).count("1") == 18 and b.legal_mask():
            ps.append(np.uint64(p))
            os_.append(np.uint64(o))
    scores = label_chunk(np.array(ps), np.array(os_), level=8)
    assert [float(s) for s in scores] == [
        float(solve(p, o, FULL)) for p, o in zip(ps, os_, strict=True)
    ]
    assert any(abs(s) > 1 for s in scores)


def test_config_is_checked(tmp_path: Path) -> None:
    refused = {
        "[labels]\nperturb = 2.0\n": "perturb",
        "[labels]\nlevle = 3\n": "levle",
        '[labels]\npositions = "many"\n': "positions must be int, not 'many'",
        '[labels]\nwalk = "greedy"\n': "walk must be random or search",
    }
    assert_refused(LabelConfig.from_toml, tmp_path, refused)


def test_init_weights_must_match_the_phases(tmp_path: Path) -> None:
    assert initial_weights(PatternsFitConfig(phases=4)).any() == False  # noqa: E712 (zeros)
    start = initial_weights(PatternsFitConfig(init="default"))
    assert start.shape[0] == 15 and start.any()
    with pytest.raises(ValueError, match="phases"):
        initial_weights(PatternsFitConfig(init="default", phases=4))


def test_corrupt_chunk_is_named(tmp_path: Path) -> None:
    (tmp_path / "labels-x-00000.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="labels-x-00000.npz"):
        load_labels(tmp_path)
    with pytest.raises(OSError, match="no label chunks"):
        load_labels(tmp_path / "empty")


@pytest.mark.slow
def test_label_and_fit_commands_resume(
    shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "labels"
    cfg = tmp_path / "c.toml"
    cfg.write_text(
        f'[labels]\nwthor = "{shared_data / "wthor" / "WTH_2001.wtb"}"\npositions = 60\n'
        f'chunk = 20\nworkers = 1\nlevel = 3\nmin_empties = 10\nmax_empties = 50\n'
        f'out = "{out}"\n'
        f'[patterns]\nlabels = "{out}"\ninit = "default"\nepochs = 1\nlearning_rate = 0.05\n'
        f'holdout = 0.3\nout = "{tmp_path / "fit"}"\n'
    )  # fmt: skip
    assert main(["train", "labels", "--config", str(cfg)]) == 0
    chunks = sorted(out.glob("labels-*.npz"))
    assert len(chunks) == 3
    p, o, score, _ = load_labels(out)
    assert len(p) == 60 and np.abs(score).max() <= 64
    assert all(legal_moves(a, b, FULL) for a, b in zip(p, o, strict=True))
    # A lost chunk is made again; the others are kept as they are.
    kept = chunks[1].stat().st_mtime_ns
    chunks[0].unlink()
    assert main(["train", "labels", "--config", str(cfg)]) == 0
    assert chunks[0].is_file() and chunks[1].stat().st_mtime_ns == kept
    capsys.readouterr()
    assert main(["train", "patterns", "--config", str(cfg)]) == 0
    text = capsys.readouterr().out
    assert "labelled positions" in text and "held-out MAE" in text
    card = next((tmp_path / "fit").glob("patterns-*.md")).read_text()
    assert "engine's own searches" in card and "starting from the weights default" in card


def test_positions_moved_several_random_moves_off_the_game_line(shared_data: Path) -> None:
    from dataclasses import replace

    from bitflip.core.arrays import empties_many
    from bitflip.learn.datasets import GameSource, positions_from_games
    from bitflip.learn.eval_labels import draw_positions
    from bitflip.learn.patterns_data import load_games

    wtb = str(shared_data / "wthor" / "WTH_2001.wtb")
    cfg = LabelConfig(
        wthor=wtb, positions=200, min_empties=20, max_empties=40, perturb=1.0, random_moves=5
    )
    p, o, _ = draw_positions(cfg)
    e = empties_many(p, o, FULL)
    assert len(p) == 200 and e.min() >= 20 and e.max() <= 40
    assert all(legal_moves(a, b, FULL) for a, b in zip(p, o, strict=True))
    # Off the game lines: few of them are positions a game of the file reached.
    batch, _ = positions_from_games(GameSource(load_games(_fit_config(wtb)).moves))
    reached = set(zip(batch.player.tolist(), batch.opponent.tolist(), strict=True))
    assert sum(pos in reached for pos in zip(p.tolist(), o.tolist(), strict=True)) < 40
    # Without moves off the line every position is one of the games'.
    q, r, _ = draw_positions(replace(cfg, perturb=0.0))
    assert all(pos in reached for pos in zip(q.tolist(), r.tolist(), strict=True))
    with pytest.raises(ValueError, match="random_moves"):
        replace(cfg, random_moves=0).check()


def test_search_walk_lines_have_one_side_play_its_best_move(shared_data: Path) -> None:
    from dataclasses import replace

    from bitflip.core.bitboard import play
    from bitflip.eval.evaluator import evaluate, load_evaluation
    from bitflip.learn.eval_labels import _best_child, draw_positions

    ev = load_evaluation("default")
    p, o = (np.uint64(x) for x in Board().side_bitboards())
    p, o = (np.uint64(x) for x in play(p, o, 37))  # f5; the best child is the worst for its mover
    legal = int(legal_moves(p, o, FULL))
    children = [tuple(np.uint64(x) for x in play(p, o, sq)) for sq in range(64) if legal >> sq & 1]
    worst = min(children, key=lambda c: evaluate(c[0], c[1], FULL, ev.kind, ev.weights))
    assert tuple(_best_child(p, o, FULL, ev.kind, ev.weights)) == worst
    cfg = LabelConfig(
        wthor=str(shared_data / "wthor" / "WTH_2001.wtb"), positions=100, min_empties=20,
        max_empties=40, perturb=1.0, random_moves=8, walk="search",
    )  # fmt: skip
    q, r, _ = draw_positions(cfg)
    e = empties_many(q, r, FULL)
    assert len(q) == 100 and e.min() >= 20 and e.max() <= 40
    assert all(legal_moves(a, b, FULL) for a, b in zip(q, r, strict=True))
    # Other lines than the random walk's from the same draw, and another key.
    a, _, _ = draw_positions(replace(cfg, walk="random"))
    assert (a != q).sum() > 50 and replace(cfg, walk="random").key() != cfg.key()


def _fit_config(wtb: str) -> PatternsFitConfig:
    return PatternsFitConfig(wthor=wtb, first_year=0, last_year=2022)


def test_the_shipped_recipe_finds_its_labels_in_datasets() -> None:
    # configs/patterns.toml makes the labels of datasets/eval-labels: the same key, so a run of
    # `bitflip train labels --config configs/patterns.toml` finds every chunk done, and the fit
    # reads them; changing a label setting there without relabelling fails here.
    from bitflip.learn.patterns_config import PatternsFitConfig

    repo = Path(__file__).resolve().parents[2]
    labels = LabelConfig.from_toml(repo / "configs" / "patterns.toml")
    fit = PatternsFitConfig.from_toml(repo / "configs" / "patterns.toml")
    folder = repo / labels.out
    assert fit.labels == labels.out and fit.with_games
    chunks = sorted(folder.glob(f"labels-{labels.key()}-*.npz"))
    assert len(chunks) == -(-labels.positions // labels.chunk)
    assert (folder / "CARD.md").is_file()
    with np.load(chunks[-1]) as z:
        assert len(z["p"]) == labels.chunk
    # Searches can score past 64 discs; the fit's targets stop there.
    assert np.abs(load_labels(folder)[2]).max() == 64


def test_the_deeper_labels_resume_from_their_config() -> None:
    # configs/labels-level8.toml made datasets/eval-labels-l8 (part of it): the same key, the
    # chunks it has are its first ones, so running it again goes on where it stopped.
    repo = Path(__file__).resolve().parents[2]
    labels = LabelConfig.from_toml(repo / "configs" / "labels-level8.toml")
    folder = repo / labels.out
    assert labels.level == 8 and (folder / "CARD.md").is_file()
    chunks = sorted(folder.glob("labels-*.npz"))
    assert chunks and [c.name for c in chunks] == [
        f"labels-{labels.key()}-{i:05d}.npz" for i in range(len(chunks))
    ]
    p, o, score, _ = load_labels(folder)
    assert len(p) == labels.chunk * len(chunks) and (p & o == 0).all()
    assert np.abs(score).max() <= 64

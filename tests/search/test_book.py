"""The opening book: symmetric lookups, move choice, the engine playing from it, bad files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from bitflip import Board
from bitflip.core.hashing import canonical
from bitflip.engine import Engine
from bitflip.search.book import Book, BookError, load_book, save_book
from bitflip.search.limits import Limit

FULL = (1 << 64) - 1


def tiny_book() -> Book:
    """The start (+1 for black), f5 (one position with the other first moves by symmetry),
    and white's answers d6 (-1 for white) and f6 (-3)."""
    rows = []
    for moves, score, games in (("", 100, 100), ("f5", -100, 100), ("f5d6", 100, 60)):
        b = Board()
        for i in range(0, len(moves), 2):
            b.push(moves[i : i + 2])
        rows.append((*b.side_bitboards(), score, games))
    b = Board()
    b.push("f5")
    b.push("f6")
    rows.append((*b.side_bitboards(), 300, 40))
    keyed = {}
    for p, o, s, g in rows:
        cp, co, _ = canonical(np.uint64(p), np.uint64(o), 8)
        keyed[(int(cp), int(co))] = (s, g)  # symmetric moves share one entry
    keys = sorted(keyed)
    return Book(
        np.array([k[0] for k in keys], dtype=np.uint64),
        np.array([k[1] for k in keys], dtype=np.uint64),
        np.array([keyed[k][0] for k in keys], dtype=np.int16),
        np.array([keyed[k][1] for k in keys], dtype=np.uint32),
        {"source": "test"},
    )


def test_lookup_is_canonical_under_the_symmetries() -> None:
    book = tiny_book()
    for mv, reply in (("f5", "f6"), ("d3", "c3"), ("c4", "c3"), ("e6", "f6")):
        b = Board()
        b.push(mv)
        assert book.probe(*b.side_bitboards()) == (-1.0, 100)
        b.push(reply)  # the diagonal opening, in each of its four symmetric forms
        assert book.probe(*b.side_bitboards()) == (3.0, 40)
    b = Board()
    b.push("f5")
    b.push("f4")
    assert book.probe(*b.side_bitboards()) is None


def test_choose_plays_the_best_and_with_randomness_any_close_move(tmp_path: Path) -> None:
    save_book(tmp_path / "b.npz", tiny_book())
    book = load_book(tmp_path / "b.npz")
    assert book.meta["source"] == "test" and len(book) == 4
    p, o = Board().side_bitboards()
    # All four first moves are one position up to symmetry: each scores +1 for black.
    assert {m.move for m in book.moves(p, o, FULL)} == set(Board().legal_moves)
    best = book.choose(p, o, FULL)
    assert best is not None and best.score == 1.0
    rng = random.Random(1)
    seen = {book.choose(p, o, FULL, 0.5, rng).move for _ in range(40)}  # type: ignore[union-attr]
    assert len(seen) == 4
    b = Board()
    b.push("f5")
    p, o = b.side_bitboards()
    assert [m.score for m in book.moves(p, o, FULL)] == [-1.0, -3.0]
    assert book.choose(p, o, FULL).move == b.geometry.parse_square("d6")  # type: ignore[union-attr]
    seen = {book.choose(p, o, FULL, 2.5, rng).move for _ in range(40)}  # type: ignore[union-attr]
    assert len(seen) == 2


def test_engine_plays_book_moves_and_searches_outside_it(tmp_path: Path) -> None:
    save_book(tmp_path / "b.npz", tiny_book())
    engine = Engine(level=2, tt_mb=1, book=tmp_path / "b.npz")
    engine.set_position(Board())
    r = engine.go()
    assert r.book and r.move in Board().legal_moves and r.nodes == 0
    b = Board()
    b.push("f5")
    b.push("f4")
    engine.set_position(b)
    r = engine.go()
    assert not r.book and r.nodes > 0  # no answer to f5f4 in this book


def test_the_shipped_book_answers_the_start() -> None:
    engine = Engine(level=2, tt_mb=1, book="default")
    assert engine.book is not None and len(engine.book) > 1000
    engine.set_position(Board())
    r = engine.go()
    assert r.book and r.move in Board().legal_moves
    engine.set_position(Board())
    assert not engine.go(Limit(exact=True, nodes=1000)).book  # solves never ask the book


def _write(path: Path, **arrays: np.ndarray) -> Path:
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return path


def test_malformed_books_give_clear_errors(tmp_path: Path) -> None:
    good = tiny_book()
    meta = np.array(json.dumps({"format": "bitflip-book", "version": 1}))
    arrays = {
        "player": good.player,
        "opponent": good.opponent,
        "score": good.score,
        "games": good.games,
        "meta": meta,
    }
    with pytest.raises(BookError, match="no bitflip book .*missing.npz"):
        load_book(tmp_path / "missing.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip file")
    with pytest.raises(BookError, match="junk.npz"):
        load_book(tmp_path / "junk.npz")
    with pytest.raises(BookError, match="no games"):
        load_book(_write(tmp_path / "a.npz", **{k: v for k, v in arrays.items() if k != "games"}))
    with pytest.raises(BookError, match="'score'"):
        load_book(_write(tmp_path / "b.npz", **{**arrays, "score": good.score[:1]}))
    with pytest.raises(BookError, match="sorted"):
        unsorted = {k: arrays[k][::-1].copy() for k in ("player", "opponent", "score", "games")}
        load_book(_write(tmp_path / "c.npz", **{**arrays, **unsorted}))
    with pytest.raises(BookError, match="version"):
        bad_meta = np.array(json.dumps({"format": "bitflip-book", "version": 99}))
        load_book(_write(tmp_path / "d.npz", **{**arrays, "meta": bad_meta}))
    with pytest.raises(BookError, match="beyond"):
        big = np.full_like(good.score, 9000)
        load_book(_write(tmp_path / "e.npz", **{**arrays, "score": big}))


def test_book_show_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from bitflip.cli.main import main

    save_book(tmp_path / "b.npz", tiny_book())
    assert main(["book", "show", "f5", "--book", str(tmp_path / "b.npz")]) == 0
    out = capsys.readouterr().out
    assert "book score -1.00, 100 games" in out and "d6 -1.00 (60 games)" in out
    assert main(["book", "show", "f5", "--book", str(tmp_path / "missing.npz")]) != 0


def test_engine_agents_take_book_and_threads() -> None:
    from bitflip.agents import make_agent

    agent = make_agent("engine:level=2,book=default,book_random=1,threads=2", seed=3)
    assert agent.name == "engine:level=2,book=default,book_random=1"
    # Agents that play differently have different names (an arena keys results by name).
    assert make_agent("engine:level=2,eval=features").name == "engine:level=2,eval=features"
    assert make_agent("engine:level=2,book=default").name == "engine:level=2,book=default"
    board = Board()
    while not board.is_game_over() and len(board.move_stack) < 12:
        board.push(agent.select_move(board))
    assert len(board.move_stack) == 12


def test_a_book_is_written_under_the_name_given_and_whole(tmp_path: Path) -> None:
    # numpy alone would write "my.book" to "my.book.npz", and `bitflip book build` then looked
    # for the name it was given.
    save_book(tmp_path / "my.book", tiny_book())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my.book"]
    assert len(load_book(tmp_path / "my.book")) == 4

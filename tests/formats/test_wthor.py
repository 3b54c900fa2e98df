from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitflip.core.board import final_outcome
from bitflip.core.geometry import PASS
from bitflip.formats import wthor
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

from ._games import games, random_moves

F5D6 = [37, 43]


def test_every_wthor_game_replays_and_matches_its_score(shared_data: Path) -> None:
    files = wthor.wtb_files(shared_data / "wthor")
    assert len(files) == 47
    total = unfinished = 0
    for f in files:
        games_ = wthor.load_wtb(f)
        rep = games_.replay()
        games_.check(rep)  # raises FormatError on any illegal game
        assert (rep.bad < 0).all()
        total += len(games_)
        unfinished += int((~rep.over).sum())
        done = np.flatnonzero(rep.over)
        expected = [
            final_outcome(int(b), int(w)).black
            for b, w in zip(rep.black[done], rep.white[done], strict=True)
        ]
        assert games_.black_score[done].tolist() == expected, f.name
        # replayed moves = stored moves once passes are removed
        squares = games_.squares()
        for g in range(0, len(games_), 97):
            moves = rep.game_moves(g)
            stored = squares[g]
            assert [m for m in moves if m != PASS] == stored[stored >= 0].tolist()
    assert total == 131_737
    assert unfinished == 413


def test_records_have_names_events_and_scores(shared_data: Path) -> None:
    path = shared_data / "wthor" / "WTH_1977.wtb"
    recs = list(wthor.read_wtb(path))
    assert len(recs) == 12
    r = recs[0]
    assert r.date == "1977"
    assert r.black and r.white and r.event
    assert r.theoretical_score is not None and r.black_score is not None
    assert r.moves[0] == 37  # f5
    assert PASS not in r.moves
    with_passes = list(wthor.read_wtb(path, passes=True))
    assert [g.moves for g in with_passes] == [g.with_passes() for g in recs]
    assert wthor.read_names(shared_data / "wthor" / "WTHOR.JOU")[1] == "Tastet Marc"
    assert "Préqualif de Paris" in wthor.read_names(shared_data / "wthor" / "WTHOR.TRN")


def test_name_files_are_found_beside_other_databases(shared_data: Path) -> None:
    recs = wthor.read_wtb(shared_data / "playok_2023" / "PLAYOK_2023.wtb")
    first = next(recs)
    assert first.event.startswith("PlayOK") and first.black
    book = next(wthor.read_wtb(shared_data / "logistello_book" / "Logistello_book_1999.wtb"))
    assert book.black == "" and book.theoretical_score is None and book.date == "1999"


@pytest.mark.parametrize(
    ("path", "games", "unfinished"),
    [
        ("playok_2023/PLAYOK_2023.wtb", 54_366, 13_335),
        ("logistello_book/Logistello_book_1999.wtb", 37_709, 0),
    ],
)
def test_other_databases_replay(shared_data: Path, path: str, games: int, unfinished: int) -> None:
    g = wthor.load_wtb(shared_data / path)
    rep = g.replay()
    g.check(rep)
    assert (len(g), int((~rep.over).sum())) == (games, unfinished)


def test_header_round_trip() -> None:
    h = wthor.WthorHeader(dt.date(2023, 4, 2), 12, 0, 2023, 8, False, 24)
    assert wthor.WthorHeader.from_bytes(h.to_bytes()) == h
    assert len(h.to_bytes()) == 16


@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(games(sizes=(8,)), max_size=6), st.booleans())
def test_write_read_round_trip(
    tmp_path: Path, gs: list[tuple[int, list[int]]], theory: bool
) -> None:
    recs = []
    for i, (_, moves) in enumerate(gs):
        b = GameRecord(moves=moves).board()
        score = final_outcome(b.black.bit_count(), b.white.bit_count()).black
        recs.append(
            GameRecord(
                moves=[m for m in moves if m != PASS],
                black=f"P{i % 3}",
                white="Wé",
                event=["Open", "Cup"][i % 2],
                date="2001",
                black_score=score,
                theoretical_score=score if theory else None,
            )
        )
    path = tmp_path / "T_2001.wtb"
    wthor.write_wtb(path, recs, year=2001)
    back = list(wthor.read_wtb(path))
    assert back == recs
    # WTHOR cannot store a pass that ends a game cut short; every other pass comes back
    expected = [m[:-1] if m and m[-1] == PASS else m for _, m in gs]
    assert [r.moves for r in wthor.read_wtb(path, passes=True)] == expected
    assert wthor.read_header(path).year == 2001


def test_write_with_given_names(tmp_path: Path) -> None:
    rec = GameRecord(moves=F5D6, black="a", white="b", event="e", date="1999")
    path = tmp_path / "x.wtb"
    wthor.write_wtb(path, [rec], players=["?", "a", "b"], tournaments=["e"])
    assert not (tmp_path / "x.JOU").exists()
    raw = wthor.load_wtb(path)
    assert raw.black.tolist() == [1] and raw.white.tolist() == [2]
    assert raw.black_score.tolist() == [3]  # unfinished: discs on the board
    with pytest.raises(ValueError, match="not in the given name list"):
        wthor.write_wtb(path, [rec], players=["a"], tournaments=["e"])
    with pytest.raises(ValueError, match="8x8"):
        wthor.write_wtb(path, [GameRecord(size=6)])
    with pytest.raises(ValueError, match=re.escape("game 2: move 1 (a1) is illegal")):
        wthor.write_wtb(path, [rec, GameRecord(moves=[0])])
    with pytest.raises(ValueError, match="not a square index"):
        wthor.write_wtb(path, [GameRecord(moves=[99])])


def _valid_file(tmp_path: Path) -> bytes:
    rec = GameRecord(moves=random_moves(3), black="a", white="b", event="e", date="2000")
    wthor.write_wtb(tmp_path / "g.wtb", [rec, rec])
    return (tmp_path / "g.wtb").read_bytes()


@pytest.mark.parametrize(
    ("patch", "message"),
    [
        (lambda d: d[:20], "whole number of 68-byte games"),
        (lambda d: d[:10], "too short"),
        (lambda d: d[:4] + bytes([3]) + d[5:], "header says 3 games"),
        (lambda d: d[:12] + bytes([10]) + d[13:], "board size 10"),
        (lambda d: d[: 16 + 8] + bytes([99]) + d[16 + 9 :], "move 1 (byte 99)"),
        (lambda d: d[: 16 + 8] + bytes([11]) + d[16 + 9 :], "move 1 (a1) is illegal"),
        (lambda d: d[: 16 + 6] + bytes([65]) + d[16 + 7 :], "over 64"),
    ],
)
def test_malformed_files_name_the_problem(tmp_path: Path, patch, message: str) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.wtb"
    bad.write_bytes(patch(_valid_file(tmp_path)))
    with pytest.raises(FormatError, match=re.escape(message)) as info:
        list(wthor.read_wtb(bad))
    assert str(info.value).startswith(str(bad))


def test_unknown_player_id_is_an_error(tmp_path: Path) -> None:
    data = bytearray(_valid_file(tmp_path))
    data[16 + 2] = 200
    (tmp_path / "g.wtb").write_bytes(bytes(data))
    with pytest.raises(FormatError, match="game 1: WTHOR: black player id 200"):
        list(wthor.read_wtb(tmp_path / "g.wtb"))


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=400), st.booleans())
def test_fuzz_wtb_bytes_give_format_errors(tmp_path: Path, data: bytes, with_header: bool) -> None:
    if with_header and len(data) >= 68:
        n = (len(data)) // 68
        head = wthor.WthorHeader(None, n, 0, 2000, 8, False, 24).to_bytes()
        data = head + data[: 68 * n]
    path = tmp_path / "f.wtb"
    path.write_bytes(data)
    try:
        recs = list(wthor.read_wtb(path, players=[], tournaments=[]))
    except FormatError as exc:
        assert exc.path == str(path)
    else:
        for r in recs:  # whatever was accepted is a legal game with a plausible score
            r.board()
            assert r.black_score is not None and 0 <= r.black_score <= 64


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.binary(max_size=200), st.sampled_from(["JOU", "TRN", "txt"]))
def test_fuzz_name_files(tmp_path: Path, data: bytes, ext: str) -> None:
    path = tmp_path / f"n.{ext}"
    path.write_bytes(data)
    try:
        names = wthor.read_names(path)
    except FormatError:
        return
    assert all(isinstance(n, str) for n in names)


def test_name_file_round_trip(tmp_path: Path) -> None:
    wthor.write_names(tmp_path / "a.TRN", ["Préqualif", "", "x" * 25])
    assert wthor.read_names(tmp_path / "a.TRN") == ["Préqualif", "", "x" * 25]
    with pytest.raises(ValueError, match="does not fit"):
        wthor.write_names(tmp_path / "a.JOU", ["x" * 20])
    with pytest.raises(ValueError, match="Latin-1"):
        wthor.write_names(tmp_path / "a.JOU", ["日本"])


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(st.integers(0, 16 + 68 * 2 - 1), st.integers(0, 255)), min_size=1, max_size=4
    )
)
def test_fuzz_corrupted_valid_file(tmp_path: Path, edits: list[tuple[int, int]]) -> None:
    data = bytearray(_valid_file(tmp_path))
    for pos, value in edits:
        data[pos] = value
    path = tmp_path / "c.wtb"
    path.write_bytes(bytes(data))
    try:
        recs = list(wthor.read_wtb(path))
    except FormatError as exc:
        assert exc.path == str(path)
        return
    for r in recs:  # accepted: legal games, and passes can be put back
        assert r.board().move_stack == r.with_passes()

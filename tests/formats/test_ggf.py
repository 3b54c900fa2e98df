from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bitflip.core.board import Board
from bitflip.core.geometry import PASS
from bitflip.formats import ggf, wthor
from bitflip.formats.errors import FormatError
from bitflip.formats.record import GameRecord

from ._games import random_moves

EXAMPLE = (
    "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio]PW[Zebra]RB[2197.68]"
    "RW[2199.57]TI[05:00//02:00]TY[8]RE[+4.000]BO[8 -------- -------- -------- ---O*--- "
    "---*O--- -------- -------- -------- *]B[f5//1.23]W[d6/0.5/2.1]B[C3];)"
)


def test_parse_example() -> None:
    (r,) = ggf.loads(EXAMPLE)
    assert r.moves == [37, 43, 18]
    assert (r.black, r.white, r.event) == ("Saio", "Zebra", "GGS/os")
    assert r.date == "2003.12.15_13:24:03.MST"
    assert r.black_score == 34 and r.start is None and r.size == 8
    assert r.extra == {"RB": "2197.68", "RW": "2199.57", "TI": "05:00//02:00"}
    assert r.evals == [None, 0.5, None] and r.times == [1.23, 2.1, None]
    assert ggf.loads(ggf.dumps([r])) == [r]
    assert ggf.dump_game(r).startswith("(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]")


def test_six_by_six_and_nonstandard_start() -> None:
    (r,) = ggf.loads("(;GM[Othello]TY[6]B[c2];)")
    assert r.size == 6 and r.moves == [10] and r.start is None
    start = "--------" * 2 + "---OX---" + "---XX---" + "---XO---" + "--------" * 3 + " O"
    start_bo = "8 " + start.replace("X", "*")
    (r,) = ggf.loads(f"(;GM[Othello]TY[8r5]BO[{start_bo}];)")
    assert r.start == Board(start).obf()
    assert r.extra == {"TY": "8r5"}


def test_passes_written_or_left_out() -> None:
    for seed in range(500):
        moves = random_moves(seed)
        if PASS in moves:
            break
    text = ggf.dump_game(GameRecord(moves=moves))
    assert "[PA]" in text
    assert ggf.loads(text)[0].moves == moves
    without = GameRecord(moves=[m for m in moves if m != PASS])
    assert ggf.dump_game(without) == text  # the writer puts the passes back
    assert ggf.loads(text.replace("B[PA]", "").replace("W[PA]", ""))[0].moves == moves


def test_results_that_are_not_plain_margins_stay_in_extra() -> None:
    for re_text in ("+4.500", "-64.000:r", "?", "0.000"):
        (r,) = ggf.loads(f"(;GM[Othello]RE[{re_text}];)")
        assert r.extra["RE"] == re_text
        assert ggf.loads(ggf.dumps([r])) == [r]
    (r,) = ggf.loads("(;GM[Othello]RE[+0.000];)")
    assert r.black_score == 32 and "RE" not in r.extra


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("\n(;GM[Othello]\nB[z9];)", "games.ggf:3: GGF: move 1: unknown move 'z9'"),
        ("(;GM[Othello]B[f5]B[d6];)", "games.ggf:1: GGF: move 2: B[d6] but white is to move"),
        ("(;GM[Othello]B[a1];)", "games.ggf:1: GGF: move 1: illegal move a1 for black"),
        ("(;GM[Chess];)", "games.ggf:1: GGF: GM[Chess] is not an Othello game"),
        ("(;GM[Othello]PB[a]PB[b];)", "games.ggf:1: GGF: tag PB appears twice"),
        ("(;GM[Othello]\n\nPB[a", "games.ggf:3: GGF: '[' is never closed"),
        ("(;GM[Othello]PB[a]", "games.ggf:1: GGF: game never closed"),
        ("(;GM[Othello];)\nxyz", "games.ggf:2: GGF: expected '(;'"),
        ("(;GM[Othello]pb[a];)", "games.ggf:1: GGF: expected a TAG[value]"),
        ("(;GM[Othello]PB a;)", "games.ggf:1: GGF: tag PB has no [value]"),
        ("(;BO[10 -];)", "games.ggf:1: GGF: board size 10 is not supported"),
        ("(;BO[8 ---];)", "games.ggf:1: GGF: BO needs 64 cells"),
        ("(;B[f5/x];)", "games.ggf:1: GGF: move 1: eval 'x' is not a number"),
        ("(;B[f5/1/2/3];)", "games.ggf:1: GGF: move 1: 'f5/1/2/3' is not MOVE/eval/time"),
        ("(;B[f5//nan];)", "games.ggf:1: GGF: move 1: time 'nan' is not a number"),
    ],
)
def test_errors_name_file_line_and_problem(text: str, message: str) -> None:
    with pytest.raises(FormatError) as info:
        ggf.loads(text, path="games.ggf")
    assert str(info.value).startswith(message)


_names = st.text(st.characters(min_codepoint=32, max_codepoint=0x17F), max_size=10)
_floats = st.floats(allow_nan=False, allow_infinity=False, width=32)


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    size = draw(st.sampled_from((8, 6)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    start = None
    if draw(st.booleans()):  # a non-standard start: a position from a random prefix
        prefix = random_moves(rng.randrange(2**32), size, rng.randrange(1, 30))
        b = Board(size=size)
        for m in prefix:
            b.push(m)
        if not b.is_game_over():
            start = b.obf()
    moves = random_moves(rng.randrange(2**32), size, draw(st.integers(0, 80)), start)
    n = len(moves)
    evals = draw(st.lists(st.none() | _floats, min_size=n, max_size=n))
    times = draw(st.lists(st.none() | _floats.map(abs), min_size=n, max_size=n))
    extra = {}
    if draw(st.booleans()):
        extra["RB"] = draw(_names)
        extra["TI"] = draw(_names)
    score = draw(st.none() | st.integers(0, size * size))
    if score is None and draw(st.booleans()):
        extra["RE"] = draw(_names)
    return GameRecord(
        moves=moves,
        size=size,
        start=start,
        black=draw(_names),
        white=draw(_names),
        event=draw(_names),
        date=draw(_names),
        black_score=score,
        extra=extra,
        evals=evals if any(e is not None for e in evals) else [],
        times=times if any(t is not None for t in times) else [],
    )


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(records(), max_size=4))
def test_round_trip(tmp_path: Path, recs: list[GameRecord]) -> None:
    def re_is_a_margin(r: GameRecord) -> bool:  # such an RE reads back as black_score
        if "RE" not in r.extra:
            return False
        return (
            ggf.loads(ggf.dump_game(GameRecord(extra={"RE": r.extra["RE"]})))[0].black_score
            is not None
        )

    recs = [r for r in recs if not re_is_a_margin(r)]
    assert ggf.loads(ggf.dumps(recs)) == recs
    ggf.write(tmp_path / "g.ggf", recs)
    assert ggf.read(tmp_path / "g.ggf") == recs


def test_wthor_games_through_ggf(shared_data: Path) -> None:
    recs = list(wthor.read_wtb(shared_data / "wthor" / "WTH_1981.wtb", passes=True))
    back = ggf.loads(ggf.dumps(recs))
    assert [r.moves for r in back] == [r.moves for r in recs]
    finished = [(a, b) for a, b in zip(recs, back, strict=True) if a.board().is_game_over()]
    assert all(a.black_score == b.black_score for a, b in finished)
    assert (back[0].black, back[0].event, back[0].date) == (recs[0].black, recs[0].event, "1981")


_PIECES = ["(;", ";)", "GM[Othello]", "B[", "W[", "]", "f5", "d6", "PA", "/", "1.5", "BO[", "8",
           "6", "*", "O", "-", " ", "\n", "TY[", "RE[", "+4", "\\", "PB[x]"]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.text(max_size=80),
        st.lists(st.sampled_from(_PIECES), max_size=60).map("".join),
    )
)
def test_fuzz(text: str) -> None:
    try:
        recs = ggf.loads(text, path="f.ggf")
    except FormatError as exc:
        assert exc.fmt == "GGF" and exc.path == "f.ggf" and exc.line is not None
        return
    for r in recs:  # anything accepted replays legally and writes back the same
        r.board()
        assert ggf.loads(ggf.dumps([r])) == [r]


# A GGS archive game (2009, triple0 vs Saio3000) as GGS wrote it, cut before a pass.
GGS_GAME = (
    "(;GM[Othello]PC[GGS/os]DT[2009.07.02_09:24:22.MDT]PB[triple0]PW[Saio3000]RB[2173.03]"
    "RW[2175.52]TI[10:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- "
    "---*O--- -------- -------- -------- *]B[f5]W[f6]B[e6]W[f4]B[e3]W[c5]B[c4]W[d6]B[c6]W[b5]"
    "B[d7]W[e7]B[b6]W[c8]B[f7]W[f8]B[a6]W[b3]B[c3]W[f3]B[g3]W[e2]B[g4]W[g5]B[f2]W[f1]B[c7]"
    "W[h4]B[h6]W[h5]B[g2]W[a4]B[b4]W[a5]B[h2]W[a3]B[h3]W[a7]B[e8]W[d8]B[g6]W[c2]B[b2]W[d2]"
    "B[a2]W[a1]B[d3]W[h1]B[b7]W[g7]B[c1]W[e1]B[b1]W[d1]B[h8]W[h7]B[g8]W[a8]B[b8];)"
)


def test_real_ggs_records() -> None:
    (r,) = ggf.loads(GGS_GAME)
    assert len(r.moves) == 59 and r.black_score == 32
    assert list(r.board().legal_moves) == [PASS]  # cut where white must pass
    assert ggf.loads(ggf.dumps([r])) == [r]
    # RE with two decimals or none, moves in upper case, 'pass' for a pass, eval without time
    (r,) = ggf.loads("(;GM[Othello]TY[8]RE[-40.00]B[F5//4.09]W[D6/-48.50/0.93]B[C3//5.52];)")
    assert r.black_score == 12 and r.extra == {"RE": "-40.00"}
    assert r.evals == [None, -48.5, None] and r.times == [4.09, 0.93, 5.52]
    for seed in range(500):
        moves = random_moves(seed)
        if PASS in moves:
            break
    text = ggf.dump_game(GameRecord(moves=moves)).replace("[PA]", "[pass//1.67]")
    assert ggf.loads(text)[0].moves == moves

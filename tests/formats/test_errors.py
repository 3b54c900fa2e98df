from __future__ import annotations

import pickle

from bitflip.formats.errors import FormatError


def test_messages_read_like_compiler_messages() -> None:
    e = FormatError("GGF", "unknown move 'z9'", path="games.ggf", line=12)
    assert str(e) == "games.ggf:12: GGF: unknown move 'z9'"
    assert isinstance(e, ValueError)
    assert str(FormatError("WTHOR", "bad", path="a.wtb", record=7)) == "a.wtb: game 7: WTHOR: bad"
    assert str(FormatError("OBF", "bad", line=3)) == "line 3: OBF: bad"
    assert str(FormatError("OBF", "bad")) == "OBF: bad"


def test_located_fills_only_what_is_missing() -> None:
    e = FormatError("GGF", "x", line=2).located(path="f.ggf", line=9)
    assert (e.path, e.line) == ("f.ggf", 2)


def test_pickles_for_worker_processes() -> None:
    e = FormatError("WTHOR", "bad", path="a.wtb", record=3)
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) and back.record == 3

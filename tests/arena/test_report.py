"""The results table and the HTML report."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from bitflip.arena.match import GameResult, GameTask
from bitflip.arena.report import print_summary, summarize, write_report
from bitflip.arena.store import Store, StoredGame
from bitflip.core.board import BLACK


def stored(results: list[GameResult]) -> list[StoredGame]:
    with Store(":memory:") as s:
        for r in results:
            s.add(r)
        return s.games()


def result(key: str, black: str, white: str, score: float, margin: int | None = None) -> GameResult:
    r = GameResult(GameTask(key, black, white), moves=[37], score=score, time_black=1.0)
    if margin is not None:
        r.black_discs, r.white_discs = (64 + margin) // 2, (64 - margin) // 2
    else:
        r.error, r.error_side = "crash on move 3: boom", BLACK
    return r


GAMES = [
    result("1", "a", "b", 1.0, 10),
    result("2", "b", "a", 0.0, -20),
    result("3", "a", "c", 0.5, 0),
    result("4", "c", "a", 0.0, None),  # c forfeits
    result("5", "b", "c", 1.0, 4),
    result("6", "c", "b", 1.0, 6),
]


def test_summary_numbers() -> None:
    s = summarize(stored(GAMES), ["a", "b", "c"])
    by = {ln.name: ln for ln in s.lines}
    assert s.lines[0].name == "a" and s.games == 6
    assert (by["a"].wins, by["a"].draws, by["a"].losses, by["a"].score) == (3, 1, 0, 0.875)
    assert by["a"].margin == (10 + 20 + 0) / 3  # the forfeit has no margin
    assert by["c"].forfeits == 1 and s.errors == [("4", "c", "crash on move 3: boom")]
    assert by["b"].elo == s.ratings["b"].elo and s.ratings.anchor == "a" and by["a"].elo == 0


def test_table_and_report(tmp_path: Path) -> None:
    s = summarize(stored(GAMES), ["a", "b", "c"], anchor="c", anchor_elo=1000)
    con = Console(record=True, width=160)
    print_summary(s, con, title="Test")
    text = con.export_text()
    assert "Test: 6 games" in text and "1000 (anchor)" in text and "87.5%" in text
    assert "Head to head" in text and "crash on move 3: boom" in text
    page = write_report(s, tmp_path / "rep", title="Test <report>")
    html = page.read_text()
    assert "Test &lt;report&gt;" in html and "<td>c</td>" in html and "boom" in html
    for png in ("elo.png", "heatmap.png"):
        data = (tmp_path / "rep" / png).read_bytes()
        assert data.startswith(b"\x89PNG") and len(data) > 2000

"""The level picker's labels: measured times for every level, read as people read durations."""

from __future__ import annotations

import pytest

from bitflip.search.levels import LEVELS
from bitflip.web import engine_bridge
from bitflip.web.level_times import LEVEL_TIMES, LevelTime, level_label, seconds_text


def test_every_level_the_page_offers_has_a_measured_time() -> None:
    assert set(engine_bridge.levels()) == set(LEVEL_TIMES) == set(LEVELS)
    for level, t in LEVEL_TIMES.items():
        assert 0 <= t.mean <= t.max, level


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0.0, "instant"), (0.049, "instant"), (0.05, "0.1 s"), (0.32, "0.3 s"), (9.94, "9.9 s"),
     (10.0, "10 s"), (72.56, "73 s"), (89.4, "89 s"), (90.0, "1.5 min"), (600.0, "10.0 min")],
)  # fmt: skip
def test_seconds_read_as_people_read_them(seconds: float, text: str) -> None:
    assert seconds_text(seconds) == text


def test_labels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LEVEL_TIMES, 3, LevelTime(0.0, 0.04))
    monkeypatch.setitem(LEVEL_TIMES, 13, LevelTime(0.07, 0.32))
    monkeypatch.setitem(LEVEL_TIMES, 20, LevelTime(12.57, 72.56))
    assert level_label(3) == "Level 3: instant"
    assert level_label(13) == "Level 13: 0.1 s a move (at most 0.3 s)"
    assert level_label(20) == "Level 20: 13 s a move (at most 73 s)"

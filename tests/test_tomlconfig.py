from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bitflip.tomlconfig import read_flat_config


@dataclass
class Cfg:
    games: int = 1
    name: str = ""


def test_reads_known_keys(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_text('games = 3  # comment\nname = "x"\n')
    assert Cfg(**read_flat_config(p, Cfg)) == Cfg(3, "x")


def test_errors_name_the_file_and_the_keys(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_text("gams = 3\nnmae = 1\n")
    with pytest.raises(ValueError, match=r"c\.toml: unknown keys \['gams', 'nmae'\]"):
        read_flat_config(p, Cfg)
    p.write_text("games = = 3")
    with pytest.raises(ValueError, match="not valid TOML"):
        read_flat_config(p, Cfg)
    with pytest.raises(FileNotFoundError, match="no config file"):
        read_flat_config(tmp_path / "missing.toml", Cfg)


def test_tables_build_dataclasses_with_errors_that_say_where(tmp_path: Path) -> None:
    from bitflip.tomlconfig import build, check_keys, read_toml

    p = tmp_path / "c.toml"
    p.write_text("[run]\ngames = 3\n[other]\nx = 1\n")
    data = read_toml(p)
    assert build(Cfg, data["run"], f"{p} [run]") == Cfg(3, "")
    with pytest.raises(ValueError, match=r"c\.toml \[other\]: unknown keys \['x'\]"):
        build(Cfg, data["other"], f"{p} [other]")
    for bad, why in ((2.5, "games must be int, not 2.5"), (True, "games must be int, not True")):
        with pytest.raises(ValueError, match=rf"c\.toml \[run\]: {why}"):
            build(Cfg, {"games": bad}, f"{p} [run]")
    check_keys({"games": 1}, ("games",), "ok")  # known names as a list
    with pytest.raises(ValueError, match=r"^ok: unknown keys \['gam'\]"):
        check_keys({"gam": 1}, ("games",), "ok")


@dataclass
class Checked:
    games: int = 1
    rate: float = 0.5
    files: list[str] = field(default_factory=list)

    def check(self) -> None:
        if self.games > 9:
            raise ValueError("games must be at most 9")


def test_read_table_checks_keys_types_and_values(tmp_path: Path) -> None:
    from bitflip.tomlconfig import read_table

    p = tmp_path / "c.toml"
    p.write_text('[run]\ngames = 3\nrate = 1\nfiles = ["a"]\n')
    assert read_table(p, "run", Checked) == Checked(3, 1.0, ["a"])
    p.write_text("games = 2\n")  # no [run] table: the top level
    assert read_table(p, "run", Checked) == Checked(2)
    refused = {
        "[run]\ngames = 2.5\n": r"c\.toml: games must be int, not 2\.5",
        "[run]\nfiles = [1]\n": r"c\.toml: files must be list, not \[1\]",
        "[run]\ngames = 10\n": r"c\.toml: games must be at most 9",
        "[run]\ngame = 1\n": r"c\.toml: unknown keys \['game'\]",
    }
    for text, match in refused.items():
        p.write_text(text)
        with pytest.raises(ValueError, match=match):
            read_table(p, "run", Checked)

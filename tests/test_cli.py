from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from bitflip.cli.errors import install_hint
from bitflip.cli.main import main
from bitflip.cli.play import play_terminal


def test_perft_command(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["perft", "5"]) == 0
    assert capsys.readouterr().out.startswith("perft(5) = 1396 ")
    assert main(["perft", "4", "--size", "6", "--divide"]) == 0
    out = capsys.readouterr().out
    assert "perft(4) = 244" in out and "c2: 61" in out


def test_bad_input_is_one_line_not_a_traceback(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["perft", "-1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bitflip perft: error:") and len(err.strip().splitlines()) == 1
    assert main(["perft", "3", "--position", "nonsense"]) == 2
    assert "OBF" in capsys.readouterr().err


def test_terminal_game_to_the_end() -> None:
    # Play the first legal move every time; the script runs long enough to finish a 6x6 game.
    out = io.StringIO()
    script = "\n".join(["zz", "a1", "undo"] + ["__first__"] * 40)

    class FirstLegal(io.StringIO):
        def readline(self, *args):  # type: ignore[no-untyped-def,override]
            line = super().readline()
            if line.strip() == "__first__":
                text = out.getvalue().rsplit("Legal moves: ", 1)[1].split()[0]
                return text + "\n"
            return line

    rc = play_terminal(
        opponent="greedy", color="black", size=6, seed=1, stdin=FirstLegal(script), stdout=out
    )
    text = out.getvalue()
    assert rc == 0
    assert "'zz' is not a square" in text
    assert "illegal move a1" in text
    assert "nothing to undo" in text
    assert ("You win" in text) or ("greedy wins" in text) or ("Draw" in text)


def test_a_missing_extra_names_the_install_line_that_works(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [m for m in sys.modules if m == "rich" or m.startswith("rich.")] + ["rich"]:
        monkeypatch.setitem(sys.modules, name, None)  # importing rich fails as if not installed
    assert main(["arena", "random", "greedy", "--games", "2"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "pip install -e '.[arena]' in the clone" in err
    assert "torch==2.13.0" in install_hint("nn") and "torch" not in install_hint("arena")


def test_the_first_readme_command_brings_every_non_network_command() -> None:
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    first = (root / "README.md").read_text().split("```sh\n", 1)[1].splitlines()[0]
    extra = first.split("-e '.[", 1)[1].split("]", 1)[0]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    wanted = {p.split(">")[0] for p in extras["web"] + extras["arena"]}
    got: set[str] = set()
    todo = [extra]
    while todo:
        for req in extras[todo.pop()]:
            if req.startswith("bitflip["):
                todo += req[len("bitflip[") : -1].split(",")
            else:
                got.add(req.split(">")[0])
    assert wanted <= got and "torch" not in got


def test_arena_help_shows_a_plain_percent(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    out = capsys.readouterr().out
    assert "95% intervals" in out and "%%" not in out


def test_a_first_search_says_that_kernels_compile(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bitflip import _kernel_cache

    assert not _kernel_cache.kernels_compiled(tmp_path)
    (tmp_path / "search" / "__pycache__").mkdir(parents=True)
    (tmp_path / "search" / "__pycache__" / "alphabeta.pvs_kernel-1.py311.nbi").write_bytes(b"")
    assert _kernel_cache.kernels_compiled(tmp_path)
    monkeypatch.setattr(_kernel_cache, "kernels_compiled", lambda root=None: False)
    assert main(["perft", "1"]) == 0
    assert capsys.readouterr().err == ""  # perft compiles no search kernel
    assert main(["arena", "random", "greedy", "--games", "2"]) == 0
    assert "compiling" not in capsys.readouterr().err  # nor do agents that do not search
    assert main(["arena", "random", "nosuchagent"]) != 0
    assert "compiling" not in capsys.readouterr().err  # an error comes alone
    assert main(["hint", "--depth", "1", "f5"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("bitflip: compiling the search kernels once")
    assert err.count("compiling") == 1
    assert main(["hint", "--depth", "1", "f5"]) == 0  # each command says it at most once
    assert capsys.readouterr().err.count("compiling") == 1
    from bitflip.engine import Engine

    Engine(level=1)  # the library, outside a command, prints nothing
    assert capsys.readouterr().err == ""


def test_bad_numbers_are_refused_before_any_output(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 17: '--depth -3' was checked after the board was printed."""
    for argv in (["hint", "--depth", "-3", "f5"], ["hint", "--time", "0", "f5"],
                 ["solve", "x.obf", "--threads", "0"]):  # fmt: skip
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
        out = capsys.readouterr()
        assert out.out == ""
        assert "a whole number >= 1" in out.err or "a number > 0" in out.err

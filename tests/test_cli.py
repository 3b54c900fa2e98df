from __future__ import annotations

import io
import subprocess
import sys

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


def test_import_bitflip_does_not_import_torch() -> None:
    code = "import sys, bitflip, bitflip.agents; assert 'torch' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)

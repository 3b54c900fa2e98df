from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bitflip._codegen import tune_kernels_for_host, tuning_for

# A fresh interpreter that reports the host bitflip saw as Zen 4, imports bitflip and plays a
# move with its kernels; prints the CPU model numba tuned them for.
AS_ZEN4 = """
import json, llvmlite.binding as llvm
llvm.get_host_cpu_name = lambda: "znver4"
import bitflip
from numba.core import config
from numba.core.registry import cpu_target
board = bitflip.Board()
board.push("f5")
print(json.dumps({"config": config.CPU_NAME,
                  "codegen": cpu_target.target_context.codegen().magic_tuple()[1],
                  "moves": len(board.legal_moves)}))
"""


def test_only_the_measured_host_is_retuned_and_the_users_choice_wins() -> None:
    assert tuning_for("znver4", {}) == "haswell"
    assert tuning_for("znver3", {}) is None
    assert tuning_for("skylake-avx512", {}) is None
    assert tuning_for("znver4", {"NUMBA_CPU_NAME": "znver4"}) is None


def _run_as_zen4(tmp_path: Path, **env: str) -> dict[str, object]:
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CPU_NAME"}
    environ |= {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), **env}
    out = subprocess.run(
        [sys.executable, "-c", AS_ZEN4], env=environ, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.splitlines()[-1])


def test_kernels_on_zen4_are_tuned_for_haswell_before_they_compile(tmp_path: Path) -> None:
    seen = _run_as_zen4(tmp_path)
    assert seen == {"config": "haswell", "codegen": "haswell", "moves": 3}


def test_a_cpu_name_the_user_set_is_kept(tmp_path: Path) -> None:
    seen = _run_as_zen4(tmp_path, NUMBA_CPU_NAME="x86-64-v3")
    assert seen == {"config": "x86-64-v3", "codegen": "x86-64-v3", "moves": 3}


def test_no_retuning_once_numba_made_its_code_generator(monkeypatch: pytest.MonkeyPatch) -> None:
    import llvmlite.binding as llvm
    from numba.core import config

    # bitflip is imported, so its kernels are loaded: a change now would mislabel the cache.
    monkeypatch.delenv("NUMBA_CPU_NAME", raising=False)
    monkeypatch.setattr(llvm, "get_host_cpu_name", lambda: "znver4")
    before = config.CPU_NAME
    assert tune_kernels_for_host() is None
    after = config.CPU_NAME
    assert after == before
    assert "NUMBA_CPU_NAME" not in os.environ

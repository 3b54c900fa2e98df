"""Which CPU model LLVM tunes bitflip's kernels for.

numba compiles for the host's instruction set and, by default, tunes the machine code (the
scheduling model, unrolling, vector widths) for the host's CPU model. On AMD Zen 4 (LLVM's
``znver4``) that tuning makes the big recursive search kernels 15-20% slower than tuning them
for ``haswell`` with the same instructions: the same nodes, measured by
``benchmarks/bench_cpu.py`` and ``benchmarks/level_times.py`` (benchmarks/RESULTS-ntest.md,
step 22). On Zen 3 the two tunings were equal, so only the measured model is re-tuned. The
instruction set is never changed: only the name LLVM tunes for.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

TUNING_BY_HOST: dict[str, str] = {"znver4": "haswell"}
"""LLVM CPU name of a host -> the CPU model its kernels are tuned for instead."""


def tuning_for(host_cpu: str, environ: Mapping[str, str]) -> str | None:
    """The CPU model to tune for on ``host_cpu``, or None to leave numba's default.

    A ``NUMBA_CPU_NAME`` the user set always wins.
    """
    if "NUMBA_CPU_NAME" in environ:
        return None
    return TUNING_BY_HOST.get(host_cpu)


def tune_kernels_for_host() -> str | None:
    """Apply :func:`tuning_for` before the first kernel compiles or loads from the cache.

    Returns the model applied, or None. Does nothing once numba has made its code generator
    (someone compiled before importing bitflip): the name must match the code it tunes, since
    numba keys its on-disk cache by it.
    """
    import llvmlite.binding as llvm
    from numba.core import config
    from numba.core.registry import cpu_target

    name = tuning_for(llvm.get_host_cpu_name(), os.environ)
    # cpu_target makes its context (and the code generator) lazily, as a cached property.
    if name is None or "_toplevel_target_context" in vars(cpu_target):
        return None
    # Both: numba re-reads NUMBA_ variables when any of them changes, and child processes
    # (tournament workers, Ray tasks) inherit the same tuning.
    os.environ["NUMBA_CPU_NAME"] = name
    config.CPU_NAME = name  # type: ignore[attr-defined]  # set by numba from the environment
    return name

from __future__ import annotations

import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from bitflip.core.jit import KERNEL_OPTIONS

SIG = "int64(int64, float64[::1], int64[::1])"


def _search(depth: int, values: np.ndarray, ctl: np.ndarray) -> int:
    # A small recursive search with early exits, whose reference counts numba does not prune.
    ctl[0] += 1
    if ctl[1]:
        return 0
    if depth == 0:
        return int(values[ctl[0] % values.shape[0]])
    best = -1000
    for _ in range(3):
        v = -_search(depth - 1, values, ctl)
        if ctl[1]:
            return 0
        if v > best:
            best = v
            if v > 5:
                break
    return best


def _compile(options: dict[str, object]):  # type: ignore[no-untyped-def]
    return njit(SIG, **{**options, "cache": False})(_search)


def _refcount_calls(dispatcher) -> int:  # type: ignore[no-untyped-def]
    ir = next(iter(dispatcher.inspect_llvm().values()))
    return int(ir.count("call void @NRT_incref") + ir.count("call void @NRT_decref"))


def test_kernels_compile_without_reference_counting() -> None:
    # Plain njit leaves atomic reference counts in this function; kernels must not have them
    # (they were 30% of the midgame search). This fails if numba stops honouring the option.
    assert _refcount_calls(_compile({})) > 0
    fast = _compile(KERNEL_OPTIONS)
    assert _refcount_calls(fast) == 0
    values = np.arange(-4.0, 5.0)
    assert fast(4, values, np.zeros(2, dtype=np.int64)) == _compile({})(
        4, values, np.zeros(2, dtype=np.int64)
    )


def test_kernels_cannot_create_arrays() -> None:
    def make(n: int) -> float:
        return float(np.zeros(n).sum())

    with pytest.raises(TypingError):
        njit(**{**KERNEL_OPTIONS, "cache": False})(make)(3)

"""How bitflip compiles the kernels on its search paths.

A search kernel takes its tables and buffers as arrays that its Python caller holds for the
whole call. numba nevertheless counts references to every array argument: an atomic increment
at entry and a decrement at each exit, per call. Its pruning pass removes such pairs from small
functions but not from the big recursive ones, where they cost 30% of the midgame search's time
(``perf`` showed ``NRT_incref``/``NRT_decref`` on top; see benchmarks/RESULTS-search.md).
:func:`kernel` compiles without reference counting. Such a function may take, slice and write
arrays but not create them: numba refuses to compile one that calls ``np.zeros`` and the like.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit
from numba.core.typing.templates import Signature

F = TypeVar("F", bound=Callable[..., Any])

KERNEL_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False}
"""``_nrt`` is numba's switch for its runtime (reference counting, array creation)."""


def kernel(signature: str | Signature | None = None, *, inline: bool = False) -> Callable[[F], F]:
    """``numba.njit`` for a search kernel: cached, releasing the GIL, no reference counting.

    Give ``signature`` for recursive kernels (numba caches those reliably only with one), and
    ``inline`` for a small step shared by hot loops: numba writes it into each caller, where a
    call would cost what the step does.
    """
    args = () if signature is None else (signature,)
    options = {**KERNEL_OPTIONS, "inline": "always"} if inline else KERNEL_OPTIONS
    return cast(Callable[[F], F], njit(*args, **options))

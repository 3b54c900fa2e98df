"""How many torch threads a network call gets: one, unless the batch is large and cores idle.

torch's intra-op pool (OpenMP) ends every operator at a barrier, like numba's parallel loops
(:mod:`bitflip.core.parallel`). On the shared 2-core VM with both cores held by other jobs,
one forward of the 8x8 net took 0.29 ms for one position on one thread and 124 ms on torch's
default two; 1024 positions took 80 ms against 316 ms (issue 19). So every CPU network call
(:class:`~bitflip.nn.policy_value.NetPolicyValue`, the policy and value agents) asks
:func:`~bitflip.core.parallel.threads_for` how many threads its batch may use, with torch's own
thread count as the cap: a worker pinned to one thread (:func:`single_thread_worker`,
``OMP_NUM_THREADS=1``) stays on one.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator

import torch
from torch import nn

from bitflip.core import parallel

MACS_PER_WORK = 2_000
"""Multiply-adds of a forward pass per work unit of :mod:`bitflip.core.parallel` (~15 ns).

Measured on one core of the 2-core VM: the shipped 8x8 net (7.5 M multiply-adds a position by
:func:`forward_macs`) ran at 50-80 us a position, about 2,000 multiply-adds in 15 ns. With
``PARALLEL_MIN_WORK`` a batch of that net may use threads from about 280 positions on.
"""


def forward_macs(net: nn.Module, size: int) -> int:
    """Rough multiply-adds of one position's forward pass: every conv over the whole board,
    every linear layer once (heads included)."""
    macs = 0
    for m in net.modules():
        if isinstance(m, nn.Conv2d):
            macs += m.weight.numel() * size * size
        elif isinstance(m, nn.Linear):
            macs += m.weight.numel()
    return macs


def threads_for_batch(
    positions: int, macs_per_position: int, device: str | torch.device = "cpu"
) -> int:
    """torch threads for a forward of ``positions``: at most torch's current count.

    On a GPU the count stays as it is (the CPU only waits for the device).
    """
    most = torch.get_num_threads()
    if torch.device(device).type != "cpu":
        return most
    return parallel.threads_for(positions * macs_per_position // MACS_PER_WORK, most=most)


@contextlib.contextmanager
def torch_threads(k: int) -> Iterator[None]:
    """Run the block on ``k`` torch threads (no call when that is already the count)."""
    before = torch.get_num_threads()
    if k == before:
        yield
        return
    torch.set_num_threads(k)
    try:
        yield
    finally:
        torch.set_num_threads(before)


def single_thread_worker() -> None:
    """:func:`~bitflip.core.parallel.single_thread_process`, and torch on that many threads too.

    For worker processes that imported torch before they could set ``OMP_NUM_THREADS`` (a
    spawned pool's initializer, a Ray task): OpenMP read the variable when torch loaded, so the
    count is set through torch. A value the user set wins, as there.
    """
    parallel.single_thread_process()
    with contextlib.suppress(ValueError):  # a list such as "4,2" is OpenMP's to read
        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))

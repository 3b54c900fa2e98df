"""A network call gets torch threads by batch size and idle cores, never above torch's count."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from bitflip.core import parallel
from bitflip.core.board import Board
from bitflip.nn import threads
from bitflip.nn.alphazero import AZNet, AZNetConfig
from bitflip.nn.policy_value import NetPolicyValue


def _threads_seen(ev: NetPolicyValue, n: int) -> int:
    """torch's thread count inside the forward pass of an ``n``-position call."""
    seen: list[int] = []
    ev.net.register_forward_pre_hook(lambda *_: seen.append(torch.get_num_threads()))
    b = Board()
    ev.evaluate(np.full(n, b.black, np.uint64), np.full(n, b.white, np.uint64))
    return seen[-1]


@pytest.fixture
def ev(monkeypatch: pytest.MonkeyPatch) -> NetPolicyValue:
    monkeypatch.setattr(parallel, "usable_cores", lambda: 4)
    monkeypatch.setattr(parallel, "busy_cores", lambda: 1.0)  # three idle cores
    net = AZNet(AZNetConfig(size=6, channels=8, fc1=16, fc2=16))
    return NetPolicyValue(net, "cpu", max_batch=64)


def test_small_batches_run_on_one_thread_large_ones_on_idle_cores(
    ev: NetPolicyValue, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(4)
        monkeypatch.setattr(threads, "MACS_PER_WORK", 1)  # this tiny net: any 64 positions is big
        big = parallel.PARALLEL_MIN_WORK // ev._macs + 1
        assert big <= 64
        assert _threads_seen(ev, 1) == 1
        assert _threads_seen(ev, big) == 4
        assert _threads_seen(ev, 1000) == 4  # sized by the chunk (max_batch), not the call
        assert torch.get_num_threads() == 4  # given back after the call
        monkeypatch.setattr(parallel, "busy_cores", lambda: 4.0)  # every core held
        assert _threads_seen(ev, big) == 1
    finally:
        torch.set_num_threads(before)


def test_a_process_pinned_to_one_thread_stays_on_one(
    ev: NetPolicyValue, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = torch.get_num_threads()
    try:
        torch.set_num_threads(1)  # what single_thread_process / OMP_NUM_THREADS=1 give workers
        monkeypatch.setattr(threads, "MACS_PER_WORK", 1)
        assert _threads_seen(ev, 64) == 1
    finally:
        torch.set_num_threads(before)


def test_forward_macs_counts_convs_over_the_board_and_linear_layers() -> None:
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3, bias=False), torch.nn.Linear(10, 2))
    assert threads.forward_macs(net, 8) == 3 * 4 * 9 * 64 + 20


def test_single_thread_worker_sets_torch_after_import(monkeypatch: pytest.MonkeyPatch) -> None:
    before, numba_before = torch.get_num_threads(), parallel.numba.get_num_threads()
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    try:
        torch.set_num_threads(2)
        threads.single_thread_worker()
        assert torch.get_num_threads() == 1
        monkeypatch.setenv("OMP_NUM_THREADS", "2")  # the user's choice wins
        threads.single_thread_worker()
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(before)
        parallel.numba.set_num_threads(numba_before)

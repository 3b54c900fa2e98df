"""The search kernels' named state and the claim/release helpers of the deferral table."""

from __future__ import annotations

import numpy as np

from bitflip.search.state import (
    KERNEL_STATE,
    KernelState,
    busy_table,
    claim,
    defer_or_claim,
    is_claimed,
    release,
)


def test_one_thread_gets_one_slot_and_threads_a_table() -> None:
    assert busy_table(1).shape == (1,)
    shared = busy_table(2)
    assert shared.shape == (4096,) and shared.dtype == np.uint64 and not shared.any()


def test_a_claimed_position_is_seen_until_it_is_released() -> None:
    busy = busy_table(2)
    key = np.uint64(0x123456789ABCDEF1)
    assert not is_claimed(busy, key)
    claim(busy, key)
    assert is_claimed(busy, key)
    assert not is_claimed(busy, np.uint64(int(key) + 1))  # another position
    release(busy, key)
    assert not is_claimed(busy, key) and not busy.any()


def test_a_release_keeps_the_claim_of_another_thread_on_the_same_slot() -> None:
    busy = busy_table(2)
    mine = np.uint64(0x1000_0000_0000_0007)
    theirs = np.uint64(0x2000_0000_0000_0007)  # the same slot (the low bits agree)
    claim(busy, mine)
    claim(busy, theirs)  # the other thread took the slot over
    release(busy, mine)
    assert is_claimed(busy, theirs) and not is_claimed(busy, mine)


def test_the_numba_type_has_a_field_type_per_field_in_order() -> None:
    assert tuple(KERNEL_STATE.fields) == KernelState._fields
    assert len(KERNEL_STATE.types) == len(KernelState._fields)


def test_a_child_another_thread_searches_is_put_off_while_there_is_room() -> None:
    busy = busy_table(2)
    key = np.uint64(0xABC0_0000_0000_0011)
    moves = np.zeros(3, np.int64)
    assert not defer_or_claim(busy, key, True, moves, 1, 19)  # nobody on it: claimed
    assert is_claimed(busy, key) and not moves.any()
    assert defer_or_claim(busy, key, True, moves, 1, 19)  # now someone is: goes to the end
    assert moves.tolist() == [0, 19, 0]
    assert not defer_or_claim(busy, key, False, moves, 2, 26)  # may not defer: searched
    assert not defer_or_claim(busy, key, True, moves, 3, 26)  # no room left: searched
    assert moves.tolist() == [0, 19, 0]

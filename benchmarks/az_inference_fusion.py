"""Forward time of an AlphaZero net with its BatchNorm layers folded into the layers before them.

Run: OMP_NUM_THREADS=1 PYTHONPATH=src python benchmarks/az_inference_fusion.py NET.pt

Times one forward pass of the net as it is, with every Conv2d+BatchNorm2d and Linear+BatchNorm1d
pair of its stem and tower folded (``torch.nn.utils.fusion``), and as a frozen TorchScript trace
(``torch.jit.freeze``), at the gate's batch (20 positions) and self-play's (64), five turns each
(the fastest kept), and the largest change of a value that folding makes.
"""

from __future__ import annotations

import argparse
import copy
import time

import numpy as np
import torch
from torch import nn
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_linear_bn_eval

from bitflip.core.board import Board
from bitflip.nn.alphazero import encode
from bitflip.nn.policy_value import NetPolicyValue


def random_positions(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Side-to-move and opponent bitboards after 4-49 random moves from the start."""
    rng = np.random.default_rng(seed)
    mover, other = [], []
    for _ in range(n):
        b = Board()
        for _ in range(rng.integers(4, 50)):
            moves = list(b.legal_moves)
            if b.is_game_over():
                break
            b.push(moves[rng.integers(len(moves))])
        p, o = b.side_bitboards()
        mover.append(p)
        other.append(o)
    return np.array(mover, np.uint64), np.array(other, np.uint64)


def folded(seq: nn.Module) -> nn.Sequential:
    """``seq`` with each layer followed by its BatchNorm replaced by one layer (eval mode)."""
    mods, out, i = list(seq), [], 0
    while i < len(mods):
        a, b = mods[i], mods[i + 1] if i + 1 < len(mods) else None
        if isinstance(a, nn.Conv2d) and isinstance(b, nn.BatchNorm2d):
            out.append(fuse_conv_bn_eval(a, b))
            i += 2
        elif isinstance(a, nn.Linear) and isinstance(b, nn.BatchNorm1d):
            out.append(fuse_linear_bn_eval(a, b))
            i += 2
        else:
            out.append(a)
            i += 1
    return nn.Sequential(*out)


def ms_a_call(f: nn.Module, x: torch.Tensor, m: torch.Tensor) -> float:
    with torch.inference_mode():
        for _ in range(3):
            f(x, m)
        t, n = time.perf_counter(), 0
        while time.perf_counter() - t < 0.5:
            f(x, m)
            n += 1
    return (time.perf_counter() - t) / n * 1e3


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("net", help="an az-<hash>.pt file")
    net = NetPolicyValue.from_file(ap.parse_args().net, "cpu").net.eval()
    torch.set_num_threads(1)
    fused = copy.deepcopy(net)
    fused.stem, fused.tower = folded(fused.stem), folded(fused.tower)
    p, o = random_positions(300)
    for batch in (20, 64):
        planes, legal = encode(p[:batch], o[:batch], net.config.size)
        x, m = torch.from_numpy(planes), torch.from_numpy(legal)
        with torch.no_grad():
            frozen = torch.jit.freeze(torch.jit.trace(copy.deepcopy(net).eval(), (x, m)))
        with torch.inference_mode():
            change = float((fused(x, m)[1] - net(x, m)[1]).abs().max())
        times: dict[str, list[float]] = {"as is": [], "folded": [], "jit.freeze": []}
        for _ in range(5):
            for name, f in (("as is", net), ("folded", fused), ("jit.freeze", frozen)):
                times[name].append(ms_a_call(f, x, m))
        cells = ", ".join(f"{k} {min(v):.2f} ms" for k, v in times.items())
        print(f"batch {batch}: {cells}; folding changes a value by at most {change:.1e}")


if __name__ == "__main__":
    main()

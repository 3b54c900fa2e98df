"""Fuzz every reader for longer than the test suite does, and tabulate what happened.

Each case is random bytes or a mutation (byte changes, insertions, deletions) of a valid file
of the format, written to a file and read back through the public readers. An outcome is
"games" (parsed, every game replays legally), "FormatError" (naming the file), or "BUG"
(anything else, listed with its input). Also the slowest case.

Run: PYTHONPATH=src python benchmarks/fuzz_formats.py --cases 5000 [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "formats"))

from test_fuzz import SAMPLES, _mutate

from bitflip.formats import obf
from bitflip.formats.errors import FormatError
from bitflip.formats.io import read_games


def outcome(suffix: str, data: bytes, folder: Path) -> str:
    path = folder / f"case{suffix}"
    path.write_bytes(data)
    try:
        if suffix == ".obf":
            n = sum(1 for _ in obf.read(path))
        else:
            n = 0
            for record in read_games(path):
                record.board()
                n += 1
    except FormatError as exc:
        return "FormatError" if exc.path == str(path) else "BUG: FormatError without the file"
    except Exception:
        return "BUG: " + traceback.format_exc(limit=-1).strip().splitlines()[-1]
    return "games" if n else "empty"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cases", type=int, default=2000, help="cases per format and kind")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = np.random.default_rng(args.seed)
    rows = []
    bugs = []
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        for suffix, sample in SAMPLES.items():
            for kind in ("random bytes", "mutated file"):
                counts: Counter[str] = Counter()
                slowest = 0.0
                for _ in range(args.cases):
                    if kind == "random bytes":
                        data = rng.integers(0, 256, int(rng.integers(0, 400)), dtype=np.uint8)
                        case = data.tobytes()
                    else:
                        edits = [
                            (
                                int(rng.integers(3)),
                                int(rng.integers(10_000)),
                                int(rng.integers(256)),
                            )
                            for _ in range(int(rng.integers(1, 9)))
                        ]
                        case = _mutate(sample, edits)
                    t0 = time.perf_counter()
                    result = outcome(suffix, case, folder)
                    slowest = max(slowest, time.perf_counter() - t0)
                    counts[result] += 1
                    if result.startswith("BUG"):
                        bugs.append((suffix, result, case[:200]))
                rows.append((suffix, kind, counts, slowest))
    print("| format | input | cases | games | empty | FormatError | bugs | slowest (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    for suffix, kind, counts, slowest in rows:
        nbugs = sum(v for k, v in counts.items() if k.startswith("BUG"))
        print(
            f"| {suffix} | {kind} | {sum(counts.values())} | {counts['games']} | "
            f"{counts['empty']} | {counts['FormatError']} | {nbugs} | {slowest * 1000:.1f} |"
        )
    for suffix, result, case in bugs[:20]:
        print(f"{suffix}: {result}: {case!r}")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())

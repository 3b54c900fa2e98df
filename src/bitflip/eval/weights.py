"""Self-describing weight files of the evaluations, and the ones shipped in ``bitflip/data``.

Pattern weights are an ``.npz`` holding ``meta`` (a JSON document: format, version, pattern
set with every pattern's squares, phases, training lineage, metrics, the SHA-256 of the weights)
and ``raw`` (float32 ``[phases, raw_stride]``, see :mod:`bitflip.eval.patterns`). They are named
``patterns-<first 12 hex digits of the hash>.npz``. FIREBRAND and feature weights are small
JSON documents (see :mod:`bitflip.eval.firebrand`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bitflip._atomic import atomic_path
from bitflip._npz import read_npz
from bitflip.eval.fileformat import check_header
from bitflip.eval.patterns import (
    FEATURE_OFFSETS,
    FEATURES,
    LAYOUT,
    MAX_EMPTIES,
    PATTERN_SET,
    PATTERNS,
    RAW_FEATURES,
    flat_vector,
)

PATTERNS_FORMAT = "bitflip-patterns"
PATTERNS_VERSION = 2
"""Version 2 added the feature tables (:data:`~bitflip.eval.patterns.FEATURES`); version 1
files (a bias and one linear mobility weight a phase) still load, converted exactly."""
DATA_DIR = Path(__file__).resolve().parent.parent / "data"
"""Where the package keeps its shipped weights."""


@dataclass
class PatternWeights:
    """Fitted pattern tables, one raw block per phase, with where they came from."""

    raw: np.ndarray
    """float32 ``[n_phases, LAYOUT.raw_stride]``."""
    phases: np.ndarray
    """int64[61]: the phase of each number of empties."""
    lineage: dict[str, object] = field(default_factory=dict)
    """Data, config, code revision and date of the fit."""
    metrics: dict[str, float] = field(default_factory=dict)
    """E.g. held-out mean absolute error in discs."""

    @property
    def n_phases(self) -> int:
        return int(self.raw.shape[0])

    def content_hash(self) -> str:
        return _content_hash(self.raw, self.phases)

    def file_name(self) -> str:
        return f"patterns-{self.content_hash()[:12]}.npz"

    def vector(self) -> np.ndarray:
        """The flat vector ``evaluate`` takes (header + folded tables)."""
        return flat_vector(self.raw.astype(np.float64), self.phases)

    def save(self, directory: str | Path) -> Path:
        """Write ``directory/patterns-<hash>.npz`` and return its path."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        meta = {
            "format": PATTERNS_FORMAT,
            "version": PATTERNS_VERSION,
            "pattern_set": PATTERN_SET,
            "patterns": [[name, list(sqs)] for name, sqs in PATTERNS],
            "extra": ["bias"],
            "features": [[name, size] for name, size in FEATURES],
            "n_phases": self.n_phases,
            "phase_of_empties": [int(x) for x in self.phases],
            "lineage": self.lineage,
            "metrics": self.metrics,
            "sha256": self.content_hash(),
        }
        path = d / self.file_name()
        with atomic_path(path, ".npz") as tmp:
            raw = self.raw.astype(np.float32)
            np.savez_compressed(tmp, meta=np.array(json.dumps(meta)), raw=raw)
        return path

    @classmethod
    def load(cls, path: str | Path) -> PatternWeights:
        """Read and check a weights file; ValueError names the file and what is wrong."""
        path = Path(path)
        arrays = read_npz(path, "pattern weights file", ("meta", "raw"))
        meta_text = str(arrays["meta"])
        raw = np.asarray(arrays["raw"], dtype=np.float32)
        try:
            meta = json.loads(meta_text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}: corrupt metadata ({exc})") from exc
        version = meta.get("version") if isinstance(meta, dict) else None
        meta = check_header(
            meta, str(path), "pattern weights", PATTERNS_FORMAT, 1 if version == 1 else 2
        )
        want = [[name, list(sqs)] for name, sqs in PATTERNS]
        if meta.get("pattern_set") != PATTERN_SET or meta.get("patterns") != want:
            raise ValueError(
                f"{path}: pattern set {meta.get('pattern_set')!r} does not match "
                f"this version's {PATTERN_SET!r}"
            )
        if version == 2 and meta.get("features") != [[n, k] for n, k in FEATURES]:
            raise ValueError(f"{path}: its feature tables differ from this version's")
        phases = np.array(meta.get("phase_of_empties", []), dtype=np.int64)
        n = int(meta.get("n_phases", -1))
        stride = LAYOUT.raw_stride if version == 2 else _V1_STRIDE
        if raw.shape != (n, stride) or phases.shape != (MAX_EMPTIES + 1,):
            raise ValueError(
                f"{path}: weights of shape {raw.shape} do not match "
                f"({n}, {stride}) phases and the pattern set"
            )
        if phases.min() < 0 or phases.max() >= n:
            raise ValueError(f"{path}: phase_of_empties refers to phases outside 0..{n - 1}")
        if _content_hash(raw, phases) != meta.get("sha256"):
            raise ValueError(
                f"{path}: content hash mismatch: the weights are corrupt or were "
                "changed after saving"
            )
        if not np.isfinite(raw).all():
            raise ValueError(f"{path}: weights contain NaN or infinity")
        if version == 1:
            raw = _from_version_1(raw)
        return cls(raw, phases, dict(meta.get("lineage", {})), dict(meta.get("metrics", {})))


_V1_STRIDE = RAW_FEATURES + 1
"""A version 1 phase block: bias, mobility weight, then the same pattern tables."""


def _from_version_1(raw: np.ndarray) -> np.ndarray:
    """Version 2 blocks that score exactly as the version 1 ``raw`` did (mobility difference
    times a weight = two mobility tables linear in the count, up to the tables' cap)."""
    out = np.zeros((raw.shape[0], LAYOUT.raw_stride), dtype=np.float32)
    out[:, 0] = raw[:, 0]
    out[:, 1:RAW_FEATURES] = raw[:, 2:]
    count = np.arange(FEATURES[0][1], dtype=np.float32)
    mine, theirs = RAW_FEATURES + FEATURE_OFFSETS[0], RAW_FEATURES + FEATURE_OFFSETS[1]
    out[:, mine : mine + len(count)] = raw[:, 1:2] * count
    out[:, theirs : theirs + len(count)] = -raw[:, 1:2] * count
    return out


def _content_hash(raw: np.ndarray, phases: np.ndarray) -> str:
    h = hashlib.sha256()
    h.update(PATTERN_SET.encode())
    h.update(np.ascontiguousarray(phases, dtype=np.int64).tobytes())
    h.update(np.ascontiguousarray(raw, dtype=np.float32).tobytes())
    return h.hexdigest()


def shipped_pattern_file(data_dir: Path = DATA_DIR) -> Path | None:
    """The shipped pattern weights (the newest by name order of its lineage date), if any."""
    files = sorted(data_dir.glob("patterns-*.npz"))
    if not files:
        return None
    if len(files) == 1:
        return files[0]

    def created(p: Path) -> str:
        try:
            return str(PatternWeights.load(p).lineage.get("created", ""))
        except ValueError:
            return ""

    return max(files, key=created)


def shipped_firebrand_file(data_dir: Path = DATA_DIR) -> Path | None:
    files = sorted(data_dir.glob("firebrand-*.json"))
    return files[-1] if files else None

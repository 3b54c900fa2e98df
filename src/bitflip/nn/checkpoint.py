"""Self-describing network files, named by content hash, and resumable training states.

A *model file* holds everything needed to use a network without its training code: the
format version, the model config, the weights, the training lineage (data, config, git
revision, parent file) and headline metrics. :func:`save_model` names it
``<kind>-<first 12 hex digits of its SHA-256>.pt``; :func:`load_model` checks that hash when
the name carries one, so a truncated or edited file is reported, never silently used.

A *training state* (``state.pt`` in a run directory) adds the optimizer, the epoch and the
early-stopping counters so that ``bitflip train ... --resume`` continues where it stopped.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from bitflip.nn.models import (
    ModelConfig,
    PolicyNet,
    ValueNet,
    build_model,
    config_from_dict,
    config_to_dict,
)

MODEL_FORMAT = "bitflip-net"
MODEL_FORMAT_VERSION = 1
STATE_FORMAT = "bitflip-train-state"
_HASHED_NAME = re.compile(r"^(value|policy)-([0-9a-f]{12})\.pt$")


class CheckpointError(ValueError):
    """A network or training-state file that cannot be used: corrupt, foreign or too new."""


@dataclass
class LoadedModel:
    """A network read from a model file, in eval mode, with what the file says about it."""

    model: ValueNet | PolicyNet
    config: ModelConfig
    lineage: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None


def _serialise(obj: dict[str, Any]) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def model_payload(
    model: ValueNet | PolicyNet,
    lineage: dict[str, Any] | None = None,
    metrics: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The dict a model file stores (weights moved to the CPU)."""
    return {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "config": config_to_dict(model.config),
        "lineage": dict(lineage or {}),
        "metrics": dict(metrics or {}),
        "state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()},
    }


def save_model(
    model: ValueNet | PolicyNet,
    directory: str | Path,
    lineage: dict[str, Any] | None = None,
    metrics: dict[str, Any] | None = None,
) -> Path:
    """Write a model file named by its content hash into ``directory``; returns its path."""
    data = _serialise(model_payload(model, lineage, metrics))
    digest = hashlib.sha256(data).hexdigest()[:12]
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{model.config.kind}-{digest}.pt"
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def _read(path: Path) -> dict[str, Any]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"no network file {path}") from None
    match = _HASHED_NAME.match(path.name)
    if match and hashlib.sha256(data).hexdigest()[:12] != match.group(2):
        raise CheckpointError(
            f"{path}: contents do not match the hash in its name (corrupt or edited file)"
        )
    try:
        obj = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many types for a damaged zip or pickle
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise CheckpointError(f"{path}: not a readable network file ({first[:200]})") from None
    if not isinstance(obj, dict):
        raise CheckpointError(f"{path}: not a bitflip file (unexpected contents)")
    return obj


def load_model(path: str | Path, device: str | torch.device = "cpu") -> LoadedModel:
    """Read a model file written by :func:`save_model`, ready for inference."""
    path = Path(path)
    obj = _read(path)
    if obj.get("format") != MODEL_FORMAT:
        raise CheckpointError(f"{path}: not a bitflip network file (format {obj.get('format')!r})")
    version = obj.get("format_version")
    if version != MODEL_FORMAT_VERSION:
        raise CheckpointError(
            f"{path}: network format version {version}, this bitflip reads {MODEL_FORMAT_VERSION}"
        )
    try:
        config = config_from_dict(obj["config"])
        model = build_model(config)
        model.load_state_dict(obj["state_dict"])
    except (KeyError, ValueError, RuntimeError, TypeError) as exc:
        raise CheckpointError(f"{path}: config and weights do not fit ({exc})") from None
    model.to(device).eval()
    return LoadedModel(model, config, obj.get("lineage", {}), obj.get("metrics", {}), path)


def save_state(path: str | Path, state: dict[str, Any]) -> None:
    """Write a training state atomically (a crash mid-write keeps the previous one)."""
    path = Path(path)
    payload = {"format": STATE_FORMAT, "format_version": MODEL_FORMAT_VERSION, **state}
    tmp = path.with_suffix(".tmp")
    torch.save(payload, tmp)
    tmp.replace(path)


def load_state(path: str | Path) -> dict[str, Any]:
    """Read a training state written by :func:`save_state`."""
    path = Path(path)
    obj = _read(path)
    if obj.get("format") != STATE_FORMAT:
        raise CheckpointError(f"{path}: not a bitflip training state")
    if obj.get("format_version") != MODEL_FORMAT_VERSION:
        raise CheckpointError(f"{path}: training-state version {obj.get('format_version')}")
    return obj

"""Self-describing network files, named by content hash, and resumable training states.

A *model file* holds everything needed to use a network without its training code: the
format version, the model config (whose ``kind`` says which network: ``value``, ``policy`` or
``az`` for the AlphaZero net), the weights, the training lineage (data, config, git revision,
parent file) and headline metrics. :func:`save_model` names it
``<kind>[-<tag>]-<first 12 hex digits of its SHA-256>.pt``; :func:`load_model` checks that
hash when the name carries one, so a truncated or edited file is reported, never silently used.

A *training state* (``state.pt`` in a run directory) adds the optimizer, the epoch and the
early-stopping counters so that ``bitflip train ... --resume`` continues where it stopped.
"""

from __future__ import annotations

import hashlib
import io
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import torch

from bitflip._atomic import atomic_path, write_bytes
from bitflip.nn.alphazero import AZNet, AZNetConfig
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
LEGACY_AZ_FORMAT = "bitflip-az-net"
"""The AlphaZero nets' own format before they became model files (read only by
:func:`convert_legacy_az`)."""
_HASHED_NAME = re.compile(r"^(value|policy|az)(?:-[0-9a-z]+)?-([0-9a-f]{12})\.pt$")

Net = ValueNet | PolicyNet | AZNet
"""Every network a model file can hold."""
NetConfig = ModelConfig | AZNetConfig
"""The config of any of them; ``config.kind`` names the network."""


class CheckpointError(ValueError):
    """A network or training-state file that cannot be used: corrupt, foreign or too new."""


@dataclass
class LoadedModel:
    """A network read from a model file, in eval mode, with what the file says about it."""

    model: Net
    config: NetConfig
    lineage: dict[str, Any] = field(default_factory=dict)
    metrics: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None


def _serialise(obj: dict[str, Any]) -> bytes:
    buf = io.BytesIO()
    torch.save(obj, buf)
    return buf.getvalue()


def net_config_to_dict(config: NetConfig) -> dict[str, Any]:
    """A plain dict of any network config, ``kind`` included (for files and JSON)."""
    if isinstance(config, AZNetConfig):
        return {"kind": config.kind, **asdict(config)}
    return config_to_dict(config)


def net_config_from_dict(data: dict[str, Any]) -> NetConfig:
    """The config a dict describes; ``kind`` picks the network; unknown keys are an error."""
    if data.get("kind") != AZNetConfig.kind:
        return config_from_dict(data)
    values = {k: v for k, v in data.items() if k != "kind"}
    unknown = sorted(set(values) - {f.name for f in fields(AZNetConfig)})
    if unknown:
        raise ValueError(f"unknown az model setting(s): {', '.join(unknown)}")
    return AZNetConfig(**values)


def build_net(config: NetConfig) -> Net:
    """A freshly initialised network of any kind."""
    if isinstance(config, AZNetConfig):
        return AZNet(config)
    return build_model(config)


def model_payload(
    model: Net,
    lineage: dict[str, Any] | None = None,
    metrics: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The dict a model file stores (weights moved to the CPU)."""
    return {
        "format": MODEL_FORMAT,
        "format_version": MODEL_FORMAT_VERSION,
        "config": net_config_to_dict(model.config),
        "lineage": dict(lineage or {}),
        "metrics": dict(metrics or {}),
        "state_dict": {k: v.detach().cpu() for k, v in model.state_dict().items()},
    }


def save_model(
    model: Net,
    directory: str | Path,
    lineage: dict[str, Any] | None = None,
    metrics: dict[str, Any] | None = None,
    tag: str | None = None,
) -> Path:
    """Write a model file named by its content hash into ``directory``; returns its path.

    The name is ``<kind>-<hash>.pt``, or ``<kind>-<tag>-<hash>.pt`` with a ``tag`` such as
    ``8x8`` (lower-case letters and digits).
    """
    if tag is not None and not re.fullmatch(r"[0-9a-z]+", tag):
        raise ValueError(f"a model file tag is lower-case letters and digits, not {tag!r}")
    data = _serialise(model_payload(model, lineage, metrics))
    digest = hashlib.sha256(data).hexdigest()[:12]
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    stem = model.config.kind if tag is None else f"{model.config.kind}-{tag}"
    path = directory / f"{stem}-{digest}.pt"
    write_bytes(path, data)
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
    if not data.startswith(b"PK\x03\x04"):  # torch.save writes a zip archive
        what = "an empty file" if not data else "no zip archive: another format or damaged"
        raise CheckpointError(f"{path}: not a readable network file ({what})")
    try:
        obj = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as exc:  # torch raises many types for a damaged zip or pickle
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        first = first.split(". ")[0]  # torch appends advice sentences
        if "weights_only" in first:  # torch blames its own default; the pickle is the problem
            first = "its contents are damaged or not plain tensors and settings"
        raise CheckpointError(
            f"{path}: not a readable network file (truncated or damaged: {first[:160]})"
        ) from None
    if not isinstance(obj, dict):
        raise CheckpointError(f"{path}: not a bitflip file (unexpected contents)")
    return obj


def load_model(path: str | Path, device: str | torch.device = "cpu") -> LoadedModel:
    """Read a model file written by :func:`save_model`, ready for inference."""
    path = Path(path)
    obj = _read(path)
    if obj.get("format") == LEGACY_AZ_FORMAT:
        raise CheckpointError(
            f"{path}: an AlphaZero net in the retired {LEGACY_AZ_FORMAT!r} format; convert it "
            "with bitflip.nn.checkpoint.convert_legacy_az"
        )
    if obj.get("format") != MODEL_FORMAT:
        raise CheckpointError(f"{path}: not a bitflip network file (format {obj.get('format')!r})")
    version = obj.get("format_version")
    if version != MODEL_FORMAT_VERSION:
        raise CheckpointError(
            f"{path}: network format version {version}, this bitflip reads {MODEL_FORMAT_VERSION}"
        )
    try:
        config = net_config_from_dict(obj["config"])
        model = build_net(config)
        model.load_state_dict(obj["state_dict"])
    except (KeyError, ValueError, RuntimeError, TypeError) as exc:
        raise CheckpointError(f"{path}: config and weights do not fit ({exc})") from None
    model.to(device).eval()
    return LoadedModel(model, config, obj.get("lineage", {}), obj.get("metrics", {}), path)


def load_az_model(path: str | Path, device: str | torch.device = "cpu") -> LoadedModel:
    """A model file that holds an AlphaZero network (a value or policy file is refused by name)."""
    loaded = load_model(path, device)
    if not isinstance(loaded.model, AZNet):
        raise CheckpointError(
            f"{path}: a {loaded.config.kind} network, not an AlphaZero (az) network"
        )
    return loaded


def load_az_net(path: str | Path, device: str | torch.device = "cpu") -> AZNet:
    """The AlphaZero network of a model file (a value or policy file is refused by name)."""
    model = load_az_model(path, device).model
    assert isinstance(model, AZNet)
    return model


def convert_legacy_az(path: str | Path, directory: str | Path, tag: str | None = None) -> Path:
    """Rewrite an old ``bitflip-az-net`` file as a model file; weights, lineage kept."""
    path = Path(path)
    obj = _read(path)
    if obj.get("format") != LEGACY_AZ_FORMAT or obj.get("format_version") != 1:
        raise CheckpointError(f"{path}: not a version 1 {LEGACY_AZ_FORMAT!r} file")
    try:
        net = AZNet(AZNetConfig(**obj["config"]))
        net.load_state_dict(obj["state_dict"])
    except (KeyError, TypeError, ValueError, RuntimeError) as exc:
        raise CheckpointError(f"{path}: config and weights do not fit ({exc})") from None
    lineage = {**obj.get("lineage", {}), "converted_from": path.name}
    return save_model(net.eval(), directory, lineage, obj.get("metrics", {}), tag)


def save_state(path: str | Path, state: dict[str, Any]) -> None:
    """Write a training state atomically (a crash mid-write keeps the previous one)."""
    path = Path(path)
    payload = {"format": STATE_FORMAT, "format_version": MODEL_FORMAT_VERSION, **state}
    with atomic_path(path) as tmp:
        torch.save(payload, tmp)


def load_state(path: str | Path) -> dict[str, Any]:
    """Read a training state written by :func:`save_state`."""
    path = Path(path)
    obj = _read(path)
    if obj.get("format") != STATE_FORMAT:
        raise CheckpointError(f"{path}: not a bitflip training state")
    if obj.get("format_version") != MODEL_FORMAT_VERSION:
        raise CheckpointError(f"{path}: training-state version {obj.get('format_version')}")
    return obj

"""Checkpoints of a pretraining run: where they live, writing them, resuming from them.

A checkpoint holds the settings and input fingerprints it was trained with, so a run
resumes only with the same settings (limits and runtime settings may change) and the
same, unchanged input files.
"""

from __future__ import annotations

import errno
from pathlib import Path

import torch

from ..files import atomic_output
from .settings import PretrainConfig

CHECKPOINT_VERSION = 1
#: values implied by checkpoints written before a setting existed
_MISSING_SETTINGS = {"curriculum_init": "unknown"}


def work_dir(output_dir: Path) -> Path:
    """Where checkpoints and the encoded corpus live: OUTPUT_DIR.checkpoints."""
    output_dir = Path(output_dir)
    return output_dir.with_name(output_dir.name + ".checkpoints")


def checkpoint_path(output_dir: Path) -> Path:
    """The checkpoint of the run writing to `output_dir`."""
    return work_dir(output_dir) / "checkpoint.pt"


def save_checkpoint(path: Path, config: PretrainConfig, inputs: list[dict], training: dict) -> None:
    """Write a checkpoint atomically; `training` is the trainer's resumable state."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "version": CHECKPOINT_VERSION,
        "settings": config.settings(),
        "inputs": inputs,
        **training,
    }
    with atomic_output(path) as tmp:
        torch.save(payload, tmp)


def load_checkpoint(path: Path, config: PretrainConfig, inputs: list[dict]) -> dict:
    """A checkpoint to resume from, or ValueError naming the settings that differ."""
    if not path.exists():
        problem = "no checkpoint to resume (run without --resume to start afresh)"
        raise FileNotFoundError(errno.ENOENT, problem, str(path))
    checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    if checkpoint.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{path}: cannot resume: unknown checkpoint version")
    saved = {**_MISSING_SETTINGS, **checkpoint["settings"]}
    diffs = _differences(
        {**saved, "inputs": [i["path"] for i in checkpoint["inputs"]]},
        {**config.settings(), "inputs": [i["path"] for i in inputs]},
    )
    if checkpoint["inputs"] != inputs and not diffs:
        diffs = ["inputs: the input files changed since the checkpoint (size or time)"]
    if diffs:
        raise ValueError(
            f"{path}: cannot resume: it was trained with different settings ("
            + "; ".join(diffs)
            + "); use the same settings, or another OUTPUT_DIR to start afresh"
        )
    return checkpoint


def _differences(saved: dict, current: dict) -> list[str]:
    keys = sorted(set(saved) | set(current))
    return [
        f"{k}: checkpoint {saved.get(k)!r}, now {current.get(k)!r}"
        for k in keys
        if saved.get(k) != current.get(k)
    ]

"""Checkpoints of a pretraining run: where they live, writing them, resuming from them.

A checkpoint holds the settings and input fingerprints it was trained with, so a run
resumes only with the same settings (limits and runtime settings may change) and the
same, unchanged input files.
"""

from __future__ import annotations

import errno
import io
from pathlib import Path

import torch

from ..io.files import atomic_output, require_file
from .corpus import same_inputs
from .settings import PretrainConfig

CHECKPOINT_VERSION = 1
#: values implied by checkpoints written before a setting existed
_MISSING_SETTINGS = {"curriculum_init": "unknown", "lang": "en"}
#: what a checkpoint holds besides its version and settings (see `Trainer.training_state`)
_CONTENTS = ("inputs", "model", "optimizers", "sampler", "generator", "state")
_AFRESH = "run without --resume to start afresh"


def work_dir(output_dir: Path) -> Path:
    """Where checkpoints and the encoded corpus live: OUTPUT_DIR.checkpoints."""
    output_dir = Path(output_dir)
    return output_dir.with_name(output_dir.name + ".checkpoints")


def checkpoint_path(output_dir: Path) -> Path:
    """The checkpoint of the run writing to `output_dir`."""
    return work_dir(output_dir) / "checkpoint.pt"


def save_checkpoint(path: Path, config: PretrainConfig, inputs: list[dict], training: dict) -> None:
    """Write a checkpoint atomically; `training` is the trainer's resumable state."""
    payload = {
        "version": CHECKPOINT_VERSION,
        "settings": config.settings(),
        "inputs": inputs,
        **training,
    }
    # serialised in memory first: torch reports a failed write (a full disk) as a
    # RuntimeError without the file's name, a plain write as the OSError it is
    buffer = io.BytesIO()
    torch.save(payload, buffer)
    with atomic_output(path) as tmp:
        tmp.write_bytes(buffer.getbuffer())


def load_checkpoint(path: Path, config: PretrainConfig, inputs: list[dict]) -> dict:
    """A checkpoint to resume from.

    FileNotFoundError if there is none; ValueError naming the file if it is damaged, not
    a checkpoint of this version, or trained with other settings (naming those).
    """
    checkpoint = _read_checkpoint(path)
    saved = {**_MISSING_SETTINGS, **checkpoint["settings"]}
    diffs = _differences(
        {**saved, "inputs": [i["path"] for i in checkpoint["inputs"]]},
        {**config.settings(), "inputs": [i["path"] for i in inputs]},
    )
    if not same_inputs(checkpoint["inputs"], inputs) and not diffs:
        diffs = ["inputs: the input files changed since the checkpoint (size or first/last bytes)"]
    if diffs:
        raise ValueError(
            f"{path}: cannot resume: it was trained with different settings ("
            + "; ".join(diffs)
            + "); use the same settings, or another OUTPUT_DIR to start afresh"
        )
    return checkpoint


def _read_checkpoint(path: Path) -> dict:
    """The contents of a checkpoint file, checked to hold what resuming needs."""
    if not path.exists():
        raise FileNotFoundError(errno.ENOENT, f"no checkpoint to resume ({_AFRESH})", str(path))
    path = require_file(path)
    try:
        checkpoint = torch.load(path, map_location="cpu", weights_only=True)
    except OSError:
        raise
    except Exception:  # torch.load raises many kinds of errors on damaged files
        raise ValueError(
            f"{path}: cannot resume: not a readable checkpoint (damaged or truncated); {_AFRESH}"
        ) from None
    if not isinstance(checkpoint, dict) or not isinstance(checkpoint.get("settings"), dict):
        raise ValueError(f"{path}: cannot resume: not a pretrain-lm checkpoint; {_AFRESH}")
    if checkpoint.get("version") != CHECKPOINT_VERSION:
        raise ValueError(f"{path}: cannot resume: unknown checkpoint version")
    missing = [key for key in _CONTENTS if key not in checkpoint]
    if missing:
        raise ValueError(
            f"{path}: cannot resume: an incomplete checkpoint (no {', '.join(missing)}); {_AFRESH}"
        )
    return checkpoint


def _differences(saved: dict, current: dict) -> list[str]:
    keys = sorted(set(saved) | set(current))
    return [
        f"{k}: checkpoint {saved.get(k)!r}, now {current.get(k)!r}"
        for k in keys
        if saved.get(k) != current.get(k)
    ]

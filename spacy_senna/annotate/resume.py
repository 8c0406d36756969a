"""Which planned shards are done: their output exists and was made from the same bytes.

The manifest records each shard's fingerprint, a BLAKE2b hash of its input bytes, when a
run plans it. A shard whose output exists but whose input now hashes otherwise (the file
was edited, or lines were appended to its last shard) loses that output and is annotated
again, so every output left in the directory is one of the recorded bytes.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List

from .output import MANIFEST, is_complete, output_path, update_manifest
from .shards import Shard

#: the manifest's key for {shard name: fingerprint}
FINGERPRINTS = "shards"
_BLOCK = 1 << 20


@dataclass(frozen=True)
class Resume:
    """The shards to annotate; `changed` of them had an output made from other bytes
    (`stale`: those outputs); `fingerprints`: every shard's, to record."""

    todo: List[Shard]
    changed: int
    stale: List[Path]
    fingerprints: Dict[str, str]

    def record(self, output_dir: Path) -> None:
        """Once the run writes (its pipeline has loaded): remove the stale outputs and
        record the fingerprints."""
        for path in self.stale:
            path.unlink(missing_ok=True)
        update_manifest(output_dir, {FINGERPRINTS: self.fingerprints})


def fingerprint(shard: Shard) -> str:
    """A hash of the shard's input bytes."""
    digest = hashlib.blake2b(digest_size=16)
    with open(shard.path, "rb") as f:
        f.seek(shard.start)
        left = shard.end - shard.start
        while left > 0:
            block = f.read(min(_BLOCK, left))
            if not block:
                break
            digest.update(block)
            left -= len(block)
    return digest.hexdigest()


def plan_resume(output_dir: Path, shards: List[Shard], extension: str) -> Resume:
    """Which shards to annotate: those without an output, and those whose output was
    made from other bytes (an input unreadable now is left to its worker). Nothing is
    changed on disk until `Resume.record`."""
    path = output_dir / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf8")) if path.is_file() else {}
    recorded: Dict[str, str] = manifest.get(FINGERPRINTS, {})
    current: Dict[str, str] = {}
    todo: List[Shard] = []
    stale: List[Path] = []
    for shard in shards:
        try:
            current[shard.name] = fingerprint(shard)
        except OSError:
            todo.append(shard)
            continue
        if not is_complete(output_dir, shard, extension):
            todo.append(shard)
        elif recorded.get(shard.name) != current[shard.name]:
            stale.append(output_path(output_dir, shard, extension))
            todo.append(shard)
    return Resume(todo, len(stale), stale, {**recorded, **current})

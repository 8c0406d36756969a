"""Which input files a corpus or checkpoint was made from, and whether they changed."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from ..io.files import require_file


def fingerprint(paths: Sequence[Path]) -> list[dict]:
    """Identify input files by resolved path, size and a hash of their first and last bytes.

    The modification time is kept too, but only to compare with fingerprints written
    before the hash existed: a copied or re-mounted file with the same bytes still matches.
    """
    out = []
    for path in paths:
        path = require_file(path)
        stat = path.stat()
        out.append(
            {
                "path": str(path.resolve()),
                "size": stat.st_size,
                "sample": _edge_hash(path, stat.st_size),
                "mtime": stat.st_mtime,
            }
        )
    return out


def same_inputs(saved: Sequence[dict], current: Sequence[dict]) -> bool:
    """Whether fingerprints `saved` earlier describe the files of `current`."""
    if len(saved) != len(current):
        return False
    for old, new in zip(saved, current):
        content = "sample" if "sample" in old else "mtime"
        if any(old.get(key) != new[key] for key in ("path", "size", content)):
            return False
    return True


def _edge_hash(path: Path, size: int, edge: int = 1 << 16) -> str:
    with path.open("rb") as handle:
        digest = hashlib.sha256(handle.read(edge))
        handle.seek(max(size - edge, 0))
        digest.update(handle.read(edge))
    return digest.hexdigest()

"""The output directory: one file per shard, written under a temporary name and renamed.

A shard's output exists under its final name only once complete, so a re-run skips
exactly the shards that are done; a crash or a killed worker leaves at most a
`*.partial-*` file, which the next run removes. `annotate.json` records the settings
that shape the output, so a resumed run cannot mix formats or shard layouts.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path
from typing import Any, Dict, Iterable, List

from .shards import Shard

MANIFEST = "annotate.json"
PARTIAL = ".partial-"


def output_path(output_dir: Path, shard: Shard, extension: str) -> Path:
    """Where the shard's finished output goes."""
    return output_dir / f"{shard.name}.{extension}"


def is_complete(output_dir: Path, shard: Shard, extension: str) -> bool:
    """Whether the shard's output was already written in full."""
    return output_path(output_dir, shard, extension).is_file()


class AtomicFile:
    """A file written under a temporary name in its directory, renamed by `commit`.

    A failed open, write or commit deletes the temporary file and raises an OSError
    naming `path`, the output the user will look for.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.temporary = path.with_name(f"{path.name}{PARTIAL}{socket.gethostname()}-{os.getpid()}")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.file = open(self.temporary, "wb")
        except OSError as err:
            raise self._error(err) from err

    def write(self, data: bytes) -> None:
        if not data:
            return
        try:
            self.file.write(data)
        except OSError as err:
            self.abort()
            raise self._error(err) from err

    def commit(self) -> None:
        """Flush, sync and move the file to its final name."""
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            os.replace(self.temporary, self.path)
        except OSError as err:
            self.abort()
            raise self._error(err) from err

    def abort(self) -> None:
        """Close and delete the temporary file (also when closing fails: a full disk)."""
        try:
            self.file.close()
        except OSError:
            pass  # the write that failed has already raised why
        finally:
            self.temporary.unlink(missing_ok=True)

    def _error(self, err: OSError) -> OSError:
        return OSError(err.errno, err.strerror or str(err), str(self.path))


def check_manifest(output_dir: Path, settings: Dict[str, Any], overwrite: bool) -> None:
    """Refuse to resume into a directory made with other settings (writes nothing: the
    run records its settings once its pipeline has loaded)."""
    path = output_dir / MANIFEST
    if path.is_file() and not overwrite:
        previous = json.loads(path.read_text(encoding="utf8")).get("settings", {})
        changed = [key for key in settings if previous.get(key) != settings[key]]
        if changed:
            details = ", ".join(f"{k}: {previous.get(k)!r} -> {settings[k]!r}" for k in changed)
            raise ValueError(
                f"{output_dir} holds output made with other settings ({details}); pass "
                "--overwrite to redo it or choose another --output directory"
            )


def update_manifest(output_dir: Path, values: Dict[str, Any]) -> None:
    """Merge `values` into the manifest (written atomically)."""
    path = output_dir / MANIFEST
    data = json.loads(path.read_text(encoding="utf8")) if path.is_file() else {}
    data.update(values)
    out = AtomicFile(path)
    out.write((json.dumps(data, indent=2) + "\n").encode("utf8"))
    out.commit()


def remove_partials(output_dir: Path) -> int:
    """Delete temporary files that an interrupted run left; returns how many."""
    partials = [p for p in output_dir.rglob(f"*{PARTIAL}*") if p.is_file()]
    for path in partials:
        path.unlink()
    return len(partials)


def remove_outputs(output_dir: Path, extensions: Iterable[str]) -> List[Path]:
    """Delete earlier shard outputs (`NAME.NNNNN.EXT`) for `--overwrite`."""
    removed = []
    suffixes = tuple(f".{e}" for e in extensions)
    for path in output_dir.rglob("*"):
        if path.is_file() and path.name.endswith(suffixes) and _is_shard_name(path.name):
            path.unlink()
            removed.append(path)
    return removed


def _is_shard_name(name: str) -> bool:
    parts = name.rsplit(".", 2)
    return len(parts) == 3 and len(parts[1]) == 5 and parts[1].isdigit()

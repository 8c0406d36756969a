"""File helpers: input checks, output directories and all-or-nothing (atomic) writes.

Problems are raised as OSError subclasses whose `filename` is the path the caller gave
and whose `strerror` says what is wrong, so the CLI prints them as `✘ FILE: PROBLEM`.
"""

from __future__ import annotations

import errno
import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def require_file(path: str | os.PathLike) -> Path:
    """`path` as a Path if it is an existing file; FileNotFoundError/IsADirectoryError if not."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory, expected a file", str(path))
    if not path.is_file():
        raise FileNotFoundError(errno.ENOENT, "file not found", str(path))
    return path


def make_directory(path: str | os.PathLike) -> Path:
    """Create directory `path` and its parents if missing; NotADirectoryError names a file
    in the way (the path itself or one of its parents)."""
    path = Path(path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise _not_a_directory(path) from None
    return path


def check_directory(path: str | os.PathLike) -> Path:
    """`path` as a Path if it is a directory or could be created as one, without creating
    anything; NotADirectoryError names a file in the way (as `make_directory` does)."""
    path = Path(path)
    if any(p.exists() and not p.is_dir() for p in (path, *path.parents)):
        raise _not_a_directory(path)
    return path


def _not_a_directory(path: Path) -> NotADirectoryError:
    """The error for `path` when it, or one of its parents, is not a directory."""
    blocker = next(p for p in (path, *path.parents) if p.exists() and not p.is_dir())
    if blocker == path:
        problem = "exists and is not a directory"
    else:
        problem = f"cannot create it: {blocker} is not a directory"
    return NotADirectoryError(errno.ENOTDIR, problem, str(path))


@contextmanager
def atomic_output(path: str | os.PathLike, *, directory: bool = False) -> Iterator[Path]:
    """Yield a fresh temporary path beside `path` for the caller to write (a file, or a
    directory with `directory=True`); when the block completes, rename it to `path`.

    If the block fails, the temporary output and the directories made for it are deleted
    and an existing `path` is left as it was, so readers never see a half-written output.
    An OSError without a file name (a full disk) or naming the temporary path is
    re-raised naming `path`.
    """
    path = Path(path)
    if path.exists() and path.is_dir() != directory:
        if directory:
            raise _not_a_directory(path)
        raise IsADirectoryError(errno.EISDIR, "is a directory, expected a file", str(path))
    created = missing_parents(path)
    try:
        make_directory(path.parent)
    except NotADirectoryError:
        raise _not_a_directory(path) from None
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    done = False
    try:
        yield tmp
        if not tmp.exists():
            raise FileNotFoundError(errno.ENOENT, "nothing was written", str(path))
        _replace(tmp, path)
        done = True
    except OSError as err:
        if err.filename is None or str(err.filename).startswith(str(tmp)):
            raise OSError(err.errno, err.strerror or str(err), str(path)) from err
        raise
    finally:
        _remove(tmp)
        if not done:
            remove_empty(created)


def missing_parents(path: str | os.PathLike) -> list[Path]:
    """The directories above `path` that do not exist yet, nearest first."""
    missing = []
    for parent in Path(path).parents:
        if parent.exists() or parent.is_symlink():
            break
        missing.append(parent)
    return missing


def remove_empty(directories: list[Path]) -> None:
    """Delete each of `directories` (nearest first) that exists and is empty."""
    for directory in directories:
        try:
            directory.rmdir()
        except OSError:
            return


def _replace(tmp: Path, path: Path) -> None:
    """Rename `tmp` to `path`; an existing directory is moved aside first, then deleted."""
    if not tmp.is_dir() or not path.is_dir():
        os.replace(tmp, path)
        return
    old = path.with_name(f".{path.name}.old-{os.getpid()}-{secrets.token_hex(4)}")
    os.replace(path, old)
    try:
        os.replace(tmp, path)
    except OSError:
        os.replace(old, path)
        raise
    shutil.rmtree(old, ignore_errors=True)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists() or path.is_symlink():
        path.unlink(missing_ok=True)

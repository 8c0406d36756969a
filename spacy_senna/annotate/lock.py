"""One annotate run per output directory: a lock on OUTPUT/.annotate.lock.

A second run would delete the first one's `*.partial-*` files (its shards in progress)
and write the same shards, so it is refused at once. The lock is an `flock` on the file,
which the kernel releases when its process ends: a lock left by a killed run is stale
and simply taken over. The file holds the holder's host and process id for the message.
Where the file system has no locks, the holder named in the file decides: a lock whose
process is gone from this host is stale and taken over.
"""

from __future__ import annotations

import errno
import fcntl
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK = ".annotate.lock"


class OutputLocked(OSError):
    """Another run is writing into the output directory."""


@contextmanager
def output_lock(output_dir: Path) -> Iterator[Path]:
    """Hold `output_dir` (an existing directory) for this run; yields the lock file.

    OutputLocked names the directory and the run holding it; a directory this process
    cannot write into is an OSError naming the directory.
    """
    path = output_dir / LOCK
    fd = _acquire(path, output_dir)
    try:
        yield path
    finally:
        path.unlink(missing_ok=True)  # while still holding it: a waiting run starts afresh
        os.close(fd)


def _acquire(path: Path, output_dir: Path) -> int:
    holder = f"{socket.gethostname()} {os.getpid()}"
    while True:
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as err:
            raise OSError(err.errno, err.strerror or str(err), str(output_dir)) from err
        try:
            _lock(fd)
        except OutputLocked:
            current = _read(fd)
            os.close(fd)
            raise OutputLocked(
                errno.EBUSY,
                f"another annotate run ({_describe(current)}) is writing into it; wait for "
                "it to finish, or choose another --output directory",
                str(output_dir),
            ) from None
        if _same_file(fd, path):
            break
        os.close(fd)  # the holder finished and removed the file meanwhile: lock anew
    try:
        os.ftruncate(fd, 0)
        os.write(fd, f"{holder}\n".encode("utf8"))
    except OSError as err:  # a full disk
        path.unlink(missing_ok=True)
        os.close(fd)
        raise OSError(err.errno, err.strerror or str(err), str(output_dir)) from err
    return fd


def _lock(fd: int) -> None:
    """Lock `fd`, or raise OutputLocked; without file locks, judge by the holder named."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return
    except BlockingIOError:
        raise OutputLocked() from None
    except OSError as err:
        if err.errno not in (errno.ENOLCK, errno.EOPNOTSUPP, errno.EINVAL):
            raise
    if not _is_stale(_read(fd)):
        raise OutputLocked()


def _is_stale(holder: str) -> bool:
    """Whether the lock's holder ("HOST PID") is a process gone from this host."""
    host, _, pid = holder.partition(" ")
    if not pid.isdigit():
        return True  # empty or garbled: its writer died before finishing it
    if host != socket.gethostname():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        pass  # alive, run by another user
    return False


def _read(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, 1024).decode("utf8", "replace").strip()


def _describe(holder: str) -> str:
    host, _, pid = holder.partition(" ")
    return f"process {pid} on {host}" if pid else "starting"


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path))
    except FileNotFoundError:
        return False

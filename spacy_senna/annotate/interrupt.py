"""Stopping a run on SIGINT or SIGTERM: the driver stops its workers and unwinds.

In the driver both signals raise `Interrupted` in the main thread, once its worker
processes have been sent SIGTERM, so the backends' cleanup runs, partial files are
removed and the output lock is released. Worker processes ignore SIGINT (a terminal's
Ctrl-C reaches the whole process group: the driver alone decides) and die with their
driver, so no shard is written after it has gone.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import multiprocessing.util
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NoReturn, Optional

SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: seconds the driver waits for a stopped worker before killing it
STOP_SECONDS = 5.0
_PR_SET_PDEATHSIG = 1


class Interrupted(KeyboardInterrupt):
    """A run stopped by a signal; `complete` of `total` shards are done (None: unknown)."""

    def __init__(
        self, signum: int, complete: Optional[int] = None, total: Optional[int] = None
    ) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum
        self.complete = complete
        self.total = total

    @property
    def exit_status(self) -> int:
        """128 + the signal's number, as shells report a command a signal stopped."""
        return 128 + self.signum

    def line(self, resumable: bool = True) -> str:
        """The one line the command prints."""
        text = "interrupted"
        if self.total is not None:
            text += f": {self.complete} of {self.total} shards complete"
        return text + ("; rerun the same command to resume" if resumable else "")


@contextmanager
def stop_on_signals() -> Iterator[None]:
    """While inside, SIGINT and SIGTERM stop the worker processes and raise Interrupted
    (later signals are ignored while the run unwinds); the handlers are restored after."""
    driver = os.getpid()

    def stop(signum: int, frame: object) -> None:
        if os.getpid() != driver:  # a forked worker (spaCy's n_process): the driver decides
            os._exit(128 + signum)
        for other in SIGNALS:
            signal.signal(other, signal.SIG_IGN)
        for child in multiprocessing.active_children():
            child.terminate()
        warnings.filterwarnings("ignore", message=r"\[W127\]")  # spaCy's: workers ended
        raise Interrupted(signum)

    previous = {s: signal.signal(s, stop) for s in SIGNALS}
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def stop_children(timeout: float = STOP_SECONDS) -> None:
    """Terminate this process's multiprocessing children, wait for them, kill any left."""
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + timeout
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join()


def exit_now(status: int) -> NoReturn:
    """End this process with `status` once stdout and stderr are flushed and the
    semaphores of its queues released, without waiting for the queues' feeder threads:
    those writing to stopped workers would never finish."""
    sys.stdout.flush()
    sys.stderr.flush()
    multiprocessing.util._run_finalizers(0)  # priority >= 0: not the feeders' (-5)
    os._exit(status)


@contextmanager
def sigint_ignored() -> Iterator[None]:
    """Processes started inside ignore SIGINT from their start (the disposition is
    inherited); only where signals can be set, in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def die_with_parent(parent: int) -> None:
    """End this worker process as soon as its parent `parent` ends (Linux: the kernel
    kills it; elsewhere a thread checks every half second)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # it ended before the kernel was told
            os._exit(1)
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True).start()

"""Long commands stop on SIGINT and SIGTERM as on Ctrl-C, writing what they have."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def signals_stop_cleanly() -> Iterator[None]:
    """SIGINT and SIGTERM raise KeyboardInterrupt inside the block, as Ctrl-C does: also
    when the command was started in the background, where SIGINT is ignored, and under
    `timeout` or a job scheduler, which send SIGTERM. The handlers before are restored."""

    def stop(signum, frame):
        raise KeyboardInterrupt

    before = {sig: signal.signal(sig, stop) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler)

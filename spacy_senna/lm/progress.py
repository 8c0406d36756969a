"""Progress output of a pretraining run: a tqdm bar on a terminal, status lines otherwise."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from tqdm import tqdm


class Progress:
    """tqdm on a terminal, otherwise a plain status line every `every` seconds.

    Nothing is written when `enabled` is false.
    """

    def __init__(self, enabled: bool, total: int | None, initial: int, every: float = 30.0):
        self.tty = enabled and sys.stderr.isatty()
        self.enabled = enabled
        self.every = every
        self.last = time.perf_counter()
        self.bar = (
            tqdm(
                total=total,
                initial=initial,
                unit="w",
                unit_scale=True,
                dynamic_ncols=True,
            )
            if self.tty
            else None
        )

    def update(self, n: int, status: Callable[[], str]) -> None:
        """Count `n` more words; `status` gives the text shown beside the count."""
        if self.bar is not None:
            self.bar.update(n)
            now = time.perf_counter()
            if now - self.last > 1.0:
                self.bar.set_postfix_str(status(), refresh=False)
                self.last = now
        elif self.enabled and time.perf_counter() - self.last > self.every:
            self.last = time.perf_counter()
            self.write(status())

    def write(self, message: str) -> None:
        """A line on stderr (above the bar, if there is one)."""
        if self.bar is not None:
            self.bar.write(message, file=sys.stderr)
        elif self.enabled:
            print(message, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def format_word_count(n: float) -> str:
    """1234567 → "1.23M"."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.2f}{unit}"
    return str(int(n))

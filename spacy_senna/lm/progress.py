"""Progress output of a pretraining run: a tqdm bar on a terminal, status lines otherwise;
status lines while the text is read."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from tqdm import tqdm


class Progress:
    """tqdm on a terminal (unless `bar` is false), otherwise a plain status line every
    `every` seconds; the bar counts `unit`s (words unless told).

    Nothing is written when `enabled` is false.
    """

    def __init__(
        self,
        enabled: bool,
        total: int | None,
        initial: int,
        every: float = 30.0,
        bar: bool = True,
        unit: str = "w",
    ):
        self.tty = enabled and bar and sys.stderr.isatty()
        self.enabled = enabled
        self.every = every
        self.last = time.perf_counter()
        self.bar = (
            tqdm(
                total=total,
                initial=initial,
                unit=unit,
                unit_scale=unit == "w",
                dynamic_ncols=True,
            )
            if self.tty
            else None
        )

    def update(self, n: int, status: Callable[[], str]) -> None:
        """Count `n` more units; `status` gives the text shown beside the count."""
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


class ReadingProgress:
    """Status lines while the text files are read: files read of all, words so far and
    words/s, at most one every `every` seconds (nothing when `every` is None)."""

    def __init__(self, n_files: int, every: float | None) -> None:
        self.lines = Progress(every is not None, None, 0, every or 0.0, bar=False)
        self.n_files = n_files
        self.files = self.words = 0
        self.start = time.perf_counter()

    def words_read(self, n: int) -> None:
        self.words += n
        self.lines.update(n, self.status)

    def file_read(self) -> None:
        self.files += 1
        self.lines.update(0, self.status)

    def status(self) -> str:
        seconds = time.perf_counter() - self.start
        rate = self.words / seconds if seconds > 0 else 0.0
        return f"Read {self.files}/{self.n_files} file(s): {self.words:,} words, {rate:,.0f} w/s"


def format_word_count(n: float) -> str:
    """1234567 → "1.23M"."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= size:
            return f"{n / size:.2f}{unit}"
    return str(int(n))

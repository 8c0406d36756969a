"""Progress: a bar (words, words/s, docs, shards) on a terminal, plain status lines otherwise."""

from __future__ import annotations

import sys
import time
from typing import Optional, TextIO

from .results import ShardResult


class Progress:
    """Reports docs as they are annotated and shards as they complete."""

    def __init__(
        self, total_shards: int, bar: Optional[bool] = None, stream: Optional[TextIO] = None
    ) -> None:
        self.total_shards = total_shards
        self.stream = stream = stream if stream is not None else sys.stderr
        self.shards = self.docs = self.words = 0
        self.started = time.perf_counter()
        use_bar = stream.isatty() if bar is None else bar
        self.bar = None
        if use_bar:
            from tqdm import tqdm

            self.bar = tqdm(
                total=None, unit=" words", unit_scale=True, dynamic_ncols=True, file=stream
            )
            self._postfix()

    def start(self) -> None:
        """Restart the clock (call once the pipeline is loaded)."""
        self.started = time.perf_counter()
        if self.bar is not None:
            self.bar.reset()

    def docs_done(self, docs: int, words: int) -> None:
        """Docs annotated but not yet part of a complete shard."""
        self.docs += docs
        self.words += words
        if self.bar is not None:
            self.bar.update(words)
            if self.docs % 100 == 0:
                self._postfix()

    def shard_done(self, result: ShardResult, counted: bool = False) -> None:
        """A shard finished (or failed); `counted`: its docs were reported by docs_done."""
        self.shards += 1
        if not counted and result.error is None:
            self.docs_done(result.docs, result.words)
        if result.error is not None:
            self.message(f"✘ {result.name}: {result.error}")
        elif self.bar is not None:
            self._postfix()
        else:
            seconds = time.perf_counter() - self.started
            rate = self.words / seconds if seconds > 0 else 0.0
            self.message(
                f"[{self.shards}/{self.total_shards}] {result.name}: {result.docs:,} docs, "
                f"{result.words:,} words; {self.words:,} words in {seconds:,.1f} s "
                f"({rate:,.0f} words/s)"
            )

    def message(self, text: str) -> None:
        """A line that does not break the bar."""
        if self.bar is not None:
            self.bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self._postfix()
            self.bar.close()

    def _postfix(self) -> None:
        assert self.bar is not None
        self.bar.set_postfix_str(
            f"{self.docs:,} docs, {self.shards}/{self.total_shards} shards", refresh=False
        )

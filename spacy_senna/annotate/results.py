"""What one shard's annotation produced, and the run's summary."""

from __future__ import annotations

import resource
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

from spacy.tokens import Doc


@dataclass
class ShardResult:
    """Docs and words annotated for one shard, or the error that stopped it."""

    name: str
    source: str
    docs: int = 0
    words: int = 0
    error: Optional[str] = None
    peak_rss_mib: float = 0.0  # of the worker that annotated it (Ray), 0 when unknown
    batch_size: int = 0  # docs per `nlp.pipe` batch it was annotated in, 0 when unknown


@dataclass
class BackendRun:
    """What a backend returns: shard results, annotation seconds, largest worker RSS."""

    results: List[ShardResult]
    seconds: float
    worker_peak_rss_mib: float = 0.0


@dataclass
class RunSummary:
    """Totals of a run; `seconds` counts annotation only, `total_seconds` pipeline loading too."""

    docs: int = 0
    words: int = 0
    seconds: float = 0.0
    total_seconds: float = 0.0
    shards_done: int = 0
    shards_skipped: int = 0
    shards_changed: int = 0  # annotated again: their input changed since their output
    failures: List[Tuple[str, str]] = field(default_factory=list)
    driver_peak_rss_mib: float = 0.0
    worker_peak_rss_mib: float = 0.0
    workers: int = 1
    backend: str = "local"
    device: str = "CPU"
    batch_size: int = 0  # docs per batch the workers used, 0 before any shard ran
    #: every shard's output file, in input order (complete unless its shard failed)
    outputs: List[Path] = field(default_factory=list)

    @property
    def words_per_second(self) -> float:
        return self.words / self.seconds if self.seconds > 0 else 0.0

    def add(self, result: ShardResult) -> None:
        if result.error is not None:
            self.failures.append((result.source, result.error))
            return
        self.shards_done += 1
        self.batch_size = max(self.batch_size, result.batch_size)
        self.docs += result.docs
        self.words += result.words

    def as_dict(self) -> Dict[str, Any]:
        values = asdict(self)
        values["words_per_second"] = round(self.words_per_second, 1)
        values["failures"] = [list(f) for f in self.failures]
        del values["outputs"]  # the shard files are in the folder itself
        return values

    def settings_line(self) -> str:
        """What the run ran with: backend, workers, device and batch size."""
        batches = f", batches of {self.batch_size:,} docs" if self.batch_size else ""
        return f"backend {self.backend}, {self.workers} worker(s) on {self.device}{batches}"

    def lines(self) -> List[str]:
        """The summary printed at the end of a run."""
        lines = [
            f"✔ Annotated {self.docs:,} docs, {self.words:,} words in {self.seconds:,.1f} s "
            f"({self.words_per_second:,.0f} words/s; {self.total_seconds:,.1f} s with "
            f"pipeline loading); {self.shards_done:,} shards written, "
            f"{self.shards_skipped:,} already complete",
            f"  {self.settings_line()}; peak RSS: driver "
            f"{self.driver_peak_rss_mib:,.0f} MiB, "
            f"largest worker {self.worker_peak_rss_mib:,.0f} MiB",
        ]
        if self.failures:
            lines.append(f"✘ {len(self.failures)} input(s) or shard(s) failed:")
            lines += [f"  {source}: {message}" for source, message in self.failures]
        return lines


def count_words(doc: Doc) -> int:
    """Tokens that are not only whitespace."""
    return sum(1 for token in doc if not token.is_space)


def peak_rss_mib(children: bool = False) -> float:
    """Peak resident memory of this process (or of its largest waited-for child), MiB.

    This process's own high-water mark where the system keeps one (Linux: VmHWM), since
    `ru_maxrss` survives fork and exec: a command started from a large process would
    report that process's peak.
    """
    if not children:
        own = own_peak_rss_mib()
        if own is not None:
            return own
    who = resource.RUSAGE_CHILDREN if children else resource.RUSAGE_SELF
    return resource.getrusage(who).ru_maxrss / 1024


def own_peak_rss_mib(status: str = "/proc/self/status") -> Optional[float]:
    """VmHWM, the high-water mark of this process's own memory since it started (or last
    exec'd), MiB; None where the system has no such file."""
    try:
        with open(status, encoding="ascii") as lines:
            for line in lines:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        return None
    return None

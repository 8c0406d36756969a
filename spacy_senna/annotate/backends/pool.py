"""Annotate shards with local worker processes, each loading the pipeline once and
writing whole shards, as the Ray actors do.

The parent only hands out shards, so the work scales with the processes. spaCy's
`nlp.pipe(n_process=N)` (the local backend's route when there are fewer shards than
processes) sends every doc back through the parent, which then formats all the output
itself: on 2 cores it gained only 1.09x (docs/experiments/annotate-scale.md), this pool
1.8x like Ray.
"""

from __future__ import annotations

import multiprocessing
import time
from pathlib import Path
from typing import Any, List, Optional, Tuple

from ..progress import Progress
from ..results import BackendRun, ShardResult
from ..settings import AnnotateSettings
from ..shards import Shard
from ..worker import ShardWorker

_worker: Optional[ShardWorker] = None


def _load(pipeline: str, settings: AnnotateSettings, ready: Any) -> None:
    """Pool initializer: load the pipeline once per process, then say so, or say why it
    could not (an initializer that raised would be restarted by the pool, forever)."""
    global _worker
    try:
        _worker = ShardWorker(pipeline, settings, settings.gpu_id)
    except Exception as err:
        ready.put((type(err).__name__, str(err)))
        return
    ready.put(None)


def _annotate(task: Tuple[Shard, str]) -> ShardResult:
    assert _worker is not None, "the pool initializer did not run"
    shard, output_dir = task
    return _worker.run(shard, output_dir)


def run_pool(
    pipeline: str,
    shards: List[Shard],
    output_dir: Path,
    settings: AnnotateSettings,
    progress: Progress,
) -> BackendRun:
    """Annotate `shards` with `settings.n_process` processes (timed once they are loaded)."""
    context = multiprocessing.get_context("spawn")  # no forked torch/OpenMP state
    ready = context.Queue()
    n = min(settings.n_process, len(shards))
    with context.Pool(n, initializer=_load, initargs=(pipeline, settings, ready)) as pool:
        for _ in range(n):
            _raise_load_failure(ready.get())
        tasks = pool.imap_unordered(_annotate, [(s, str(output_dir)) for s in shards])
        started = time.perf_counter()
        progress.start()
        results = []
        for result in tasks:
            results.append(result)
            progress.shard_done(result)
        seconds = time.perf_counter() - started
    peak = max((r.peak_rss_mib for r in results), default=0.0)
    return BackendRun(results, seconds, peak)


def _raise_load_failure(failure: Optional[Tuple[str, str]]) -> None:
    """A worker's failure to load the pipeline (or to use its GPU), raised in the parent
    as the one-process run raises it: a ValueError stays one, anything else names its type."""
    if failure is None:
        return
    kind, message = failure
    if kind == "ValueError":
        raise ValueError(message)
    raise RuntimeError(f"A worker process could not load the pipeline: {kind}: {message}")

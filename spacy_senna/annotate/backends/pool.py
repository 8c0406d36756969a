"""Annotate shards with local worker processes, each loading the pipeline once and
writing whole shards, as the Ray actors do.

The parent only hands out shards, so the work scales with the processes. spaCy's
`nlp.pipe(n_process=N)` (the local backend's route when there are fewer shards than
processes) sends every doc back through the parent, which then formats all the output
itself: on 2 cores it gained only 1.09x (docs/experiments/annotate-scale.md), this pool
1.8x like Ray.

The parent gives each worker one shard at a time, so it knows which shard a worker holds:
a worker that dies (killed for memory, say) loses that shard, reported as failed, and a
new worker takes its place for the shards left (one that cannot load is not replaced).
(`multiprocessing.Pool` waited forever for a lost task, and restarted a worker that could
not load the pipeline without end.) Each worker replies through a pipe of its own: a worker
killed while it writes can only cut its own pipe short (read as its end), where a shared
queue would keep the write lock it held from every other worker, and the run would wait for
their replies for ever.
"""

from __future__ import annotations

import multiprocessing
import os
import time
from collections import deque
from itertools import count
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any, Callable, Deque, Dict, List, Optional, Set, Tuple

from ..interrupt import die_with_parent, sigint_ignored
from ..progress import Progress
from ..results import BackendRun, ShardResult
from ..settings import AnnotateSettings
from ..shards import Shard
from ..worker import ShardWorker

#: seconds between checks that the workers are alive while none reports
POLL_SECONDS = 0.5


def _serve(
    number: int,
    parent: int,
    pipeline: str,
    settings: AnnotateSettings,
    tasks: Any,
    replies: Connection,
) -> None:
    """A worker process: load the pipeline once (or say why it could not), then annotate
    the shards the parent sends until it sends None; it ends with its parent."""
    die_with_parent(parent)
    try:
        worker = ShardWorker(pipeline, settings, settings.gpu_id)
    except Exception as err:
        kind = "ValueError" if isinstance(err, ValueError) else type(err).__name__
        replies.send((number, "failed", (kind, str(err))))
        return
    replies.send((number, "ready", None))
    while True:
        task = tasks.get()
        if task is None:
            return
        shard, output_dir = task
        replies.send((number, "done", worker.run(shard, output_dir)))


class _Workers:
    """The worker processes, by number, each with its own task queue and reply pipe."""

    def __init__(self, n: int, pipeline: str, settings: AnnotateSettings) -> None:
        self.context = multiprocessing.get_context("spawn")  # no forked torch/OpenMP/CUDA
        self.pipeline = pipeline
        self.settings = settings
        self.tasks: Dict[int, Any] = {}
        self.processes: Dict[int, Any] = {}
        # the read ends of the reply pipes still open, by worker
        self.inbox: Dict[int, Connection] = {}
        self.numbers = count()
        for _ in range(n):
            self.start()

    def start(self) -> int:
        """Start one more worker; its number (it replies "ready" once it has loaded)."""
        k = next(self.numbers)
        self.tasks[k] = self.context.Queue()
        receive, send = self.context.Pipe(duplex=False)
        self.processes[k] = self.context.Process(
            target=_serve,
            args=(k, os.getpid(), self.pipeline, self.settings, self.tasks[k], send),
            daemon=True,
        )
        with sigint_ignored():  # a terminal's Ctrl-C is the driver's to handle
            self.processes[k].start()
        send.close()  # the worker holds the only write end: the pipe ends when it does
        self.inbox[k] = receive
        return k

    def reply(self, waiting_on: List[int]) -> Tuple[Optional[tuple], List[int]]:
        """The next reply, or (None, the workers of `waiting_on` that have died)."""
        for connection in wait(list(self.inbox.values()), timeout=POLL_SECONDS):
            k = next(k for k, c in self.inbox.items() if c is connection)
            try:
                return connection.recv(), []
            except (EOFError, OSError):  # the worker ended: all it sent has been read
                connection.close()
                del self.inbox[k]
        dead = [k for k in waiting_on if k not in self.inbox and not self.processes[k].is_alive()]
        return None, dead

    def death(self, k: int) -> str:
        """How worker `k` ended: "died (killed by signal 9)", "died (exit code 1)"."""
        code = self.processes[k].exitcode
        how = f"killed by signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return f"died ({how})"

    def stop(self) -> None:
        """End every worker now, whatever it is doing (its shard stays unwritten)."""
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            process.join(timeout=5)
            if process.is_alive():
                process.kill()
                process.join()
        self._close_inbox()

    def _close_inbox(self) -> None:
        for connection in self.inbox.values():
            connection.close()
        self.inbox.clear()

    def close(self) -> None:
        """Let every worker finish and end; terminate those that do not."""
        for k, process in self.processes.items():
            if process.is_alive():
                self.tasks[k].put(None)
        for process in self.processes.values():
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
        self._close_inbox()


def run_pool(
    pipeline: str,
    shards: List[Shard],
    output_dir: Path,
    settings: AnnotateSettings,
    progress: Progress,
    loaded: Callable[[], None],
) -> BackendRun:
    """Annotate `shards` with `settings.n_process` processes (timed once they are loaded);
    `loaded()` once every one has loaded the pipeline."""
    workers = _Workers(min(settings.n_process, len(shards)), pipeline, settings)
    try:
        _wait_until_loaded(workers)
        loaded()
        started = time.perf_counter()
        progress.start()
        results = _hand_out(workers, shards, str(output_dir), progress)
        seconds = time.perf_counter() - started
    except BaseException:
        workers.stop()  # interrupted or failed: nothing more is written
        raise
    workers.close()
    peak = max((r.peak_rss_mib for r in results), default=0.0)
    return BackendRun(results, seconds, peak)


def _wait_until_loaded(workers: _Workers) -> None:
    """Return once every worker has loaded the pipeline; raise the first failure."""
    loading = list(workers.processes)
    while loading:
        reply, dead = workers.reply(loading)
        if dead:
            raise RuntimeError(
                f"A worker process {workers.death(dead[0])} while loading the pipeline"
            )
        if reply is not None:
            number, kind, payload = reply
            if kind == "failed":
                _raise_load_failure(*payload)
            loading.remove(number)


def _hand_out(
    workers: _Workers, shards: List[Shard], output_dir: str, progress: Progress
) -> List[ShardResult]:
    """Give each idle worker the next shard until all are done; a worker that dies loses
    its shard and, while shards are left, is replaced by a new one."""
    pending: Deque[Shard] = deque(shards)
    busy: Dict[int, Shard] = {}
    loading: Set[int] = set()  # replacements not ready yet
    no_worker = "no worker process left"
    results: List[ShardResult] = []

    def give(k: int) -> None:
        if pending:
            busy[k] = pending.popleft()
            workers.tasks[k].put((busy[k], output_dir))

    def record(result: ShardResult) -> None:
        results.append(result)
        progress.shard_done(result)

    for k in list(workers.processes):
        give(k)
    while busy or (loading and pending):
        reply, dead = workers.reply([*busy, *loading])
        for k in dead:
            if k in busy:
                shard = busy.pop(k)
                error = f"worker process {workers.death(k)} while annotating this shard"
                record(ShardResult(shard.name, shard.source, error=error))
                if pending:
                    loading.add(workers.start())
            else:  # a replacement that died while loading is not replaced again
                loading.discard(k)
                no_worker = f"no worker process left (a new one {workers.death(k)} while loading)"
        if reply is not None:
            k, kind, payload = reply
            if kind == "failed":
                loading.discard(k)
                no_worker = f"no worker process left (a new one could not load: {payload[1]})"
            elif kind == "ready" and k in loading:
                loading.discard(k)
                give(k)
            elif kind == "done" and k in busy:  # not a shard already reported lost
                busy.pop(k)
                record(payload)
                give(k)
        if not busy and not loading:
            while pending:
                shard = pending.popleft()
                record(ShardResult(shard.name, shard.source, error=no_worker))
    return results


def _raise_load_failure(kind: str, message: str) -> None:
    """A worker's failure to load the pipeline (or to use its GPU), raised in the parent
    as the one-process run raises it: a ValueError stays one, anything else names its type."""
    if kind == "ValueError":
        raise ValueError(message)
    raise RuntimeError(f"A worker process could not load the pipeline: {kind}: {message}")

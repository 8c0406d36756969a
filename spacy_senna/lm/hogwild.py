"""Training with several CPU processes that update one shared model without locks.

`workers` > 1 (Hogwild!, Niu et al. 2011): the model's parameters move to shared
memory and each worker process applies its own SGD steps to them directly, with no
lock: two workers rarely touch the same word rows, and collisions on the shared layers
only add noise. The main process keeps everything else of a run: the window sampler
(so every training window is still visited once per epoch, and the checkpoint's
sampler state stays exact), the limits, the curriculum, validation, progress and
checkpoints. It hands out batches of window positions, at most two per worker ahead,
and before each validation point, stage switch, checkpoint and at the end it stops
handing them out and waits for those in flight: these steps always see a model no
worker is changing.

Each worker draws its own negatives (seeded from the run's seed and its index), runs
`threads` intra-op threads (default: cores / workers) and keeps the memory its steps
free for the next ones (`allocator`: otherwise page faults took 40% of its CPU time).
The order in which steps land depends on the scheduler, so runs with several workers
are not reproducible; `workers = 1` never comes here and stays bit-for-bit
reproducible. Only plain SGD qualifies: it keeps no state, so the workers need not
share an optimiser's.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import shutil
import signal
import time
import traceback
from collections.abc import Callable
from pathlib import Path

import numpy
import torch
import torch.multiprocessing

from ..runtime.allocator import keep_freed_memory
from .corpus import EncodedCorpus
from .optimizers import make_optimizers
from .progress import Progress
from .ranking_model import RankingLM
from .settings import PretrainConfig
from .trainer import Trainer, train_step

#: batches handed out ahead, per worker
_AHEAD = 2
#: seconds between checks that the workers are alive while waiting for a result
_POLL_SECONDS = 1.0
#: seconds a worker process may take to start (import torch and the package)
_START_SECONDS = 300.0


def worker_threads(config: PretrainConfig) -> int:
    """Intra-op threads per worker: `threads`, or the cores shared out between workers."""
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:
        cores = os.cpu_count() or 1
    return config.threads or max(1, cores // config.workers)


def train_hogwild(trainer: Trainer, bar: Progress, save: Callable[[], None]) -> None:
    """`Trainer.train` with `config.workers` processes (see the module docstring)."""
    _check_shared_memory(trainer.model)
    context = torch.multiprocessing.get_context("spawn")
    trainer.model.share_memory()
    tasks = context.Queue()
    results = context.Queue()
    workers = [
        context.Process(
            target=_work,
            args=(
                index,
                trainer.model,
                str(trainer.corpus.directory),
                trainer.config,
                worker_threads(trainer.config),
                tasks,
                results,
            ),
            daemon=True,
        )
        for index in range(trainer.config.workers)
    ]
    for process in workers:
        process.start()
    try:
        _Coordinator(trainer, bar, save, workers, tasks, results).run()
    finally:
        for _ in workers:
            tasks.put(None)
        for process in workers:
            process.join(timeout=10)
            if process.is_alive():
                process.terminate()
                process.join()


def _check_shared_memory(model: RankingLM, shm: Path = Path("/dev/shm")) -> None:
    """ValueError when the model cannot fit in shared memory (a crash later, otherwise)."""
    needed = sum(t.numel() * t.element_size() for t in model.state_dict(keep_vars=True).values())
    if shm.is_dir():
        free = shutil.disk_usage(shm).free
        if free < needed:
            raise ValueError(
                f"The workers need {needed / 2**20:,.0f} MiB of shared memory for the model, "
                f"but {shm} has {free / 2**20:,.0f} MiB free: enlarge it (e.g. docker "
                "--shm-size), lower --vocab-size, or use --workers 1."
            )


class _Coordinator:
    """The main process's side: hand out batches, collect results, run the events."""

    def __init__(
        self,
        trainer: Trainer,
        bar: Progress,
        save: Callable[[], None],
        workers: list,
        tasks,
        results,
    ) -> None:
        self.trainer = trainer
        self.bar = bar
        self.save = save
        self.workers = workers
        self.tasks = tasks
        self.results = results
        self.batches_out = 0
        self.words_out = 0
        self.loop_start = time.perf_counter()
        self.start_seconds = trainer.state["seconds"]
        self.active_since: float | None = None
        self.train_base = 0.0

    def run(self) -> None:
        trainer, config, state = self.trainer, self.trainer.config, self.trainer.state
        bar = trainer.bar = self.bar
        trainer.model.train()
        n_stages = len(trainer.stages)
        for _ in self.workers:
            self._receive(timeout=_START_SECONDS)
        if not state["curve"]:
            trainer.validate()
        next_eval = state["words_seen"] + config.eval_every_words
        last_save = self.loop_start = time.perf_counter()
        self._start_clock()
        try:
            while True:
                now = self._tick()
                handed_out = state["words_seen"] + self.words_out
                fraction = trainer.progress_fraction(handed_out)
                stage = min(int(fraction * n_stages), n_stages - 1)
                every = config.checkpoint_every_seconds
                checkpoint_due = bool(every) and now - last_save >= every
                if (
                    fraction >= 1.0
                    or stage > state["stage"]
                    or handed_out >= next_eval
                    or checkpoint_due
                ):
                    self._drain()
                    self._stop_clock()
                    if trainer.progress_fraction() >= 1.0:
                        state["stop_reason"] = "limit reached"
                        break
                    eval_due = state["words_seen"] >= next_eval
                    if stage > state["stage"] or eval_due:
                        trainer.validate()
                    if eval_due:
                        next_eval = state["words_seen"] + config.eval_every_words
                    if stage > state["stage"]:
                        trainer.grow_dictionary(stage)
                    if checkpoint_due:
                        self.save()
                        last_save = time.perf_counter()
                    self._start_clock()
                elif self.batches_out < _AHEAD * len(self.workers):
                    positions = trainer.sampler.next_batch()
                    self.tasks.put((positions, trainer.n_rows))
                    self.batches_out += 1
                    self.words_out += len(positions)
                else:
                    self._receive()
        except KeyboardInterrupt:
            state["stop_reason"] = "interrupted"
            bar.write("Interrupted: waiting for the workers' last steps, then writing.")
            self._drain()
            self._stop_clock()
        if state["curve"][-1]["words"] != state["words_seen"]:
            trainer.validate()
        self.save()

    def _start_clock(self) -> None:
        """Workers are busy from now: their time counts as training time."""
        self.active_since = time.perf_counter()
        self.train_base = self.trainer.state["train_seconds"]

    def _tick(self) -> float:
        """Bring the run's clocks up to date; returns the time now."""
        now = time.perf_counter()
        state = self.trainer.state
        state["seconds"] = self.start_seconds + now - self.loop_start
        if self.active_since is not None:
            state["train_seconds"] = self.train_base + now - self.active_since
        return now

    def _stop_clock(self) -> None:
        """No batch is out: validation and checkpoints do not count as training time."""
        self._tick()
        self.active_since = None

    def _drain(self) -> None:
        while self.batches_out:
            self._receive()

    def _receive(self, timeout: float | None = None) -> None:
        """Wait for one message from a worker: ready, a finished step, or its error."""
        waited = 0.0
        while True:
            try:
                message = self.results.get(timeout=_POLL_SECONDS)
                break
            except queue.Empty:
                waited += _POLL_SECONDS
                dead = [p for p in self.workers if not p.is_alive()]
                if dead:
                    hint = (
                        " A script that starts pretraining with several workers must do so "
                        'under `if __name__ == "__main__":` (the workers import it).'
                        if timeout is not None
                        else ""
                    )
                    raise RuntimeError(
                        "A training worker stopped unexpectedly "
                        f"(exit code {dead[0].exitcode}).{hint}"
                    ) from None
                if timeout is not None and waited >= timeout:
                    raise RuntimeError(
                        f"The training workers did not start within {timeout:.0f} s."
                    ) from None
        kind = message[0]
        if kind == "error":
            raise RuntimeError(f"A training worker failed:\n{message[1]}")
        if kind == "step":
            _, n, loss, pairs, cpu_seconds = message
            trainer = self.trainer
            trainer.state["train_cpu_seconds"] += cpu_seconds
            self.batches_out -= 1
            self.words_out -= n
            trainer.state["words_seen"] += n
            trainer.loss_sum += loss
            trainer.pair_sum += pairs
            self._tick()
            self.bar.update(n, trainer.status)


def _work(
    index: int,
    model: RankingLM,
    corpus_dir: str,
    config: PretrainConfig,
    threads: int,
    tasks,
    results,
) -> None:
    """A worker process: train on the batches of `tasks` until it gets None."""
    for sig in (signal.SIGINT, signal.SIGTERM):  # the main process stops the run
        signal.signal(sig, signal.SIG_IGN)
    try:
        keep_freed_memory()
        torch.set_num_threads(threads)
        corpus = EncodedCorpus(Path(corpus_dir))
        optimizers = make_optimizers(model, config)
        seed = int(numpy.random.SeedSequence([config.seed, index]).generate_state(1)[0])
        generator = torch.Generator().manual_seed(seed)
        results.put(("ready", index))
        while (task := _next_task(tasks)) is not None:
            positions, n_rows = task
            cpu_start = time.process_time()
            loss, pairs = train_step(
                model, optimizers, corpus, positions, n_rows, config.negatives, generator
            )
            cpu_seconds = time.process_time() - cpu_start
            results.put(("step", len(positions), float(loss), int(pairs), cpu_seconds))
    except Exception:
        results.put(("error", traceback.format_exc()))


def _next_task(tasks) -> tuple | None:
    """The next batch, or None when told to stop or when the main process is gone.

    A main process that is killed cannot tell its workers to stop, and they would wait for
    batches forever: they check every `_POLL_SECONDS` that it still runs.
    """
    parent = multiprocessing.parent_process()
    while True:
        try:
            return tasks.get(timeout=_POLL_SECONDS)
        except queue.Empty:
            if parent is not None and not parent.is_alive():
                return None
